/// Pass 4, vertical blur: a 1-D Gaussian along each column.
///
/// - Input: a stored image (rows are read at random), output: the same size, premultiplied rows.
/// - Maths: out[y] = Σ_{t=−r…r} w[t] · in[clamp(y + t)], accumulated four input rows (taps) at a time over
///   256-pixel chunks, so the inner loop runs along contiguous memory and the sums stay in the L1 cache.
///   Kernels wider than ``GaussianKernel/widestDirectRadius`` (exact mode) run the same blur as
///   ``RecursiveGaussian`` down the columns, in strips of 32 columns, overwriting the stored input
///   (``output(reading:for:parallelism:)``).
/// - Edges: clamp (the edge row repeats), within the frame only.
/// - Rounding: none; `Float` between passes (the recursion runs in `Double`).
/// - Work: 2r + 1 texels read per pixel written (on the GPU; the CPU's recursion reads each pixel twice).
public struct VerticalBlurPass: RowPass {
    /// The 1-D Gaussian, in pixels of the image it runs on.
    public let kernel: GaussianKernel
    /// The pass as data: sizes, taps, blending, offscreen.
    public let descriptor: PassDescriptor
    /// Which input rows an output row reads (decides whether the input is stored).
    public var inputAccess: RowAccess { .neighbourhood }

    /// The kernel's weights, each in all eight lanes of a vector. Loaded as vectors, the weights stay one
    /// multiplier per tap: given scalars, the compiler's vectoriser pairs two taps' weights in one vector and pays
    /// for it with a blend of the two rows' sums on every step (seen in `perf annotate`).
    let weightLanes: [SIMD8<Float>]

    /// A vertical blur over an image of `size`.
    public init(kernel: GaussianKernel, size: PixelSize) {
        self.kernel = kernel
        weightLanes = kernel.weights.map { SIMD8(repeating: $0) }
        descriptor = PassDescriptor(name: "vertical blur", kind: .verticalBlur, inputSize: size, outputSize: size,
                                    texelsPerPixel: kernel.taps, blends: false, offscreen: true,
                                    // On the GPU one bilinear fetch between two taps reads both (linear sampling).
                                    gpuFetchesPerPixel: Double((kernel.taps + 1) / 2))
    }

    /// Computes any output row from `input`. With a recursive kernel the whole output is computed first, over
    /// the stored input (see ``output(reading:for:parallelism:)``), and its rows are handed out.
    public func rows(reading input: Stage, parallelism: Parallelism) -> RowFunction {
        if kernel.recursive != nil {
            let image = output(reading: input, for: .neighbourhood, parallelism: parallelism).storedImage
            return { y, out in out.update(from: image.row(y), count: image.width) }
        }
        let image = input.storedImage
        let width = image.width, lastRow = image.height - 1, radius = kernel.radius, weights = weightLanes
        return { y, out in
            weights.withUnsafeBufferPointer { w in
                VerticalBlurPass.convolve(image, row: y, lastRow: lastRow, width: width, radius: radius,
                                          weights: w.baseAddress!, into: out)
            }
        }
    }

