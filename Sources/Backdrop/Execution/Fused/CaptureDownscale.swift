/// Passes 1 and 2 fused: the capture (premultiply) and the k×k box mean in one read of the source bytes.
///
/// - Computes exactly ``CapturePass`` followed by ``DownscalePass``: small pixel (i, j) is the mean over the box
///   x ∈ [i·k, i·k + k), y ∈ [j·k, j·k + k) of the frame (past the right or bottom edge, the edge pixel repeats)
///   of (R·A, G·A, B·A, 255·A) / 65025.
/// - Arithmetic: the sums are of integers (c·a ≤ 65025) and stay exact: 16-bit column sums of opaque pixels, float
///   column sums (exact below 2²⁴) of the others. For k ≤ 16 every box sum is an exact integer, so the result is
///   one correctly rounded product per value, whatever path a pixel takes and however rows are split over threads.
/// - Layout: the source is straight RGBA8, row-major, unaligned; pixels are read four at a time (16 bytes) and a
///   group whose four alphas are 255 takes the integer path, which needs no multiply.
/// - Output: a stored ⌈w/k⌉ × ⌈h/k⌉ image, computed in bands of small rows on all threads.
public struct CaptureDownscale: Sendable {
    /// The view's frame in pixels of the source picture.
    public let frame: PixelRect
    /// k.
    public let factor: Int
    /// ⌈w/k⌉ × ⌈h/k⌉.
    public let outputSize: PixelSize

    /// The capture and the downscale of a plan, fused.
    public init(capture: CapturePass, downscale: DownscalePass) {
        frame = capture.frame
        factor = downscale.factor
        outputSize = downscale.descriptor.outputSize
    }

    /// The small image: the capture of `source` inside the frame, downscaled.
    public func run(source: RGBAImage<UInt8>, parallelism: Parallelism) -> FloatImage {
        let small = FloatImage(width: outputSize.width, height: outputSize.height)
        source.samples.withUnsafeBufferPointer { samples in
            let base = SendablePointer(UnsafeMutablePointer(mutating: samples.baseAddress!))
            parallelism.forEachBand(of: outputSize.height) { band in
                let width = frame.width
                let opaqueSums = UnsafeMutablePointer<SIMD16<UInt16>>.allocate(capacity: width / 4 + 1)
                let otherSums = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
                defer { opaqueSums.deallocate(); otherSums.deallocate() }
                for j in band {
                    opaqueSums.update(repeating: .zero, count: width / 4 + 1)
                    // The float sums are cleared only once a block meets a pixel that is not opaque.
                    var hasOtherSums = false
                    for r in 0..<factor {
                        let y = frame.y + min(j * factor + r, frame.height - 1)
                        let row = UnsafePointer(base.pointer) + (y * source.width + frame.x) * 4
                        accumulate(row: row, width: width, opaqueSums: opaqueSums, otherSums: otherSums,
                                   hasOtherSums: &hasOtherSums)
                    }
                    reduce(opaqueSums: opaqueSums, otherSums: hasOtherSums ? otherSums : nil, into: small.row(j))
                }
            }
        }
        return small
    }

