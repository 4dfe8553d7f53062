import BackdropImageIO
import CVectorKernels

/// Pass 4, vertical blur: a 1-D Gaussian along each column.
///
/// - Input: a stored image (rows are read at random), output: the same size, premultiplied rows.
/// - Maths: out[y] = Σ_{t=−r…r} w[t] · in[clamp(y + t)], summed from the top tap down, one fused multiply-add
///   per tap, four output rows at a time so that each input row is read once for four of them
///   (`convolveBlock(_:firstRow:radius:weights:rows:into:)`; on CPUs with AVX2 and FMA its C twin,
///   `bd_vertical_blur_block_v3`, the same sums bit for bit). Kernels wider than ``GaussianKernel/widestDirectRadius`` (exact mode) run the same blur as
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

    /// A vertical blur over an image of `size`.
    public init(kernel: GaussianKernel, size: PixelSize) {
        self.kernel = kernel
        descriptor = PassDescriptor(
            name: "vertical blur", kind: .verticalBlur, inputSize: size, outputSize: size,
            texelsPerPixel: kernel.taps, blends: false, offscreen: true,
            // On the GPU one bilinear fetch between two taps reads both (linear sampling).
            gpuFetchesPerPixel: Double((kernel.taps + 1) / 2))
    }

    /// Any output row, from the whole output, which is computed first (stored): four rows share their input reads
    /// (direct kernels), or the recursion runs the whole column (recursive ones), so no row is computed alone.
    public func rows(reading input: Stage, parallelism: Parallelism) -> RowFunction {
        let image = output(reading: input, for: .neighbourhood, parallelism: parallelism).storedImage
        return { y, out in out.update(from: image.row(y), count: image.width) }
    }

    /// The output, stored, whatever `consumer` is. Direct kernels: a new image, in blocks of four rows on all
    /// threads. Recursive kernels: the stored input, overwritten column strip by column strip with its blur.
    public func output(reading input: Stage, for consumer: RowAccess, parallelism: Parallelism) -> Stage {
        let image = input.storedImage
        guard let recursive = kernel.recursive else {
            let result = FloatImage(width: image.width, height: image.height), radius = kernel.radius
            // The kernel's weights, each in eight consecutive lanes (a vector's worth), with three zero weights on
            // each side: output row j of a block of four (j = 0 … 3) gives input row s of the block's window the
            // weight in lanes 8·(s + 3 − j) ..< 8·(s + 4 − j) (see `convolveBlock`). Vectors, not scalars: the
            // multiply-adds take them straight from memory. Floats 32-byte aligned, as the rows are, so that each
            // vector loads from one cache line; not an array of `SIMD8<Float>`, a type the runtime builds by name
            // on a process's first render (docs/performance.md).
            let count = 8 * (kernel.weights.count + 6)
            let padded = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<Float>.stride, alignment: 32)
                .initializeMemory(as: Float.self, repeating: 0, count: count)
            defer { UnsafeMutableRawPointer(padded).deallocate() }
            for (t, weight) in kernel.weights.enumerated() {
                (padded + 8 * (t + 3)).update(repeating: weight, count: 8)
            }
            let weights = SendableConstPointer(UnsafePointer(padded))
            parallelism.forEachBand(of: (image.height + 3) / 4) { band in
                let rows = UnsafeMutablePointer<UnsafePointer<SIMD4<Float>>>.allocate(capacity: 2 * radius + 4)
                defer { rows.deallocate() }
                for block in band {
                    VerticalBlurPass.convolveBlock(
                        image, firstRow: 4 * block, radius: radius, weights: weights.pointer, rows: rows, into: result)
                }
            }
            return .stored(result)
        }
        // A picture narrower than a strip gets a strip of its width: the causal outputs are height × strip pixels.
        let strip = min(Self.stripWidth, max(1, image.width))
        parallelism.forEachBand(of: (image.width + strip - 1) / strip) { band in
            let causal = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: image.height * strip)
            let states = UnsafeMutablePointer<RecursiveGaussian.State>.allocate(capacity: strip)
            defer { causal.deallocate(); states.deallocate() }
            for index in band {
                let x = index * strip
                VerticalBlurPass.filterColumns(
                    image, from: x, count: min(strip, image.width - x), recursive,
                    causal: causal, states: states)
            }
        }
        return .stored(image)
    }

    /// Columns a recursive strip covers: 32 pixels, 512 contiguous bytes of each row, which the prefetcher
    /// follows; the strip's states (6 KB) stay in the L1 cache. Narrower strips were slower on the exact render,
    /// wider ones no faster (docs/performance.md).
    static let stripWidth = 32

    /// The recursive form down columns `x ..< x + count`, in place: the causal outputs are saved top to bottom
    /// in `causal` (`image.height × count` pixels), then the anticausal ones computed bottom to top and the sums
    /// written over the input. Each column's recursion is the row pass's, in the same order, so the result does
    /// not depend on the strip a column falls in. On CPUs with AVX2 and FMA its C twin runs,
    /// `bd_recursive_columns_v3`: the same values.
    @inline(__always)
    static func filterColumns(
        _ image: FloatImage, from x: Int, count: Int, _ gaussian: RecursiveGaussian,
        causal: UnsafeMutablePointer<SIMD4<Float>>,
        states: UnsafeMutablePointer<RecursiveGaussian.State>
    ) {
        let height = image.height
        if VectorKernels.available {
            var sections = gaussian.cSections
            return withUnsafeBytes(of: &sections) { sections in
                bd_recursive_columns_v3(
                    UnsafeMutableRawPointer(image.row(0) + x).assumingMemoryBound(to: Float.self), image.rowStride,
                    height, count, sections.baseAddress!.assumingMemoryBound(to: bd_recursive_section.self),
                    UnsafeMutableRawPointer(causal).assumingMemoryBound(to: Float.self))
            }
        }
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

    /// Output rows y0 ..< y0 + 4 (`firstRow` = y0; rows past the bottom are computed and not stored) from the
    /// window of input rows y0 − r … y0 + 3 + r (clamped: the edge row repeats), whose row pointers go in `rows`
    /// (2r + 4 of them). Each input row is read once per four pixels and multiplied into the four output rows'
    /// sums, with weight 0 where a tap is outside an output row's kernel: adding 0·v leaves a sum exactly as it
    /// was, so every output row is Σ w[t]·in[y + t] summed from t = −r up, whatever block or band it falls in.
    /// Four pixels (two 8-lane vectors per row, eight sums in registers) at a time, then one at a time.
    @inline(__always)
    static func convolveBlock(
        _ image: FloatImage, firstRow y0: Int, radius: Int, weights: UnsafePointer<Float>,
        rows: UnsafeMutablePointer<UnsafePointer<SIMD4<Float>>>, into output: FloatImage
    ) {
        let span = 2 &* radius &+ 4, lastRow = image.height &- 1, width = image.width
        for s in 0..<span { rows[s] = UnsafePointer(image.row(min(max(y0 &- radius &+ s, 0), lastRow))) }
        let count = min(4, image.height &- y0)
        let out = (
            output.row(y0), output.row(min(y0 &+ 1, lastRow)), output.row(min(y0 &+ 2, lastRow)),
            output.row(min(y0 &+ 3, lastRow))
        )
        if VectorKernels.available {
            var outputs = (
                UnsafeMutableRawPointer(out.0), UnsafeMutableRawPointer(out.1), UnsafeMutableRawPointer(out.2),
                UnsafeMutableRawPointer(out.3)
            )
            withUnsafeBytes(of: &outputs) { outputRows in
                bd_vertical_blur_block_v3(
                    UnsafeRawPointer(rows).assumingMemoryBound(to: UnsafePointer<Float>?.self), span,
                    weights,
                    outputRows.baseAddress!.assumingMemoryBound(to: UnsafeMutablePointer<Float>?.self), count, width)
            }
            return
        }
        /// Tap s's weight in eight lanes.
        @inline(__always) func w(_ s: Int) -> SIMD8<Float> {
            UnsafeRawPointer(weights + 8 &* s).loadUnaligned(as: SIMD8<Float>.self)
        }
        var x = 0
        while x &+ 4 <= width {
            var a0 = SIMD8<Float>.zero, b0 = SIMD8<Float>.zero, a1 = SIMD8<Float>.zero, b1 = SIMD8<Float>.zero
            var a2 = SIMD8<Float>.zero, b2 = SIMD8<Float>.zero, a3 = SIMD8<Float>.zero, b3 = SIMD8<Float>.zero
            for s in 0..<span {
                let low = (rows[s] + x).pixelPair, high = (rows[s] + (x &+ 2)).pixelPair
                let w0 = w(s &+ 3), w1 = w(s &+ 2), w2 = w(s &+ 1), w3 = w(s)
                a0 = a0.addingProduct(low, w0); b0 = b0.addingProduct(high, w0)
                a1 = a1.addingProduct(low, w1); b1 = b1.addingProduct(high, w1)
                a2 = a2.addingProduct(low, w2); b2 = b2.addingProduct(high, w2)
                a3 = a3.addingProduct(low, w3); b3 = b3.addingProduct(high, w3)
            }
            (out.0 + x).pixelPair = a0; (out.0 + (x &+ 2)).pixelPair = b0
            if count > 1 { (out.1 + x).pixelPair = a1; (out.1 + (x &+ 2)).pixelPair = b1 }
            if count > 2 { (out.2 + x).pixelPair = a2; (out.2 + (x &+ 2)).pixelPair = b2 }
            if count > 3 { (out.3 + x).pixelPair = a3; (out.3 + (x &+ 2)).pixelPair = b3 }
            x &+= 4
        }
        while x < width {  // the last one to three pixels: the same sums, one pixel at a time
            var a0 = SIMD4<Float>.zero, a1 = SIMD4<Float>.zero, a2 = SIMD4<Float>.zero, a3 = SIMD4<Float>.zero
            for s in 0..<span {
                let v = rows[s][x]
                a0 = a0.addingProduct(v, w(s &+ 3).lowHalf); a1 = a1.addingProduct(v, w(s &+ 2).lowHalf)
                a2 = a2.addingProduct(v, w(s &+ 1).lowHalf); a3 = a3.addingProduct(v, w(s).lowHalf)
            }
            out.0[x] = a0
            if count > 1 { out.1[x] = a1 }
            if count > 2 { out.2[x] = a2 }
            if count > 3 { out.3[x] = a3 }
            x &+= 1
        }
    }
}
