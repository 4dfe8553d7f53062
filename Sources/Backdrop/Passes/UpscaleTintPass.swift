/// Pass 5, upscale and tint: bilinear upscale by k back to the frame, with the style's saturation and tint.
///
/// - Input: the blurred small image (stored), premultiplied. Output: frame-sized premultiplied rows.
/// - Geometry: output pixel x samples small coordinate u = (x + ½)/k − ½, clamped to [0, w_small − 1]
///   (the inverse of ``DownscalePass``'s box centres); likewise for y.
/// - Colour: ``ColorTransform`` (saturation, clamp to [0, A], tint). It is applied to the small pixels before
///   interpolation: its affine part commutes with bilinear weights (they sum to 1), and convex weights keep the
///   clamped result valid (0 ≤ C ≤ A). Doing it on the small image costs 1/k² of doing it per output pixel; the
///   difference from clamping after interpolation is inside the fast path's measured PSNR.
/// - With k = 1 (exact mode) there is no upscale: the colour steps run on each pixel as it is read.
/// - Work: 4 texels read per pixel written (the bilinear footprint); written on screen.
public struct UpscaleTintPass: RowPass {
    /// The resampling factor k.
    public let factor: Int
    /// The colour steps applied to every pixel.
    public let transform: ColorTransform
    /// The pass as data: sizes, taps, blending, offscreen.
    public let descriptor: PassDescriptor
    /// Which input rows an output row reads (decides whether the input is stored).
    public var inputAccess: RowAccess { factor == 1 ? .sameRow : .neighbourhood }

    /// Upscale by `factor` from `inputSize` to `outputSize`, applying `transform`.
    public init(factor: Int, inputSize: PixelSize, outputSize: PixelSize, transform: ColorTransform) {
        self.factor = factor
        self.transform = transform
        descriptor = PassDescriptor(name: factor == 1 ? "tint" : "upscale ×\(factor) + tint", kind: .upscaleTint,
                                    inputSize: inputSize, outputSize: outputSize,
                                    texelsPerPixel: factor == 1 ? 1 : 4, blends: false, offscreen: false,
                                    gpuFetchesPerPixel: 1)  // one bilinear fetch
    }

    /// Mean variance, in output pixels², that bilinear interpolation from a grid k apart adds over the k phases
    /// of the output grid: k²·mean(t(1 − t)) with t the fractional sample position of each phase.
    public static func addedVariance(factor k: Int) -> Double {
        let phases = (0..<k).map { x -> Double in
            let u = (Double(x) + 0.5) / Double(k) - 0.5
            let t = u - u.rounded(.down)
            return t * (1 - t)
        }
        return Double(k * k) * phases.reduce(0, +) / Double(k)
    }

    /// Computes any output row from `input`.
    public func rows(reading input: Stage, parallelism: Parallelism) -> RowFunction {
        guard factor > 1 else { return transform.applied(to: input) }
        let transform = transform, width = descriptor.outputSize.width
        let blurred = input.storedImage
        let small = FloatImage(width: blurred.width, height: blurred.height)
        parallelism.forEachBand(of: small.height) { band in
            for y in band {
                small.row(y).update(from: blurred.row(y), count: small.width)
                transform.apply(small.row(y), count: small.width)
            }
        }
        let columns = BilinearTaps(outputCount: width, factor: factor, inputCount: small.width)
        let rows = BilinearTaps(outputCount: descriptor.outputSize.height, factor: factor, inputCount: small.height)
        return { y, out in
            let (y0, y1, fy) = (rows.lower[y], rows.upper[y], rows.fraction[y])
            withScratchRow(small.width) { blended in
                let top = small.row(y0), bottom = small.row(y1)
                // a + (b − a)·f rather than a·(1 − f) + b·f: exact where a = b, so flat areas keep their exact value
                // (and the exact ties of the tint round as in the references).
                let weight = SIMD4<Float>(repeating: fy)
                for x in 0..<small.width { blended[x] = top[x] + (bottom[x] - top[x]) * weight }
                columns.lower.withUnsafeBufferPointer { lower in
                    columns.upper.withUnsafeBufferPointer { upper in
                        columns.fraction.withUnsafeBufferPointer { fraction in
                            for x in 0..<width {
                                let left = blended[lower[x]]
                                out[x] = left + (blended[upper[x]] - left) * fraction[x]
                            }
                        }
                    }
                }
            }
        }
    }
}

/// For each output index of a ×k bilinear upscale: the two input samples and the weight of the upper one.
struct BilinearTaps: Sendable {
    let lower: [Int]
    let upper: [Int]
    let fraction: [Float]

    init(outputCount: Int, factor: Int, inputCount: Int) {
        var lower = [Int](), upper = [Int](), fraction = [Float]()
        lower.reserveCapacity(outputCount); upper.reserveCapacity(outputCount); fraction.reserveCapacity(outputCount)
        for x in 0..<outputCount {
            let u = min(max((Double(x) + 0.5) / Double(factor) - 0.5, 0), Double(inputCount - 1))
            let i = Int(u.rounded(.down))
            lower.append(i)
            upper.append(min(i + 1, inputCount - 1))
            fraction.append(Float(u - Double(i)))
        }
        self.lower = lower; self.upper = upper; self.fraction = fraction
    }
}