    /// The output as `consumer` reads it. With a recursive kernel: the stored input, overwritten column strip by
    /// column strip with its blur (the recursion runs the whole column, so no row can be computed alone).
    public func output(reading input: Stage, for consumer: RowAccess, parallelism: Parallelism) -> Stage {
        guard let recursive = kernel.recursive else {
            return .rows(rows(reading: input, parallelism: parallelism), size: descriptor.outputSize, for: consumer,
                         parallelism: parallelism)
        }
        let image = input.storedImage, strip = Self.stripWidth
        parallelism.forEachBand(of: (image.width + strip - 1) / strip) { band in
            let causal = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: image.height * strip)
            let states = UnsafeMutablePointer<RecursiveGaussian.State>.allocate(capacity: strip)
            defer { causal.deallocate(); states.deallocate() }
            for index in band {
                let x = index * strip
                VerticalBlurPass.filterColumns(image, from: x, count: min(strip, image.width - x), recursive,
                                               causal: causal, states: states)
            }
        }
        return .stored(image)
    }

    /// Columns a recursive strip covers: 32 pixels, 512 contiguous bytes of each row, which the prefetcher
    /// follows; the strip's states (6 KB) stay in the L1 cache. Measured on the 2048 × 1536 exact render: 8 and 16
    /// columns were slower (about 65 and 80 ms against 55 ms), 64 the same as 32.
    static let stripWidth = 32

    /// The recursive form down columns `x ..< x + count`, in place: the causal outputs are saved top to bottom
    /// in `causal` (`image.height × count` pixels), then the anticausal ones computed bottom to top and the sums
    /// written over the input. Each column's recursion is the row pass's, in the same order, so the result does
    /// not depend on the strip a column falls in.
    @inline(__always)
    static func filterColumns(_ image: FloatImage, from x: Int, count: Int, _ gaussian: RecursiveGaussian,
                              causal: UnsafeMutablePointer<SIMD4<Float>>,
                              states: UnsafeMutablePointer<RecursiveGaussian.State>) {
        let height = image.height
        let top = image.row(0) + x
        for i in 0..<count { states[i] = gaussian.causalStart(edge: SIMD4(widening: top[i])) }
        for y in 0..<height {
            let pixels = image.row(y) + x, saved = causal + y &* count
            for i in 0..<count {
                saved[i] = SIMD4(narrowing: gaussian.causal(SIMD4(widening: pixels[i]), &states[i]))
            }
        }
        let bottom = image.row(height &- 1) + x
        for i in 0..<count { states[i] = gaussian.anticausalStart(edge: SIMD4(widening: bottom[i])) }
        var y = height
        while y > 0 {
            y &-= 1
            let pixels = image.row(y) + x, saved = causal + y &* count
            for i in 0..<count {
                let anticausal = gaussian.anticausal(SIMD4(widening: pixels[i]), &states[i])
                pixels[i] = SIMD4(narrowing: SIMD4(widening: saved[i]) + anticausal)
            }
        }
    }

    /// The column loop for output row `y`, in chunks of 256 pixels: the chunk's sums (4 KB) stay in the L1 cache
    /// while each tap streams two input rows through it sequentially, which the prefetcher follows. (Holding four
    /// pixels' sums in registers across all taps was slower: it reads 2r + 1 rows 32 KB apart, which collide in
    /// the same L1 sets.) Two pixels (one 8-lane vector) at a time; each pixel sums its taps in the same order
    /// whatever the band or thread, and an odd last pixel runs the same sums on 4 lanes.
    @inline(__always)
    static func convolve(_ image: FloatImage, row y: Int, lastRow: Int, width: Int, radius: Int,
                         weights w: UnsafePointer<SIMD8<Float>>, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        let pairs = width / 2
        let centre = image.row(y), centreWeight = w[radius]
        var start = 0
        while start < pairs {
            let end = min(start &+ 128, pairs)
            for p in start..<end { store(load(centre, p) * centreWeight, out, p) }
            // Four taps per sweep of the chunk: one load and store of the sums per four taps instead of per tap.
            var t = 1
            while t &+ 3 <= radius {
                let a0 = image.row(max(y &- t, 0)), b0 = image.row(min(y &+ t, lastRow))
                let a1 = image.row(max(y &- t &- 1, 0)), b1 = image.row(min(y &+ t &+ 1, lastRow))
                let a2 = image.row(max(y &- t &- 2, 0)), b2 = image.row(min(y &+ t &+ 2, lastRow))
                let a3 = image.row(max(y &- t &- 3, 0)), b3 = image.row(min(y &+ t &+ 3, lastRow))
                let w0 = w[radius &+ t], w1 = w[radius &+ t &+ 1], w2 = w[radius &+ t &+ 2], w3 = w[radius &+ t &+ 3]
                for p in start..<end {
                    let sum = ((load(a0, p) + load(b0, p)) * w0 + (load(a1, p) + load(b1, p)) * w1)
                        + ((load(a2, p) + load(b2, p)) * w2 + (load(a3, p) + load(b3, p)) * w3)
                    store(load(out, p) + sum, out, p)
                }
                t &+= 4
            }
            while t <= radius {
                let above = image.row(max(y &- t, 0)), below = image.row(min(y &+ t, lastRow))
                let weight = w[radius &+ t]
                for p in start..<end { store(load(out, p) + (load(above, p) + load(below, p)) * weight, out, p) }
                t &+= 1
            }
            start = end
        }
        if width % 2 == 1 {  // the last pixel: the same sums, in the same order, on one pixel
            let x = width &- 1
            var sum = centre[x] * centreWeight.lowHalf
            var t = 1
            while t &+ 3 <= radius {
                let s0 = image.row(max(y &- t, 0))[x] + image.row(min(y &+ t, lastRow))[x]
                let s1 = image.row(max(y &- t &- 1, 0))[x] + image.row(min(y &+ t &+ 1, lastRow))[x]
                let s2 = image.row(max(y &- t &- 2, 0))[x] + image.row(min(y &+ t &+ 2, lastRow))[x]
                let s3 = image.row(max(y &- t &- 3, 0))[x] + image.row(min(y &+ t &+ 3, lastRow))[x]
                sum += (s0 * w[radius &+ t].lowHalf + s1 * w[radius &+ t &+ 1].lowHalf) + (s2 * w[radius &+ t &+ 2].lowHalf + s3 * w[radius &+ t &+ 3].lowHalf)
                t &+= 4
            }
            while t <= radius {
                sum += (image.row(max(y &- t, 0))[x] + image.row(min(y &+ t, lastRow))[x]) * w[radius &+ t].lowHalf
                t &+= 1
            }
            out[x] = sum
        }
    }

    /// Pixels 2p and 2p + 1 of a row, as one vector.
    @inline(__always) static func load(_ row: UnsafeMutablePointer<SIMD4<Float>>, _ p: Int) -> SIMD8<Float> {
        UnsafeRawPointer(row + 2 &* p).loadUnaligned(as: SIMD8<Float>.self)
    }

    @inline(__always) static func store(_ value: SIMD8<Float>, _ row: UnsafeMutablePointer<SIMD4<Float>>, _ p: Int) {
        UnsafeMutableRawPointer(row + 2 &* p).storeBytes(of: value, as: SIMD8<Float>.self)
    }
}
