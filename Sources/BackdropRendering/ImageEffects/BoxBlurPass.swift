import CVectorKernels

/// One `vImageBoxConvolve_ARGB8888` pass of `UIImage+ImageEffects`: a `box` × `box` average (`box` odd) of 8-bit
/// premultiplied RGBA.
///
/// - Input: the crop (packed rows). Output: a picture of the same size (packed rows, not overlapping the input).
/// - Maths: out = ⌊(Σ over the box + ⌊box²/2⌋) / box²⌋ per channel (the sum rounded half up: vImage does not
///   document its rounding; this is what the tests hold us to).
/// - Edges: extended (`kvImageEdgeExtend`): a coordinate outside the picture reads the nearest edge pixel.
/// - Work: exact integer sums, so the cost does not depend on the width: down the picture, a running sum per column
///   and channel (each row adds the row entering the box and drops the one leaving it); along each row, a running
///   sum of those column sums, then the division. Each band starts its column sums afresh from the box's rows
///   around its first row, so a band costs `box` rows more (``minimumRowsPerBand``).
/// - Precision: every value is the same for any band and with or without the vector kernels (`bd_box_add_row_v3`,
///   `bd_box_write_two_rows_v3`; for boxes up to `widestSixteenBitBox`, `bd_box16_add_row_v3` and
///   `bd_box16_write_two_rows_v3`). The sums stay below 2³¹ for boxes up to `maximumWidth`.
struct BoxBlurPass: ImageEffectsPass {
    /// The box's width and height (odd, at most ``maximumWidth``).
    let box: Int
    /// Which of the plan's three passes this is (1…3), for the name.
    let number: Int

    /// The widest box the 32-bit sums hold: 256 · box² < 2³¹ (a box of 8-bit values and its quotient's check).
    static let maximumWidth = 2895

    /// The widest box whose column sums fit 16 bits with two columns' difference below 2¹⁵ and whose quotients
    /// single precision computes exactly (`bd_box16_write_two_rows_v3`): every style's box up to scale 2.
    static let widestSixteenBitBox = Int(BD_BOX16_WIDEST)

    init(box: Int, number: Int) {
        precondition(
            box % 2 == 1 && box <= Self.maximumWidth, "BoxBlurPass: an odd box up to \(Self.maximumWidth) wide")
        self.box = box
        self.number = number
    }

    var name: String { "box blur \(box)×\(box) (pass \(number))" }
    /// A band's start costs box rows of column sums: bands at least half a box tall keep that below the band's own
    /// work.
    var minimumRowsPerBand: Int { max(Parallelism.minimumRowsPerBand, box / 2) }

    /// `inputs`: the picture to blur, `output`'s size.
    func write(_ band: Range<Int>, of output: ByteRows, reading inputs: [ByteRows?]) {
        let input = inputs[0]!
        precondition(
            input.isPacked && output.isPacked && input.width == output.width && input.height == output.height,
            "BoxBlurPass: packed rows of one size")
        guard output.width > 0, output.height > 0 else { return }
        let rows = Band(
            source: SendableConstPointer(input.base), target: SendablePointer(output.base), width: output.width,
            height: output.height, half: box / 2, rows: band)
        if VectorKernels.available && box <= Self.widestSixteenBitBox {
            rows.writeWithSixteenBitSums()
        } else {
            rows.write()
        }
    }

    /// The rows one thread writes, each from the column sums of the rows above and below it.
    struct Band {
        let source: SendableConstPointer<UInt8>, target: SendablePointer<UInt8>
        let width: Int, height: Int, half: Int, rows: Range<Int>
        var lanes: Int { 4 * width }
        var area: UInt32 { UInt32((2 * half + 1) * (2 * half + 1)) }

        /// Input row `y`, edges extended.
        func row(_ y: Int) -> UnsafePointer<UInt8> { source.pointer + lanes * min(max(y, 0), height - 1) }

        /// Calls `write` for each pair of rows from the band's first, with the kernels' four input rows (the first
        /// output row's entering and leaving rows, then the second's; a row that does not slide, the band's first,
        /// or is not there, after the band's last, enters and leaves the same row) and the two output rows (the
        /// second a spare row where the band has none).
        func forEachPairOfRows(
            _ write: (UnsafePointer<UnsafePointer<UInt8>?>, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>)
                -> Void
        ) {
            var spare = [UInt8](repeating: 0, count: lanes)
            spare.withUnsafeMutableBufferPointer { spare in
                for y in stride(from: rows.lowerBound, to: rows.upperBound, by: 2) {
                    let slides = y > rows.lowerBound, hasSecond = y + 1 < rows.upperBound
                    let out = target.pointer + lanes * y
                    // On the stack: an array here would be a heap allocation every two rows.
                    withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>?.self, capacity: 4) { inputs in
                        inputs.initializeElement(at: 0, to: row(slides ? y + half : y))
                        inputs.initializeElement(at: 1, to: row(slides ? y - half - 1 : y))
                        inputs.initializeElement(at: 2, to: row(hasSecond ? y + 1 + half : y))
                        inputs.initializeElement(at: 3, to: row(hasSecond ? y - half : y))
                        write(UnsafePointer(inputs.baseAddress!), out, hasSecond ? out + lanes : spare.baseAddress!)
                    }
                }
            }
        }