    /// Adds one source row into the column sums. `hasOtherSums` tells whether the float sums hold this block's
    /// values yet (they are cleared the first time a pixel needs them).
    @inline(__always)
    func accumulate(row: UnsafePointer<UInt8>, width: Int, opaqueSums: UnsafeMutablePointer<SIMD16<UInt16>>,
                    otherSums: UnsafeMutablePointer<SIMD4<Float>>, hasOtherSums: inout Bool) {
        let colourBytes: UInt64 = 0x00FF_FFFF_00FF_FFFF
        if width >= 4 && Self.isOpaque(row, width: width) {
            // The common case in photographs: the whole row takes the integer path, with no check per group.
            let groups = width / 4
            for group in 0..<groups {
                opaqueSums[group] &+= SIMD16<UInt16>(truncatingIfNeeded: UnsafeRawPointer(row + group &* 16)
                    .loadUnaligned(as: SIMD16<UInt8>.self))
            }
            if groups &* 4 < width && !hasOtherSums { otherSums.update(repeating: .zero, count: width); hasOtherSums = true }
            for x in groups &* 4..<width { addPremultiplied(row + x &* 4, to: otherSums + x) }
            return
        }
        /// Four pixels from `group` · 4: 16-bit sums if all four are opaque, float sums otherwise.
        @inline(__always) func addGroup(_ group: Int) {
            let pixels = UnsafeRawPointer(row + group &* 16)
            // The four alphas are 255: checked on two 64-bit words (a SIMD comparison compiles lane by lane).
            let both = pixels.loadUnaligned(as: UInt64.self) & pixels.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            if both | colourBytes == .max {
                opaqueSums[group] &+= SIMD16<UInt16>(truncatingIfNeeded: pixels.loadUnaligned(as: SIMD16<UInt8>.self))
            } else {
                if !hasOtherSums { otherSums.update(repeating: .zero, count: width); hasOtherSums = true }
                for p in 0..<4 { let x = group &* 4 &+ p; addPremultiplied(row + x &* 4, to: otherSums + x) }
            }
        }
        var group = 0
        while group &* 4 &+ 8 <= width {
            // Eight pixels with one check when all are opaque (the common case in photographs).
            let pixels = UnsafeRawPointer(row + group &* 16)
            let all = pixels.loadUnaligned(as: UInt64.self) & pixels.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                & pixels.loadUnaligned(fromByteOffset: 16, as: UInt64.self) & pixels.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
            if all | colourBytes == .max {
                opaqueSums[group] &+= SIMD16<UInt16>(truncatingIfNeeded: pixels.loadUnaligned(as: SIMD16<UInt8>.self))
                opaqueSums[group &+ 1] &+= SIMD16<UInt16>(truncatingIfNeeded: pixels.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self))
            } else {
                addGroup(group)
                addGroup(group &+ 1)
            }
            group &+= 2
        }
        if group &* 4 &+ 4 <= width {
            addGroup(group)
            group &+= 1
        }
        if group &* 4 < width && !hasOtherSums { otherSums.update(repeating: .zero, count: width); hasOtherSums = true }
        for x in group &* 4..<width { addPremultiplied(row + x &* 4, to: otherSums + x) }
    }

    /// Whether all `width` pixels of `row` have alpha 255: the AND of the row's 64-bit words (one vector AND per
    /// eight pixels once the compiler vectorises the reduction), read from the cache line the sums read next.
    @inline(__always) static func isOpaque(_ row: UnsafePointer<UInt8>, width: Int) -> Bool {
        let words = UnsafeRawPointer(row)
        var all: UInt64 = .max
        for i in 0..<(width / 2) { all &= words.loadUnaligned(fromByteOffset: i &* 8, as: UInt64.self) }
        if width % 2 == 1 { all &= UInt64(words.loadUnaligned(fromByteOffset: (width &- 1) &* 4, as: UInt32.self)) | 0x00FF_FFFF_0000_0000 }
        return all | 0x00FF_FFFF_00FF_FFFF == .max
    }

    /// (c·a, c·a, c·a, 255·a) of one pixel, added to its column's float sum (exact: integers below 2²⁴).
    @inline(__always) func addPremultiplied(_ pixel: UnsafePointer<UInt8>, to sum: UnsafeMutablePointer<SIMD4<Float>>) {
        let p = SampleConversion.floats(pixel)
        sum.pointee += p * SIMD4(p.w, p.w, p.w, 255)
    }

    /// Each small pixel of the row: its k columns' sums (the last column repeating past the edge), over 65025·k².
    /// The k opaque sums are added as integers and converted once; every partial sum is an integer below 2²⁴
    /// (k ≤ 16), so the order of the adds does not change the result.
    @inline(__always)
    func reduce(opaqueSums: UnsafeMutablePointer<SIMD16<UInt16>>, otherSums: UnsafeMutablePointer<SIMD4<Float>>?,
                into out: UnsafeMutablePointer<SIMD4<Float>>) {
        let width = frame.width
        let opaque = UnsafeRawPointer(opaqueSums).assumingMemoryBound(to: SIMD4<UInt16>.self)
        let scale = 1 / Float(65025 * factor * factor)
        // Boxes that lie inside the frame with k ≤ 16 take the 16-bit sum; the rest clamp the column.
        let inside = factor <= 16 ? min(outputSize.width, width / factor) : 0
        for i in 0..<outputSize.width {
            let opaqueTotal = i < inside ? Self.boxSum(opaque + i &* factor, factor: factor)
                : Self.clampedBoxSum(opaque, first: i &* factor, factor: factor, columns: width)
            var total = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: opaqueTotal)) * 255
            if let otherSums {
                for c in 0..<factor { total += otherSums[min(i &* factor &+ c, width &- 1)] }
            }
            out[i] = total * scale
        }
    }

    /// The sum of `factor` ≤ 16 consecutive opaque column sums: at most k²·255 = 65280, which fits in 16 bits, so
    /// it is added two columns per 8-lane vector and widened once.
    @inline(__always)
    static func boxSum(_ box: UnsafePointer<SIMD4<UInt16>>, factor: Int) -> SIMD4<UInt32> {
        var pairs = SIMD8<UInt16>.zero
        var c = 0
        while c &+ 2 <= factor {
            pairs &+= UnsafeRawPointer(box + c).loadUnaligned(as: SIMD8<UInt16>.self)
            c &+= 2
        }
        var sum = pairs.lowHalf &+ pairs.highHalf
        if c < factor { sum &+= box[c] }
        return SIMD4<UInt32>(truncatingIfNeeded: sum)
    }

    /// The sum of opaque column sums `first ..< first + factor` in 32-bit lanes, the last of `columns` repeating
    /// past the edge: boxes at the frame's right edge, and any box when k > 16.
    @inline(__always)
    static func clampedBoxSum(_ sums: UnsafePointer<SIMD4<UInt16>>, first: Int, factor: Int, columns: Int) -> SIMD4<UInt32> {
        var total = SIMD4<UInt32>.zero
        for c in 0..<factor { total &+= SIMD4<UInt32>(truncatingIfNeeded: sums[min(first &+ c, columns &- 1)]) }
        return total
    }
}
