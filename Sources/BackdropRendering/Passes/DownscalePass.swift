import BackdropImageIO

/// Pass 2, downscale: each small pixel is the mean of a k×k box of captured pixels.
///
/// - Input: frame-sized premultiplied rows. Output: ⌈w/k⌉ × ⌈h/k⌉ premultiplied rows.
/// - Geometry: small pixel (i, j) averages input pixels x ∈ [i·k, i·k + k), y ∈ [j·k, j·k + k); its centre is at
///   input coordinate i·k + (k − 1)/2.
/// - Edges: a box that runs past the right or bottom edge repeats the edge pixel (the clamp of the spec).
/// - Blur it adds: a box of k samples has variance (k² − 1)/12 px², which the blur pass subtracts.
/// - Work: k² texels read per pixel written.
/// - Schedule: when it reads the capture (always, in a plan), the renderer runs the two fused
///   (`CaptureDownscale`: one read of the source bytes, exact integer sums); `rows(reading:)` is the pass on its
///   own, for any other input.
public struct DownscalePass: RowPass {
    /// The resampling factor k.
    public let factor: Int
    /// The pass as data: sizes, taps, blending, offscreen.
    public let descriptor: PassDescriptor
    /// Which input rows an output row reads (decides whether the input is stored).
    public var inputAccess: RowAccess { .rowBlock(factor) }

    /// A downscale by `factor` of an image of `inputSize`.
    public init(factor: Int, inputSize: PixelSize) {
        self.factor = factor
        let output = PixelSize(
            width: (inputSize.width + factor - 1) / factor,
            height: (inputSize.height + factor - 1) / factor)
        descriptor = PassDescriptor(
            name: "downscale ×1/\(factor)", kind: .downscale, inputSize: inputSize,
            outputSize: output, texelsPerPixel: factor * factor, blends: false, offscreen: true,
            gpuFetchesPerPixel: Double(factor * factor) / 4)  // bilinear fetches average 2×2
    }

    /// Variance, in input pixels², that a k-sample box mean adds.
    public static func addedVariance(factor k: Int) -> Double { Double(k * k - 1) / 12 }

    /// Computes any output row from `input`.
    public func rows(reading input: Stage, parallelism: Parallelism) -> RowFunction {
        let k = factor, inWidth = descriptor.inputSize.width, inHeight = descriptor.inputSize.height
        let outWidth = descriptor.outputSize.width
        let scale = SIMD4<Float>(repeating: 1 / Float(k * k))
        return { y, out in
            out.update(repeating: .zero, count: outWidth)
            withScratchRow(inWidth) { scratch in
                for j in 0..<k {
                    let row = input.row(min(y * k + j, inHeight - 1), orInto: scratch)
                    for x in 0..<outWidth {
                        var sum = SIMD4<Float>.zero
                        let start = x * k
                        if start + k <= inWidth {
                            for i in 0..<k { sum += row[start + i] }
                        } else {
                            for i in 0..<k { sum += row[min(start + i, inWidth - 1)] }
                        }
                        out[x] += sum
                    }
                }
            }
            for x in 0..<outWidth { out[x] *= scale }
        }
    }
}
