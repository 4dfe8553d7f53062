/// One `vImageBoxConvolve_ARGB8888` pass of `UIImage+ImageEffects`: a `width` × `width` box average (width odd) of
/// 8-bit premultiplied RGBA, in place.
///
/// Contract: out = ⌊(Σ over the box + ⌊width²/2⌋) / width²⌋ per channel (the sum rounded half up: vImage does not
/// document its rounding; this is what the tests hold us to), with the edge pixels extended
/// (`kvImageEdgeExtend`): a coordinate outside the picture reads the nearest edge pixel. Exact integer sums: the
/// rows are summed into a 32-bit buffer with a running sum (each window adds its new pixel and drops its old one),
/// then the columns the same way, so the cost does not depend on the width. Rows, then column bands, are spread
/// over threads; every value is the same for any thread count.
enum BoxBlur8 {
    /// One pass over `samples`; `rowSums` is scratch of `samples.count` values (kept by the caller across the three
    /// passes: a fresh one each time costs its pages again).
    static func apply(
        _ samples: inout [UInt8], width: Int, height: Int, box: Int, rowSums: inout [UInt32], parallelism: Parallelism
    ) {
        guard width > 0, height > 0, box > 1 else { return }
        precondition(rowSums.count == samples.count, "BoxBlur8: the scratch must be the picture's size")
        let half = box / 2, lanes = 4 * width
        // Along each row: the window's sum, moved one pixel at a time.
        samples.withUnsafeBufferPointer { input in
            rowSums.withUnsafeMutableBufferPointer { sums in
                let source = SendableConstPointer(input.baseAddress!), target = SendablePointer(sums.baseAddress!)
                parallelism.forEachBand(of: height, minimumBandSize: 8) { rows in
                    for y in rows {
                        let row = source.pointer + lanes * y, out = target.pointer + lanes * y
                        var sum = SIMD4<UInt32>.zero
                        @inline(__always) func pixel(_ x: Int) -> SIMD4<UInt32> {
                            let p = row + 4 * min(max(x, 0), width - 1)
                            return SIMD4(UInt32(p[0]), UInt32(p[1]), UInt32(p[2]), UInt32(p[3]))
                        }
                        for x in -half...half { sum &+= pixel(x) }
                        for x in 0..<width {
                            if x > 0 { sum = sum &+ pixel(x + half) &- pixel(x - half - 1) }
                            let o = out + 4 * x
                            o[0] = sum[0]
                            o[1] = sum[1]
                            o[2] = sum[2]
                            o[3] = sum[3]
                        }
                    }
                }
            }
        }
        // Down the columns, a row at a time: a running sum per lane, each band of lanes on one thread.
        // ⌊(sum + rounding) / area⌋ as a multiply and a shift: exact for every 32-bit dividend with the reciprocal
        // rounded up and a shift of 32 + ⌈log₂ area⌉ (Granlund and Montgomery), and a division costs ten times more.
        let area = UInt64(box * box), rounding = UInt32(area / 2)
        let shift = UInt64(32 + (64 - (area - 1).leadingZeroBitCount))
        let reciprocal = ((1 as UInt64) << shift + area - 1) / area
        rowSums.withUnsafeBufferPointer { input in
            samples.withUnsafeMutableBufferPointer { output in
                let source = SendableConstPointer(input.baseAddress!), target = SendablePointer(output.baseAddress!)
                parallelism.forEachBand(of: lanes, minimumBandSize: 256) { band in
                    var sums = [UInt32](repeating: 0, count: band.count)
                    sums.withUnsafeMutableBufferPointer { running in
                        @inline(__always) func row(_ y: Int) -> UnsafePointer<UInt32> {
                            source.pointer + lanes * min(max(y, 0), height - 1) + band.lowerBound
                        }
                        for y in -half...half {
                            let r = row(y)
                            for i in 0..<band.count { running[i] &+= r[i] }
                        }
                        for y in 0..<height {
                            if y > 0 {
                                let entering = row(y + half), leaving = row(y - half - 1)
                                for i in 0..<band.count { running[i] = running[i] &+ entering[i] &- leaving[i] }
                            }
                            let out = target.pointer + lanes * y + band.lowerBound
                            for i in 0..<band.count {
                                out[i] = UInt8(
                                    truncatingIfNeeded: (UInt64(running[i] &+ rounding) &* reciprocal) >> shift)
                            }
                        }
                    }
                }
            }
        }
    }

    /// The box width `UIImage+ImageEffects` derives from a radius of `radiusPixels`: ⌊s · 3√(2π)/4 + ½⌋, made odd.
    static func width(radiusPixels s: Double) -> Int {
        var width = Int((s * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down))
        if width % 2 != 1 { width += 1 }
        return width
    }
}
