import BackdropImageIO
import CVectorKernels

/// Passes 1 and 2 fused: the capture (premultiply) and the k×k box mean in one read of the source bytes.
///
/// - Computes exactly ``CapturePass`` followed by ``DownscalePass``: small pixel (i, j) is the mean over the box
///   x ∈ [i·k, i·k + k), y ∈ [j·k, j·k + k) of the frame (past the right or bottom edge, the edge pixel repeats)
///   of (R·A, G·A, B·A, 255·A) / 65025.
/// - Arithmetic: the sums are of integers (c·a ≤ 65025) and stay exact: 16-bit column sums of opaque pixels, float
///   column sums (exact below 2²⁴) of the others. For k ≤ 16 every box sum is an exact integer, so the result is
///   one correctly rounded product per value, whatever path a pixel takes and however rows are split over threads.
/// - Layout: the source is straight RGBA8, row-major, unaligned. The k rows of a block are read together, a strip
///   of 32 pixels (128 bytes of each row) at a time; a strip whose alphas are all 255 takes the integer path,
///   which needs no multiply, and the others go group by group (four pixels, 16 bytes).
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
        forEachBand(of: outputSize.height, source: source, parallelism: parallelism) { band, smallRow in
            for j in band { smallRow(j, small.row(j)) }
        }
        return small
    }

    /// The small image through a material's filters and their f × f box (`filters`, f > 1, made for this small
    /// image's size), without storing the small image: each band computes the small rows its output rows need into
    /// one scratch row, which the filters then read in cache. The same floats as ``run(source:parallelism:)`` followed
    /// by `filters` (the same steps per row, in the same order); the 3 MB small image of a material's iPad frame
    /// (k = 4) is neither written nor read back.
    package func run(source: RGBAImage<UInt8>, filteredBy filters: MaterialFilterPass, parallelism: Parallelism)
        -> FloatImage
    {
        precondition(filters.descriptor.inputSize == outputSize, "CaptureDownscale: filters for another size")
        let size = filters.descriptor.outputSize
        let filtered = FloatImage(width: size.width, height: size.height)
        let smallWidth = outputSize.width
        forEachBand(of: size.height, source: source, parallelism: parallelism) { band, smallRow in
            withScratchRow(smallWidth) { scratch in
                for y in band {
                    filters.boxRow(y, into: filtered.row(y), scratch: scratch) { j, scratch in
                        smallRow(j, scratch)
                        return UnsafePointer(scratch)
                    }
                }
            }
        }
        return filtered
    }

    /// Runs `body` on bands of `count` rows on all threads, each band with a function that writes small row j
    /// (``outputSize``'s width) into the row it is given, using that band's scratch sums.
    private func forEachBand(
        of count: Int, source: RGBAImage<UInt8>, parallelism: Parallelism,
        _ body: @Sendable (Range<Int>, (Int, UnsafeMutablePointer<SIMD4<Float>>) -> Void) -> Void
    ) {
        source.samples.withUnsafeBufferPointer { samples in
            let base = SendablePointer(UnsafeMutablePointer(mutating: samples.baseAddress!))
            parallelism.forEachBand(of: count) { band in
                let width = frame.width, groups = frame.width / 4
                // With k = 4 on CPUs with AVX2, a group is a box: whole strips go straight to small pixels.
                let smallPixelsByStrip = factor == 4 && VectorKernels.available
                let opaqueSums = UnsafeMutablePointer<SIMD16<UInt16>>.allocate(capacity: groups + 1)
                let otherSums = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
                let rows = UnsafeMutablePointer<UnsafePointer<UInt8>>.allocate(capacity: factor)
                defer { opaqueSums.deallocate(); otherSums.deallocate(); rows.deallocate() }
                func smallRow(_ j: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
                    for r in 0..<factor {
                        let y = frame.y + min(j * factor + r, frame.height - 1)
                        rows[r] = UnsafePointer(base.pointer) + (y * source.width + frame.x) * 4
                    }
                    // The float sums are cleared only once a block meets a pixel that is not opaque.
                    var hasOtherSums = false
                    var group = 0
                    if smallPixelsByStrip {
                        // k = 4: opaque strips' small pixels straight from their sums; another strip's reduced
                        // now (its boxes read only its own columns).
                        while group &+ Self.stripGroups <= groups {
                            group &+= storeOpaqueSmallPixels(rows: rows, firstGroup: group, into: out)
                            guard group &+ Self.stripGroups <= groups else { break }
                            let strip = group..<group &+ Self.stripGroups
                            addGroups(
                                strip, rows: rows, opaqueSums: opaqueSums, otherSums: otherSums,
                                hasOtherSums: &hasOtherSums)
                            reduce(
                                opaqueSums: opaqueSums, otherSums: hasOtherSums ? otherSums : nil, into: out,
                                pixels: strip)
                            group &+= Self.stripGroups
                        }
                    } else {
                        while group &+ Self.stripGroups <= groups {
                            if !storeOpaqueStrip(rows: rows, firstGroup: group, into: opaqueSums) {
                                addGroups(
                                    group..<group &+ Self.stripGroups, rows: rows, opaqueSums: opaqueSums,
                                    otherSums: otherSums, hasOtherSums: &hasOtherSums)
                            }
                            group &+= Self.stripGroups
                        }
                    }
                    let reduced = smallPixelsByStrip ? group : 0
                    addGroups(
                        group..<groups, rows: rows, opaqueSums: opaqueSums, otherSums: otherSums,
                        hasOtherSums: &hasOtherSums)
                    if groups &* 4 < width {
                        // The last columns have float sums only; their 16-bit sums, which the box sums read, are 0.
                        opaqueSums[groups] = .zero
                        if !hasOtherSums { otherSums.update(repeating: .zero, count: width); hasOtherSums = true }
                        for r in 0..<factor {
                            for x in groups &* 4..<width { addPremultiplied(rows[r] + x &* 4, to: otherSums + x) }
                        }
                    }
                    reduce(
                        opaqueSums: opaqueSums, otherSums: hasOtherSums ? otherSums : nil, into: out,
                        pixels: reduced..<outputSize.width)
                }
                body(band, smallRow)
            }
        }
    }

    /// Groups of four pixels in a strip: 32 pixels, 128 bytes of each source row. The strip's eight 16-lane sums
    /// stay in eight vector registers while its k rows are added (x86-64-v3 has sixteen).
    static let stripGroups = 8

    /// If every pixel of the strip of ``stripGroups`` groups from `firstGroup` in the k `rows` is opaque, stores
    /// the strip's 16-bit column sums into `sums` and returns true; otherwise stores nothing and returns false.
    /// The k rows are added in registers, a strip at a time, rather than each row into the sums in memory: k
    /// reads and writes of the 16 KB sums row per small row held the capture back (docs/performance.md). On CPUs
    /// with AVX2 its C twin runs, `bd_opaque_strip_v3`: the same exact sums.
    @inline(__always)
    func storeOpaqueStrip(
        rows: UnsafePointer<UnsafePointer<UInt8>>, firstGroup: Int,
        into sums: UnsafeMutablePointer<SIMD16<UInt16>>
    ) -> Bool {
        if VectorKernels.available {
            return bd_opaque_strip_v3(
                UnsafeRawPointer(rows).assumingMemoryBound(to: UnsafePointer<UInt8>?.self), factor, firstGroup,
                UnsafeMutableRawPointer(sums).assumingMemoryBound(to: UInt16.self)) != 0
        }
        var sum0 = SIMD16<UInt16>.zero, sum1 = sum0, sum2 = sum0, sum3 = sum0, sum4 = sum0, sum5 = sum0, sum6 = sum0,
            sum7 = sum0
        var all = SIMD4<UInt64>(repeating: .max)
        for r in 0..<factor {
            let pixels = UnsafeRawPointer(rows[r] + firstGroup &* 16)
            // Every byte of the strip AND-ed in 64-bit lanes (in byte lanes, Swift's `&` compiles lane by lane).
            all &=
                (pixels.loadUnaligned(as: SIMD4<UInt64>.self)
                    & pixels.loadUnaligned(fromByteOffset: 32, as: SIMD4<UInt64>.self))
                & (pixels.loadUnaligned(fromByteOffset: 64, as: SIMD4<UInt64>.self)
                    & pixels.loadUnaligned(fromByteOffset: 96, as: SIMD4<UInt64>.self))
            @inline(__always) func widened(_ group: Int) -> SIMD16<UInt16> {
                SampleConversion.words(sixteenBytesAt: pixels + group &* 16)
            }
            sum0 &+= widened(0); sum1 &+= widened(1); sum2 &+= widened(2); sum3 &+= widened(3)
            sum4 &+= widened(4); sum5 &+= widened(5); sum6 &+= widened(6); sum7 &+= widened(7)
        }
        // The alphas are 255 (a SIMD comparison compiles lane by lane).
        guard (all[0] & all[1] & all[2] & all[3]) | Self.colorBytes == .max else { return false }
        let out = sums + firstGroup
        out[0] = sum0; out[1] = sum1; out[2] = sum2; out[3] = sum3; out[4] = sum4; out[5] = sum5; out[6] = sum6;
        out[7] = sum7
        return true
    }

    /// With k = 4 (a group of four pixels is one box) and AVX2: the strips of ``stripGroups`` groups from `firstGroup`
    /// in the four `rows`, up to the first that is not wholly opaque: each opaque one's small pixels stored at `small` +
    /// its first group (the values ``reduce(opaqueSums:otherSums:into:pixels:)`` gives an opaque box). Returns the
    /// groups stored. `bd_opaque_strips_k4_v3`: the capture of a material or of Liquid Glass, which take k = 4,
    /// without storing the strips' sums and reading them back, a row of strips a call.
    @inline(__always)
    func storeOpaqueSmallPixels(
        rows: UnsafePointer<UnsafePointer<UInt8>>, firstGroup: Int, into small: UnsafeMutablePointer<SIMD4<Float>>
    ) -> Int {
        let strips = (frame.width / 4 - firstGroup) / Self.stripGroups
        return bd_opaque_strips_k4_v3(
            UnsafeRawPointer(rows).assumingMemoryBound(to: UnsafePointer<UInt8>?.self), firstGroup, strips,
            Self.scale(4), UnsafeMutableRawPointer(small).assumingMemoryBound(to: Float.self)) * Self.stripGroups
    }

    /// 1 / (65025·k²): a box sum of premultiplied samples to its mean in 0…1.
    @inline(__always) static func scale(_ factor: Int) -> Float { 1 / Float(65025 * factor * factor) }

    /// The colour bytes of two pixels: a 64-bit word OR'd with this is all ones exactly when both alphas are 255.
    static let colorBytes: UInt64 = 0x00FF_FFFF_00FF_FFFF

    /// The column sums of `groups` over the k `rows`, group by group: 16-bit sums where a group's four pixels are
    /// opaque in a row, float sums otherwise. `hasOtherSums` tells whether the float sums hold this block's
    /// values yet (they are cleared the first time a pixel needs them).
    @inline(__always)
    func addGroups(
        _ groups: Range<Int>, rows: UnsafePointer<UnsafePointer<UInt8>>,
        opaqueSums: UnsafeMutablePointer<SIMD16<UInt16>>, otherSums: UnsafeMutablePointer<SIMD4<Float>>,
        hasOtherSums: inout Bool
    ) {
        guard !groups.isEmpty else { return }
        (opaqueSums + groups.lowerBound).update(repeating: .zero, count: groups.count)
        for r in 0..<factor {
            for group in groups {
                let pixels = UnsafeRawPointer(rows[r] + group &* 16)
                let both =
                    pixels.loadUnaligned(as: UInt64.self) & pixels.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                if both | Self.colorBytes == .max {
                    opaqueSums[group] &+= SampleConversion.words(sixteenBytesAt: pixels)
                } else {
                    if !hasOtherSums { otherSums.update(repeating: .zero, count: frame.width); hasOtherSums = true }
                    for p in 0..<4 { let x = group &* 4 &+ p; addPremultiplied(rows[r] + x &* 4, to: otherSums + x) }
                }
            }
        }
    }

    /// (c·a, c·a, c·a, 255·a) of one pixel, added to its column's float sum (exact: integers below 2²⁴).
    @inline(__always) func addPremultiplied(_ pixel: UnsafePointer<UInt8>, to sum: UnsafeMutablePointer<SIMD4<Float>>) {
        let p = SampleConversion.floats(pixel)
        sum.pointee += p * SIMD4(p.w, p.w, p.w, 255)
    }

    /// The small pixels `pixels` of the row: each its k columns' sums (the last column repeating past the edge), over
    /// 65025·k².
    /// The k opaque sums are added as integers and converted once; every partial sum is an integer below 2²⁴
    /// (k ≤ 16), so the order of the adds does not change the result.
    @inline(__always)
    func reduce(
        opaqueSums: UnsafeMutablePointer<SIMD16<UInt16>>, otherSums: UnsafeMutablePointer<SIMD4<Float>>?,
        into out: UnsafeMutablePointer<SIMD4<Float>>, pixels: Range<Int>
    ) {
        let width = frame.width
        let opaque = UnsafeRawPointer(opaqueSums).assumingMemoryBound(to: SIMD4<UInt16>.self)
        let scale = Self.scale(factor)
        // Boxes that lie inside the frame with k ≤ 16 take the 16-bit sum; the rest clamp the column.
        let inside = factor <= 16 ? min(outputSize.width, width / factor) : 0
        /// The row's small pixels with k = `factor`: a literal at the call sites below for the common k, so that
        /// the box sum's loop unrolls away (the capture 5.85M → 3.94M instructions a frame at k = 8).
        @inline(__always) func reduceRow(factor: Int) {
            for i in pixels {
                let opaqueTotal =
                    i < inside
                    ? Self.boxSum(opaque + i &* factor, factor: factor)
                    : Self.clampedBoxSum(opaque, first: i &* factor, factor: factor, columns: width)
                var total = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: opaqueTotal)) * 255
                if let otherSums {
                    for c in 0..<factor { total += otherSums[min(i &* factor &+ c, width &- 1)] }
                }
                out[i] = total * scale
            }
        }
        switch factor {
        case 4: reduceRow(factor: 4)
        case 6: reduceRow(factor: 6)
        case 8: reduceRow(factor: 8)
        case 12: reduceRow(factor: 12)
        default: reduceRow(factor: factor)
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
    static func clampedBoxSum(_ sums: UnsafePointer<SIMD4<UInt16>>, first: Int, factor: Int, columns: Int) -> SIMD4<
        UInt32
    > {
        var total = SIMD4<UInt32>.zero
        for c in 0..<factor { total &+= SIMD4<UInt32>(truncatingIfNeeded: sums[min(first &+ c, columns &- 1)]) }
        return total
    }
}
