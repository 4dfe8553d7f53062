import BackdropImageIO
import CVectorKernels

/// Runs an ``ImageEffectsPlan`` on the CPU: the steps its comment states, in integers on 8-bit premultiplied RGBA.
/// The same bytes for any thread count: every step computes each value from the same inputs, rows spread over
/// threads; and with or without the vector kernels (`bd_premultiply_row_v3`, `bd_image_effects_composite_row_v3`),
/// which compute the same integers.
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
        let blurred = plan.boxWidth != nil
        // The tint: the vector kernel computes it on TintFill8's lines, the portable loop reads its table; a tint without
        // lines (none seen) goes through the portable loop. The kernel also applies the saturation matrix as it reads
        // the effect; the portable loops take it as a step of its own.
        let tint = TintFill8(style: plan.style)
        let useKernel = VectorKernels.available && tint.lines != nil
        // The output picture. Until the composite writes it, its first 4 · width · height samples hold the crop (the
        // composite premultiplies the source's pixels again as it reads them), so the passes need one frame-sized
        // buffer of their own, not two: a frame's worth less memory at the peak.
        var result = RGBAImage(width: source.width, height: source.height, samples: Self.unfilled(source.samples.count))
        // The passes' scratch: kept from one render for the next (KeptScratch says why).
        KeptScratch.shared.withBuffer(count: blurred ? 4 * frame.width * frame.height : 0) { effect in
            if let box = plan.boxWidth {
                // 1–2. The crop, premultiplied, blurred by three box passes into `effect`.
                result.samples.withUnsafeMutableBufferPointer { output in
                    let crop = UnsafeMutableBufferPointer(rebasing: output[..<effect.count])
                    blurCrop(of: source, frame: frame, box: box, crop: crop, into: effect)
                }
                // 3. The saturation matrix (in the composite kernel where it runs).
                if !useKernel { plan.saturationMatrix?.apply(effect, parallelism: parallelism) }
            }
            // 4. The output: the source outside the frame, copied here, and the composite inside it, written below (a
            // copy of the whole source would write the frame's pixels once for nothing): the crop, the effect over it
            // through the mask, the tint over all.
            copyOutsideFrame(of: source, frame: frame, into: &result)
            composite(
                source, effect: blurred ? UnsafeBufferPointer(effect) : nil, mask: mask, plan: plan, tint: tint,
                useKernel: useKernel, into: &result)
        }
        return result
    }

    /// Steps 1 and 2: `frame` of `source` premultiplied into `crop`, then three box passes of width `box`, crop →
    /// effect → crop → effect.
    private func blurCrop(
        of source: RGBAImage<UInt8>, frame: PixelRect, box: Int, crop: UnsafeMutableBufferPointer<UInt8>,
        into effect: UnsafeMutableBufferPointer<UInt8>
    ) {
        let width = frame.width, height = frame.height, sourceWidth = source.width
        source.samples.withUnsafeBufferPointer { input in
            let from = SendableConstPointer(input.baseAddress!), to = SendablePointer(crop.baseAddress!)
            parallelism.forEachBand(of: height, minimumBandSize: Parallelism.minimumRowsPerBand) { rows in
                for y in rows {
                    let s = from.pointer + 4 * ((frame.y + y) * sourceWidth + frame.x), t = to.pointer + 4 * width * y
                    if VectorKernels.available {
                        bd_premultiply_row_v3(s, width, t)
                        continue
                    }
                    for x in 0..<width {
                        let pixel = Self.premultiplied(s + 4 * x)
                        for c in 0..<4 { t[4 * x + c] = UInt8(pixel[c]) }
                    }
                }
            }
        }
        for (from, to) in [(crop, effect), (effect, crop), (crop, effect)] {
            BoxBlur8.apply(
                UnsafeBufferPointer(from), into: to, width: width, height: height, box: box, parallelism: parallelism)
        }
    }

    /// Step 4, outside the frame: `source`'s pixels copied into `result` unchanged.
    private func copyOutsideFrame(of source: RGBAImage<UInt8>, frame: PixelRect, into result: inout RGBAImage<UInt8>) {
        let sourceWidth = source.width
        source.samples.withUnsafeBufferPointer { input in
            result.samples.withUnsafeMutableBufferPointer { output in
                let from = SendableConstPointer(input.baseAddress!), to = SendablePointer(output.baseAddress!)
                parallelism.forEachBand(of: source.height, minimumBandSize: Parallelism.minimumCopiedRowsPerBand) {
                    rows in
                    for y in rows {
                        let row = 4 * y * sourceWidth
                        let spans =
                            y < frame.y || y >= frame.maxY
                            ? [0..<sourceWidth] : [0..<frame.x, frame.maxX..<sourceWidth]
                        for span in spans where !span.isEmpty {
                            (to.pointer + row + 4 * span.lowerBound).update(
                                from: from.pointer + row + 4 * span.lowerBound, count: 4 * span.count)
                        }
                    }
                }
            }
        }
    }

    /// Steps 4 and 5 inside the frame: the crop premultiplied again, `effect` (nil: no blur) over it through
    /// `mask`, the tint over all, unpremultiplied into `result`.
    private func composite(
        _ source: RGBAImage<UInt8>, effect: UnsafeBufferPointer<UInt8>?, mask: RGBAImage<UInt8>?,
        plan: ImageEffectsPlan, tint: TintFill8, useKernel: Bool, into result: inout RGBAImage<UInt8>
    ) {
        let frame = plan.frame, width = frame.width, sourceWidth = source.width
        let lines = tint.lines ?? []
        let saturationEntries = plan.saturationMatrix.map { $0.entries.flatMap { $0 } }
        let empty: [UInt8] = []
        let maskSamples = mask?.samples ?? empty
        let e = effect?.baseAddress.map(SendableConstPointer.init)
        tint.table.withUnsafeBufferPointer { tintedBuffer in
            source.samples.withUnsafeBufferPointer { sourceBuffer in
                maskSamples.withUnsafeBufferPointer { maskBuffer in
                    result.samples.withUnsafeMutableBufferPointer { resultBuffer in
                        let from = SendableConstPointer(sourceBuffer.baseAddress!)
                        let m = mask == nil ? nil : maskBuffer.baseAddress.map(SendableConstPointer.init)
                        let out = SendablePointer(resultBuffer.baseAddress!)
                        let table = SendableConstPointer(tintedBuffer.baseAddress!)
                        parallelism.forEachBand(of: frame.height, minimumBandSize: Parallelism.minimumRowsPerBand) {
                            rows in
                            for y in rows {
                                let sourceRow = from.pointer + 4 * ((frame.y + y) * sourceWidth + frame.x)
                                let outRow = out.pointer + 4 * ((frame.y + y) * sourceWidth + frame.x)
                                if useKernel {
                                    let row = 4 * y * width
                                    bd_image_effects_composite_row_v3(
                                        sourceRow, e.map { $0.pointer + row }, saturationEntries,
                                        m.map { $0.pointer + row }, lines, width, outRow)
                                    continue
                                }
                                for x in 0..<width {
                                    Self.compositePixel(
                                        sourceRow + 4 * x, effect: e.map { $0.pointer + 4 * (y * width + x) },
                                        mask: m.map { $0.pointer + 4 * (y * width + x) }, table: table.pointer,
                                        into: outRow + 4 * x)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The portable composite of one pixel: `source` (straight) premultiplied, `effect` (premultiplied, nil: none)
    /// over it with the coverage of `mask` (nil: full), the tint `table` over all, unpremultiplied into `out`.
    @inline(__always) private static func compositePixel(
        _ source: UnsafePointer<UInt8>, effect: UnsafePointer<UInt8>?, mask: UnsafePointer<UInt8>?,
        table: UnsafePointer<UInt32>, into out: UnsafeMutablePointer<UInt8>
    ) {
        var pixel = premultiplied(source)
        if let effect {
            var coverage: UInt32 = 255
            if let p = mask {
                let luminance = (54 * UInt32(p[0]) + 183 * UInt32(p[1]) + 19 * UInt32(p[2]) + 128) >> 8
                coverage = dividedBy255(luminance * UInt32(p[3]) + 127)
            }
            let over = dividedBy255(
                SIMD4<UInt32>(UInt32(effect[0]), UInt32(effect[1]), UInt32(effect[2]), UInt32(effect[3]))
                    &* coverage &+ 127)
            pixel = over &+ dividedBy255(pixel &* (255 &- over[3]) &+ 127)
            pixel.replace(with: SIMD4(repeating: 255), where: pixel .> 255)
        }
        let final = SIMD4<UInt32>(
            table[Int(pixel[0])], table[256 + Int(pixel[1])], table[512 + Int(pixel[2])], table[768 + Int(pixel[3])])
        // 5. Unpremultiplied, into the frame.
        let a = final[3]
        for lane in 0..<3 {
            out[lane] = a == 255 ? UInt8(final[lane]) : a == 0 ? 0 : UInt8(min(255, (final[lane] * 255 + a / 2) / a))
        }
        out[3] = UInt8(a)
    }

    /// A buffer of `count` samples each step writes in full before any reads it: filling it first would cost a
    /// pass over it for nothing.
    static func unfilled(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    /// A straight RGBA8 pixel premultiplied: each colour ⌊(c · a + 127) / 255⌋.
    @inline(__always) static func premultiplied(_ p: UnsafePointer<UInt8>) -> SIMD4<UInt32> {
        let a = UInt32(p[3])
        return SIMD4(
            dividedBy255(UInt32(p[0]) * a + 127), dividedBy255(UInt32(p[1]) * a + 127),
            dividedBy255(UInt32(p[2]) * a + 127), a)
    }

    /// ⌊y / 255⌋ for 0 ≤ y ≤ 65 152 (every value these steps divide), without a division.
    @inline(__always) static func dividedBy255(_ y: UInt32) -> UInt32 { (y &+ 1 &+ (y >> 8)) >> 8 }
    @inline(__always) static func dividedBy255(_ y: SIMD4<UInt32>) -> SIMD4<UInt32> { (y &+ 1 &+ (y &>> 8)) &>> 8 }
}
