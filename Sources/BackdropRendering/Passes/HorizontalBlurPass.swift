import BackdropImageIO
import CVectorKernels

/// Pass 3, horizontal blur: a 1-D Gaussian along each row.
///
/// - Input and output: the same size, premultiplied rows.
/// - Maths: out[x] = Σ_{t=−r…r} w[t] · in[clamp(x + t)], with the kernel's symmetry w[−t] = w[t] used to halve
///   the multiplies. Kernels wider than ``GaussianKernel/widestDirectRadius`` (exact mode) run the same blur as
///   ``RecursiveGaussian``: along the row forwards, then backwards.
/// - Edges: clamp (the edge pixel repeats), within the frame only.
/// - Rounding: none; `Float` between passes (the recursion runs in `Double`).
/// - Work: 2r + 1 texels read per pixel written (on the GPU; the CPU's recursion reads each pixel twice).
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
        descriptor = PassDescriptor(
            name: "horizontal blur", kind: .horizontalBlur, inputSize: size, outputSize: size,
            texelsPerPixel: kernel.taps, blends: false, offscreen: true,
            // On the GPU one bilinear fetch between two taps reads both (linear sampling).
            gpuFetchesPerPixel: Double((kernel.taps + 1) / 2))
    }

    /// Computes any output row from `input`.
    public func rows(reading input: Stage, parallelism: Parallelism) -> RowFunction {
        let width = descriptor.outputSize.width, radius = kernel.radius, weights = kernel.weights
        if let recursive = kernel.recursive {
            return { y, out in
                withScratchRow(width) { scratch in
                    HorizontalBlurPass.filter(input.row(y, orInto: scratch), width: width, recursive, into: out)
                }
            }
        }
        return { y, out in
            withScratchRow(width + 2 * radius) { padded in
                let row = padded + radius
                input.readRow(y, into: row)
                for t in 0..<radius {
                    padded[t] = row[0]
                    row[width + t] = row[width - 1]
                }
                weights.withUnsafeBufferPointer { w in
                    HorizontalBlurPass.convolve(row, width: width, radius: radius, weights: w.baseAddress!, into: out)
                }
            }
        }
    }

    /// The row loop. Layout: `row` has `radius` valid pixels before index 0 and after index `width − 1`
    /// (the clamped padding). Eight output pixels are computed at a time in four independent 8-lane accumulators,
    /// so that the adds do not wait on each other (one accumulator per tap would wait the add's latency, three
    /// cycles, per tap), then the last few (at most seven) one at a time; each pixel sums its taps in the same order
    /// either way (centre, then ±1, ±2, …), so the result does not depend on where its group starts. On CPUs with
    /// AVX2 its C twin runs, `bd_horizontal_blur_row_v3`: the same operations on 8-float registers, the same values.
    @inline(__always)
    static func convolve(
        _ row: UnsafeMutablePointer<SIMD4<Float>>, width: Int, radius: Int,
        weights w: UnsafePointer<Float>, into out: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        if VectorKernels.available {
            return bd_horizontal_blur_row_v3(
                UnsafeRawPointer(row).assumingMemoryBound(to: Float.self), width, radius, w,
                UnsafeMutableRawPointer(out).assumingMemoryBound(to: Float.self))
        }
        let centreWeight = w[radius]
        var x = 0
        while x &+ 8 <= width {
            let c = row + x
            var a01 = c.pixelPair * centreWeight, a23 = (c + 2).pixelPair * centreWeight
            var a45 = (c + 4).pixelPair * centreWeight, a67 = (c + 6).pixelPair * centreWeight
            var t = 1
            while t <= radius {
                let weight = w[radius &+ t]
                // c + (0 &- t), not c − t: that form cost 0.5M more instructions a frame.
                a01 += ((c + (0 &- t)).pixelPair + (c + t).pixelPair) * weight
                a23 += ((c + (2 &- t)).pixelPair + (c + (2 &+ t)).pixelPair) * weight
                a45 += ((c + (4 &- t)).pixelPair + (c + (4 &+ t)).pixelPair) * weight
                a67 += ((c + (6 &- t)).pixelPair + (c + (6 &+ t)).pixelPair) * weight
                t &+= 1
            }
            (out + x).pixelPair = a01
            (out + (x &+ 2)).pixelPair = a23
            (out + (x &+ 4)).pixelPair = a45
            (out + (x &+ 6)).pixelPair = a67
            x &+= 8
        }
        while x < width {
            let c = row + x
            var a = c[0] * centreWeight
            var t = 1
            while t <= radius {
                a += (c[0 &- t] + c[t]) * w[radius &+ t]
                t &+= 1
            }
            out[x] = a
            x &+= 1
        }
    }

    /// The recursive form along one row: the causal outputs are written into `out` left to right, then the
    /// anticausal ones added right to left. `row` is `width` pixels (no padding: the recursion starts from the edge
    /// pixels' steady states). On CPUs with AVX2 and FMA its C twin runs, `bd_recursive_row_v3`: the same values.
    @inline(__always)
    static func filter(
        _ row: UnsafePointer<SIMD4<Float>>, width: Int, _ gaussian: RecursiveGaussian,
        into out: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        if VectorKernels.available {
            var sections = gaussian.cSections
            return withUnsafeBytes(of: &sections) { sections in
                bd_recursive_row_v3(
                    UnsafeRawPointer(row).assumingMemoryBound(to: Float.self), width,
                    sections.baseAddress!.assumingMemoryBound(to: bd_recursive_section.self),
                    UnsafeMutableRawPointer(out).assumingMemoryBound(to: Float.self))
            }
        }
        var state = gaussian.causalStart(edge: SIMD4(widening: row[0]))
        for x in 0..<width {
            out[x] = SIMD4(narrowing: gaussian.causal(SIMD4(widening: row[x]), &state))
        }
        state = gaussian.anticausalStart(edge: SIMD4(widening: row[width &- 1]))
        var x = width
        while x > 0 {
            x &-= 1
            out[x] = SIMD4(narrowing: SIMD4(widening: out[x]) + gaussian.anticausal(SIMD4(widening: row[x]), &state))
        }
    }
}