        /// With 32-bit column sums: the portable loops, or `bd_box_write_two_rows_v3` for any box.
        func write() {
            var columns = [UInt32](repeating: 0, count: lanes)
            // The kernel's scratch: two rows' column sums side by side and two rows' window sums.
            var scratch = [UInt32](repeating: 0, count: VectorKernels.available ? 4 * lanes : 0)
            columns.withUnsafeMutableBufferPointer { columns in
                for y in (rows.lowerBound - half)...(rows.lowerBound + half) {
                    slideColumns(columns, entering: row(y), leaving: nil)
                }
                guard VectorKernels.available else {
                    for y in rows {
                        if y > rows.lowerBound {
                            slideColumns(columns, entering: row(y + half), leaving: row(y - half - 1))
                        }
                        writeRow(columns, width: width, half: half, into: target.pointer + lanes * y)
                    }
                    return
                }
                scratch.withUnsafeMutableBufferPointer { scratch in
                    forEachPairOfRows { inputs, first, second in
                        bd_box_write_two_rows_v3(
                            columns.baseAddress!, inputs, width, half, area, scratch.baseAddress!,
                            scratch.baseAddress! + 2 * lanes, first, second)
                    }
                }
            }
        }

        /// With 16-bit column sums, boxes up to `widestSixteenBitBox`: `bd_box16_write_two_rows_v3`.
        func writeWithSixteenBitSums() {
            var columns = [UInt16](repeating: 0, count: lanes)
            var pairs = [UInt16](repeating: 0, count: 2 * lanes)
            columns.withUnsafeMutableBufferPointer { columns in
                for y in (rows.lowerBound - half)...(rows.lowerBound + half) {
                    bd_box16_add_row_v3(columns.baseAddress!, row(y), lanes)
                }
                pairs.withUnsafeMutableBufferPointer { pairs in
                    forEachPairOfRows { inputs, first, second in
                        bd_box16_write_two_rows_v3(
                            columns.baseAddress!, inputs, width, half, area, pairs.baseAddress!, first, second)
                    }
                }
            }
        }
    }

    /// sums[i] += entering[i] − leaving[i] (`leaving` nil: += entering[i], the kernel's way where it runs: only the
    /// portable loops slide a row out).
    @inline(__always)
    static func slideColumns(
        _ sums: UnsafeMutableBufferPointer<UInt32>, entering: UnsafePointer<UInt8>, leaving: UnsafePointer<UInt8>?
    ) {
        if let leaving {
            for i in 0..<sums.count { sums[i] = sums[i] &+ UInt32(entering[i]) &- UInt32(leaving[i]) }
        } else if VectorKernels.available {
            bd_box_add_row_v3(sums.baseAddress!, entering, sums.count)
        } else {
            for i in 0..<sums.count { sums[i] &+= UInt32(entering[i]) }
        }
    }

    /// Along a row of column sums: each pixel's window of 2 · `half` + 1 columns (edges extended), divided by its
    /// area and rounded half up, into `out`.
    @inline(__always)
    static func writeRow(
        _ columns: UnsafeMutableBufferPointer<UInt32>, width: Int, half: Int, into out: UnsafeMutablePointer<UInt8>
    ) {
        let box = 2 * half + 1
        // ⌊(sum + rounding) / area⌋ as a multiply and a shift: exact for every 32-bit dividend with the reciprocal
        // rounded up and a shift of 32 + ⌈log₂ area⌉ (Granlund and Montgomery); a division costs ten times more.
        let area = UInt64(box * box), rounding = UInt32(area / 2)
        let shift = UInt64(32 + (64 - (area - 1).leadingZeroBitCount))
        let reciprocal = ((1 as UInt64) << shift + area - 1) / area
        @inline(__always) func column(_ x: Int) -> SIMD4<UInt32> {
            let p = columns.baseAddress! + 4 * min(max(x, 0), width - 1)
            return SIMD4(p[0], p[1], p[2], p[3])
        }
        var sum = column(0) &* UInt32(half + 1)
        for k in stride(from: 1, through: half, by: 1) { sum &+= column(k) }
        for x in 0..<width {
            if x > 0 { sum = sum &+ column(x + half) &- column(x - half - 1) }
            for lane in 0..<4 {
                out[4 * x + lane] = UInt8(
                    truncatingIfNeeded: (UInt64(sum[lane] &+ rounding) &* reciprocal) >> shift)
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
