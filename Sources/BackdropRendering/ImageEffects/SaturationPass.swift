/// `UIImage+ImageEffects`' saturation step: `vImageMatrixMultiply_ARGB8888` with an integer matrix and divisor 256,
/// on 8-bit premultiplied RGBA, in place; alpha unchanged.
///
/// - Input and output: the blurred crop (the same rows: the pass works in place).
/// - Maths: the sample's matrix (rows the input B, G, R of its BGRA buffer, columns the output B, G, R; Apple's 0.7873,
///   not 0.7874), each entry `(int16_t)roundf(m × 256)`; each output channel ⌊(Σ input × entry + 128) / 256⌋
///   (rounded half up: vImage does not document its rounding), clamped to 0…255.
/// - Precision: integer arithmetic, the same bytes on every CPU.
/// - Schedule: where the composite's vector kernel runs, it applies these entries as it reads the effect
///   (`bd_image_effects_composite_row_v3`, the same values) and the executor runs no pass of its own
///   (``ImageEffectsCompositePass/fusesSaturation``).
struct SaturationPass: ImageEffectsPass, Equatable {
    /// The factor (1: unchanged).
    let saturation: Double
    /// `entries[input][output]`, inputs and outputs in the order R, G, B.
    let entries: [[Int32]]

    init(saturation s: Double) {
        saturation = s
        // The sample's rows, for inputs B, G, R; columns for outputs B, G, R.
        let bgr: [[Double]] = [
            [0.0722 + 0.9278 * s, 0.0722 - 0.0722 * s, 0.0722 - 0.0722 * s],
            [0.7152 - 0.7152 * s, 0.7152 + 0.2848 * s, 0.7152 - 0.7152 * s],
            [0.2126 - 0.2126 * s, 0.2126 - 0.2126 * s, 0.2126 + 0.7873 * s],
        ]
        let quantised = bgr.map { $0.map { Int32(Int16(Float($0 * 256).rounded())) } }
        // Reordered to R, G, B inputs and outputs.
        entries = [2, 1, 0].map { input in [2, 1, 0].map { output in quantised[input][output] } }
    }

    var name: String { "saturation × \(saturation) (integer matrix, divisor 256)" }
    var minimumRowsPerBand: Int { Parallelism.minimumRowsPerBand }

    /// `inputs`: `output` itself.
    func write(_ band: Range<Int>, of output: ByteRows, reading inputs: [ByteRows?]) {
        // The matrix's columns as vectors: output = r · fromRed + g · fromGreen + b · fromBlue.
        let fromRed = SIMD4(entries[0][0], entries[0][1], entries[0][2], 0)
        let fromGreen = SIMD4(entries[1][0], entries[1][1], entries[1][2], 0)
        let fromBlue = SIMD4(entries[2][0], entries[2][1], entries[2][2], 0)
        for y in band {
            let row = output.row(y)
            for x in 0..<output.width {
                let p = row + 4 * x
                let sum = Int32(p[0]) &* fromRed &+ Int32(p[1]) &* fromGreen &+ Int32(p[2]) &* fromBlue
                // ⌊(sum + 128) / 256⌋, also for negative sums (an arithmetic shift), clamped to 0…255.
                let value = (sum &+ 128) &>> 8
                p[0] = UInt8(min(max(value[0], 0), 255))
                p[1] = UInt8(min(max(value[1], 0), 255))
                p[2] = UInt8(min(max(value[2], 0), 255))
            }
        }
    }
}
