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
        let width = frame.width, height = frame.height, sourceWidth = source.width
        let blurred = plan.boxWidth != nil
        // The tint: the vector kernel computes it on TintFill8's lines, the portable loop reads its table; a tint without
        // lines (none seen) goes through the portable loop. The kernel also applies the saturation matrix as it reads
        // the effect; the portable loops take it as a step of its own.
        let tint = TintFill8(style: plan.style)
        let tinted = tint.table, lines = tint.lines ?? []
        let useKernel = VectorKernels.available && tint.lines != nil
        // The output picture. Until the composite writes it, its first 4 · width · height samples hold the crop (the
        // composite premultiplies the source's pixels again as it reads them), so the passes need one frame-sized
        // buffer of their own, not two: a frame's worth less memory at the peak.
        var result = RGBAImage(width: source.width, height: source.height, samples: Self.unfilled(source.samples.count))
        // The passes' scratch: kept from one render for the next (KeptScratch says why).
        KeptScratch.shared.withBuffer(count: blurred ? 4 * width * height : 0) { effect in
            if let box = plan.boxWidth {
                source.samples.withUnsafeBufferPointer { input in
                    result.samples.withUnsafeMutableBufferPointer { output in
                        let crop = UnsafeMutableBufferPointer(rebasing: output[..<effect.count])
                        // 1. The crop, premultiplied: the box passes' input.
                        let from = SendableConstPointer(input.baseAddress!), to = SendablePointer(crop.baseAddress!)
                        parallelism.forEachBand(of: height, minimumBandSize: 16) { rows in
                            for y in rows {
                                let s = from.pointer + 4 * ((frame.y + y) * sourceWidth + frame.x),
                                    t = to.pointer + 4 * width * y
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
                        // 2. Three passes, crop → effect → crop → effect.
                        for (from, to) in [(crop, effect), (effect, crop), (crop, effect)] {
                            BoxBlur8.apply(
                                UnsafeBufferPointer(from), into: to, width: width, height: height, box: box,
                                parallelism: parallelism)
                        }
                    }
                }
                // 3. The saturation matrix (in the composite kernel where it runs).
                if !useKernel { plan.saturationMatrix?.apply(effect, parallelism: parallelism) }
            }
            let saturationEntries = plan.saturationMatrix.map { $0.entries.flatMap { $0 } }
            let empty: [UInt8] = []
            let maskSamples = mask?.samples ?? empty
            // 4. The output: the source outside the frame, copied here, and the composite inside it, written below (a
            // copy of the whole source would write the frame's pixels once for nothing): the crop, the effect over it
            // through the mask, the tint over all.
            source.samples.withUnsafeBufferPointer { input in
                result.samples.withUnsafeMutableBufferPointer { output in
                    let from = SendableConstPointer(input.baseAddress!), to = SendablePointer(output.baseAddress!)
                    parallelism.forEachBand(of: source.height, minimumBandSize: 64) { rows in
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
            tinted.withUnsafeBufferPointer { tintedBuffer in
                let effectBuffer = UnsafeBufferPointer(effect)
                source.samples.withUnsafeBufferPointer { sourceBuffer in
                    maskSamples.withUnsafeBufferPointer { maskBuffer in
                        result.samples.withUnsafeMutableBufferPointer { resultBuffer in
                            let e = blurred ? effectBuffer.baseAddress.map(SendableConstPointer.init) : nil
                            let from = SendableConstPointer(sourceBuffer.baseAddress!)
                            let m = mask == nil ? nil : maskBuffer.baseAddress.map(SendableConstPointer.init)
                            let out = SendablePointer(resultBuffer.baseAddress!)
                            let table = SendableConstPointer(tintedBuffer.baseAddress!)
                            parallelism.forEachBand(of: height, minimumBandSize: 16) { rows in
                                for y in rows {
                                    let sourceRow = from.pointer + 4 * ((frame.y + y) * sourceWidth + frame.x)
                                    if useKernel {
                                        let row = 4 * y * width
                                        bd_image_effects_composite_row_v3(
                                            sourceRow, e.map { $0.pointer + row }, saturationEntries,
                                            m.map { $0.pointer + row }, lines, width,
                                            out.pointer + 4 * ((frame.y + y) * sourceWidth + frame.x))
                                        continue
                                    }
                                    for x in 0..<width {
                                        let i = 4 * (y * width + x)
                                        var pixel = Self.premultiplied(sourceRow + 4 * x)
                                        if let e {
                                            var coverage: UInt32 = 255
                                            if let m {
                                                let p = m.pointer + i
                                                let luminance =
                                                    (54 * UInt32(p[0]) + 183 * UInt32(p[1]) + 19 * UInt32(p[2])
                                                        + 128)
                                                    >> 8
                                                coverage = Self.dividedBy255(luminance * UInt32(p[3]) + 127)
                                            }
                                            let source = Self.dividedBy255(
                                                SIMD4<UInt32>(
                                                    UInt32(e.pointer[i]), UInt32(e.pointer[i + 1]),
                                                    UInt32(e.pointer[i + 2]),
                                                    UInt32(e.pointer[i + 3])) &* coverage &+ 127)
                                            pixel = source &+ Self.dividedBy255(pixel &* (255 &- source[3]) &+ 127)
                                            pixel.replace(with: SIMD4(repeating: 255), where: pixel .> 255)
                                        }
                                        let final = SIMD4<UInt32>(
                                            table.pointer[Int(pixel[0])], table.pointer[256 + Int(pixel[1])],
                                            table.pointer[512 + Int(pixel[2])], table.pointer[768 + Int(pixel[3])])
                                        // 5. Unpremultiplied, into the frame.
                                        let t = out.pointer + 4 * ((frame.y + y) * sourceWidth + frame.x + x)
                                        let a = final[3]
                                        for lane in 0..<3 {
                                            t[lane] =
                                                a == 255
                                                ? UInt8(final[lane])
                                                : a == 0 ? 0 : UInt8(min(255, (final[lane] * 255 + a / 2) / a))
                                        }
                                        t[3] = UInt8(a)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return result
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
