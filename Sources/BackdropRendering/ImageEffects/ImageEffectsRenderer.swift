import BackdropImageIO

/// Executes an ``ImageEffectsPlan`` on the CPU: its passes in order, each over row bands spread on the threads of
/// ``Renderer/parallelism``, as the system plans' passes are. The schedule, apart from the passes' maths: which
/// buffer each pass reads and writes (the crop lives in the output's first samples until the composite writes them,
/// so the passes need one frame-sized buffer of their own, not two: a frame's worth less memory at the peak), which
/// passes run as passes of their own (the saturation does not where the composite's kernel applies it) and how rows
/// are cut into bands. The same bytes for any thread count: every pass computes each value from the same inputs.
extension Renderer {
    /// `plan` over `source` (straight RGBA8); `mask` (the frame's size, its luminance × alpha the coverage) limits
    /// where the effect shows, as `maskImage` does. Throws `.badOption` for a mask of another size. The passes'
    /// frame-sized scratch is kept for the next render (up to 64 MB, one for the process: `KeptScratch`).
    public func render(
        _ source: RGBAImage<UInt8>, imageEffects plan: ImageEffectsPlan, mask: RGBAImage<UInt8>? = nil
    ) throws(BackdropError) -> RGBAImage<UInt8> {
        let frame = plan.frame
        if let mask, mask.size != frame.size {
            throw BackdropError(
                .badOption, "the mask is \(mask.size), the frame \(frame.size): give a mask of the frame's size")
        }
        var result = RGBAImage(width: source.width, height: source.height, samples: Self.unfilled(source.samples.count))
        let maskSamples = mask?.samples ?? []
        // The effect: kept from one render for the next (KeptScratch says why).
        KeptScratch.shared.withBuffer(count: plan.boxWidth != nil ? 4 * frame.width * frame.height : 0) { effect in
            source.samples.withUnsafeBufferPointer { input in
                maskSamples.withUnsafeBufferPointer { maskSamples in
                    result.samples.withUnsafeMutableBufferPointer { output in
                        let sourceBase = UnsafeMutablePointer(mutating: input.baseAddress!)
                        let whole = PixelRect(covering: source.size)
                        func buffer(_ name: ImageEffectsPlan.Buffer) -> ByteRows? {
                            switch name {
                            case .source: ByteRows(sourceBase, frame: whole, ofPictureWidth: source.width)
                            case .sourceFrame: ByteRows(sourceBase, frame: frame, ofPictureWidth: source.width)
                            case .crop: ByteRows(output.baseAddress!, width: frame.width, height: frame.height)
                            case .effect:
                                effect.baseAddress.map { ByteRows($0, width: frame.width, height: frame.height) }
                            case .mask:
                                mask == nil
                                    ? nil
                                    : ByteRows(
                                        UnsafeMutablePointer(mutating: maskSamples.baseAddress!), width: frame.width,
                                        height: frame.height)
                            case .output: ByteRows(output.baseAddress!, frame: whole, ofPictureWidth: source.width)
                            case .outputFrame: ByteRows(output.baseAddress!, frame: frame, ofPictureWidth: source.width)
                            }
                        }
                        for step in plan.passes where !step.isFused {
                            let target = buffer(step.writes)!, inputs = step.reads.map(buffer), pass = step.pass
                            parallelism.forEachBand(of: target.height, minimumBandSize: pass.minimumRowsPerBand) {
                                band in pass.write(band, of: target, reading: inputs)
                            }
                        }
                    }
                }
            }
        }
        return result
    }

    /// A buffer of `count` samples each pass writes in full before any reads it: filling it first would cost a pass
    /// over it for nothing.
    static func unfilled(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }
}
