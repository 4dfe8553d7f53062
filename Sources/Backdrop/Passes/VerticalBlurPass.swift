/// Pass 4, vertical blur: a 1-D Gaussian along each column.
///
/// - Input: a stored image (rows are read at random), output: the same size, premultiplied rows.
/// - Maths: out[y] = Σ_{t=−r…r} w[t] · in[clamp(y + t)], accumulated four input rows (taps) at a time over
///   256-pixel chunks, so the inner loop runs along contiguous memory and the sums stay in the L1 cache.
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
                                    texelsPerPixel: kernel.taps, blends: false, offscreen: true,
                                    // On the GPU one bilinear fetch between two taps reads both (linear sampling).
                                    gpuFetchesPerPixel: Double((kernel.taps + 1) / 2))
    }

    /// Computes any output row from `input`.
    public func rows(reading input: Stage, parallelism: Parallelism) -> RowFunction {
        let image = input.storedImage
        let width = image.width, lastRow = image.height - 1, radius = kernel.radius, weights = kernel.weights
        return { y, out in
            weights.withUnsafeBufferPointer { w in
                VerticalBlurPass.convolve(image, row: y, lastRow: lastRow, width: width, radius: radius,
                                          weights: w.baseAddress!, into: out)
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
                         weights w: UnsafePointer<Float>, into out: UnsafeMutablePointer<SIMD4<Float>>) {
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
            var sum = centre[x] * centreWeight
            var t = 1
            while t &+ 3 <= radius {
                let s0 = image.row(max(y &- t, 0))[x] + image.row(min(y &+ t, lastRow))[x]
                let s1 = image.row(max(y &- t &- 1, 0))[x] + image.row(min(y &+ t &+ 1, lastRow))[x]
                let s2 = image.row(max(y &- t &- 2, 0))[x] + image.row(min(y &+ t &+ 2, lastRow))[x]
                let s3 = image.row(max(y &- t &- 3, 0))[x] + image.row(min(y &+ t &+ 3, lastRow))[x]
                sum += (s0 * w[radius &+ t] + s1 * w[radius &+ t &+ 1]) + (s2 * w[radius &+ t &+ 2] + s3 * w[radius &+ t &+ 3])
                t &+= 4
            }
            while t <= radius {
                sum += (image.row(max(y &- t, 0))[x] + image.row(min(y &+ t, lastRow))[x]) * w[radius &+ t]
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
