/// `UIImage+ImageEffects`' saturation step: `vImageMatrixMultiply_ARGB8888` with an integer matrix and divisor
/// 256, on 8-bit premultiplied RGBA, in place; alpha unchanged. With the vector kernels the composite applies it as
/// it reads the effect (`bd_image_effects_composite_row_v3`, the same values); `apply` is the portable loops' step.
///
/// Contract: the sample's matrix (rows the input B, G, R of its BGRA buffer, columns the output B, G, R; Apple's
/// 0.7873, not 0.7874), each entry `(int16_t)roundf(m × 256)`; each output channel ⌊(Σ input × entry + 128) / 256⌋
/// (rounded half up: vImage does not document its rounding), clamped to 0…255. Integer arithmetic: the same bytes
/// on every CPU.
struct SaturationMatrix8: Sendable, Equatable {
    /// `entries[input][output]`, inputs and outputs in the order R, G, B.
    let entries: [[Int32]]

    init(saturation s: Double) {
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

    func apply(_ buffer: UnsafeMutableBufferPointer<UInt8>, parallelism: Parallelism) {
        let pixels = buffer.count / 4
        // The matrix's columns as vectors: output = r · fromRed + g · fromGreen + b · fromBlue.
        let fromRed = SIMD4(entries[0][0], entries[0][1], entries[0][2], 0)
        let fromGreen = SIMD4(entries[1][0], entries[1][1], entries[1][2], 0)
        let fromBlue = SIMD4(entries[2][0], entries[2][1], entries[2][2], 0)
        guard let start = buffer.baseAddress else { return }
        let base = SendablePointer(start)
        parallelism.forEachBand(of: pixels, minimumBandSize: Parallelism.minimumPixelsPerBand) { range in
            for pixel in range {
                let p = base.pointer + 4 * pixel
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
