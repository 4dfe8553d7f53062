/// Pass 3, horizontal blur: a 1-D Gaussian along each row.
///
/// - Input and output: the same size, premultiplied rows.
/// - Maths: out[x] = Σ_{t=−r…r} w[t] · in[clamp(x + t)], with the kernel's symmetry w[−t] = w[t] used to halve
///   the multiplies.
/// - Edges: clamp (the edge pixel repeats), within the frame only.
/// - Rounding: none; `Float` throughout.
/// - Work: 2r + 1 texels read per pixel written.
public struct HorizontalBlurPass: RowPass {
    /// The 1-D Gaussian, in pixels of the image it runs on.
    public let kernel: GaussianKernel
    /// The pass as data: sizes, taps, blending, offscreen.
    public let descriptor: PassDescriptor
    /// Which input rows an output row reads (decides whether the input is stored).
    public var inputAccess: RowAccess { .sameRow }

    /// A horizontal blur over an image of `size`.
    public init(kernel: GaussianKernel, size: PixelSize) {
        self.kernel = kernel
        descriptor = PassDescriptor(name: "horizontal blur", kind: .horizontalBlur, inputSize: size, outputSize: size,
                                    texelsPerPixel: kernel.taps, blends: false, offscreen: true)
    }

    /// Computes any output row from `input`.
    public func rows(reading input: Stage, parallelism: Parallelism) -> RowFunction {
        let width = descriptor.outputSize.width, radius = kernel.radius, weights = kernel.weights
        return { y, out in
            withScratchRow(width + 2 * radius) { padded in
                let row = padded + radius
                input.readRow(y, into: row)
                for t in 0..<radius {
                    padded[t] = row[0]
                    row[width + t] = row[width - 1]
                }
                weights.withUnsafeBufferPointer { w in
                    for x in 0..<width {
                        let centre = row + x
                        var sum = centre[0] * w[radius]
                        for t in stride(from: 1, through: radius, by: 1) {
                            sum += (centre[-t] + centre[t]) * w[radius + t]
                        }
                        out[x] = sum
                    }
                }
            }
        }
    }
}
