/// Pass 4, vertical blur: a 1-D Gaussian along each column.
///
/// - Input: a stored image (rows are read at random), output: the same size, premultiplied rows.
/// - Maths: out[y] = Σ_{t=−r…r} w[t] · in[clamp(y + t)], accumulated one input row at a time so the inner loop
///   runs along contiguous memory.
/// - Edges: clamp (the edge row repeats), within the frame only.
/// - Rounding: none; `Float` throughout.
/// - Work: 2r + 1 texels read per pixel written.
public struct VerticalBlurPass: RowPass {
    /// The 1-D Gaussian, in pixels of the image it runs on.
    public let kernel: GaussianKernel
    /// The pass as data: sizes, taps, blending, offscreen.
    public let descriptor: PassDescriptor
    /// Which input rows an output row reads (decides whether the input is stored).
    public var inputAccess: RowAccess { .neighbourhood }

    /// A vertical blur over an image of `size`.
    public init(kernel: GaussianKernel, size: PixelSize) {
        self.kernel = kernel
        descriptor = PassDescriptor(name: "vertical blur", kind: .verticalBlur, inputSize: size, outputSize: size,
                                    texelsPerPixel: kernel.taps, blends: false, offscreen: true)
    }

    /// Computes any output row from `input`.
    public func rows(reading input: Stage, parallelism: Parallelism) -> RowFunction {
        let image = input.storedImage
        let width = image.width, lastRow = image.height - 1, radius = kernel.radius, weights = kernel.weights
        return { y, out in
            weights.withUnsafeBufferPointer { w in
                let centre = image.row(y)
                for x in 0..<width { out[x] = centre[x] * w[radius] }
                for t in stride(from: 1, through: radius, by: 1) {
                    let above = image.row(max(y - t, 0)), below = image.row(min(y + t, lastRow))
                    let weight = w[radius + t]
                    for x in 0..<width { out[x] += (above[x] + below[x]) * weight }
                }
            }
        }
    }
}
