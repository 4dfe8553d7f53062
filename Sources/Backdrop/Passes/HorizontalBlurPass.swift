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
        descriptor = PassDescriptor(name: "horizontal blur", kind: .horizontalBlur, inputSize: size, outputSize: size,
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
    /// either way (centre, then ±1, ±2, …), so the result does not depend on where its group starts.
    @inline(__always)
    static func convolve(_ row: UnsafeMutablePointer<SIMD4<Float>>, width: Int, radius: Int,
                         weights w: UnsafePointer<Float>, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        let centreWeight = w[radius]
        var x = 0
        while x &+ 8 <= width {
            let c = row + x
            var a01 = pair(c, 0) * centreWeight, a23 = pair(c, 2) * centreWeight
            var a45 = pair(c, 4) * centreWeight, a67 = pair(c, 6) * centreWeight
            var t = 1
            while t <= radius {
                let weight = w[radius &+ t]
                a01 += (pair(c, 0 &- t) + pair(c, t)) * weight
                a23 += (pair(c, 2 &- t) + pair(c, 2 &+ t)) * weight
                a45 += (pair(c, 4 &- t) + pair(c, 4 &+ t)) * weight
                a67 += (pair(c, 6 &- t) + pair(c, 6 &+ t)) * weight
                t &+= 1
            }
            UnsafeMutableRawPointer(out + x).storeBytes(of: a01, as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(out + (x &+ 2)).storeBytes(of: a23, as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(out + (x &+ 4)).storeBytes(of: a45, as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(out + (x &+ 6)).storeBytes(of: a67, as: SIMD8<Float>.self)
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
    /// pixels' steady states).
    @inline(__always)
    static func filter(_ row: UnsafePointer<SIMD4<Float>>, width: Int, _ gaussian: RecursiveGaussian,
                       into out: UnsafeMutablePointer<SIMD4<Float>>) {
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

    /// Pixels i and i + 1 from `c`, as one vector.
    @inline(__always) static func pair(_ c: UnsafeMutablePointer<SIMD4<Float>>, _ i: Int) -> SIMD8<Float> {
        UnsafeRawPointer(c + i).loadUnaligned(as: SIMD8<Float>.self)
    }
}
