import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// The blur passes' two forms: the direct sum of the kernel's taps and the recursive Gaussian that replaces it for
/// wide kernels (exact mode).
@Suite("Blur passes")
struct BlurTests {
    /// A stored image with pseudo-random values in [0, 1] (premultiplied: colour ≤ alpha).
    static func randomImage(width: Int, height: Int, seed: UInt64 = 0x2545_F491_4F6C_DD1D) -> FloatImage {
        let image = FloatImage(width: width, height: height)
        var generator = Xorshift64(seed: seed)
        func next() -> Float { Float(generator.next() >> 40) / Float(1 << 24) }
        for y in 0..<height {
            for x in 0..<width {
                let a = next()
                image[x, y] = SIMD4(next() * a, next() * a, next() * a, a)
            }
        }
        return image
    }

    /// The horizontal blur of `image` as the pass computes it.
    static func horizontalBlur(_ image: FloatImage, kernel: GaussianKernel) -> FloatImage {
        let pass = HorizontalBlurPass(kernel: kernel, size: image.size)
        let output = pass.output(reading: .stored(image), for: .neighbourhood, parallelism: .serial)
        return output.storedImage
    }

    /// Σ w[t]·in[clamp(x + t)] in `Double`: the definition both forms implement.
    static func directSum(_ image: FloatImage, kernel: GaussianKernel, x: Int, y: Int) -> SIMD4<Double> {
        var sum = SIMD4<Double>.zero
        for t in -kernel.radius...kernel.radius {
            let p = image.row(y)[min(max(x + t, 0), image.width - 1)]
            sum += SIMD4(Double(p.x), Double(p.y), Double(p.z), Double(p.w)) * Double(kernel.weights[t + kernel.radius])
        }
        return sum
    }

    @Test func onlyKernelsWiderThanThirtyTwoTapsEachSideRunRecursively() {
        #expect(GaussianKernel(sigma: 8).recursive == nil)  // radius 32: the fast path's widest
        #expect(GaussianKernel(sigma: 8.01).recursive != nil)  // radius 33
        #expect(GaussianKernel(sigma: 60).recursive?.sigma == 60)
    }

    @Test(arguments: [8.5, 20, 60, 250])
    func theRecursionAgreesWithTheDirectSumOfTheTaps(sigma: Double) throws {
        let kernel = GaussianKernel(sigma: sigma)
        try #require(kernel.recursive != nil)
        // Wider than the kernel, so that both edges and the middle are covered.
        let image = Self.randomImage(width: 3 * kernel.radius + 7, height: 3)
        let blurred = Self.horizontalBlur(image, kernel: kernel)
        var worst = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = blurred.row(y)[x]
                let difference =
                    SIMD4(Double(p.x), Double(p.y), Double(p.z), Double(p.w))
                    - Self.directSum(image, kernel: kernel, x: x, y: y)
                worst = max(worst, abs(difference.x), abs(difference.y), abs(difference.z), abs(difference.w))
            }
        }
        // A twentieth of an 8-bit step at most (measured: 0.011–0.020 on this noise, σ = 8.5 … 250).
        #expect(worst < 0.05 / 255, "σ = \(sigma): worst difference \(worst * 255) of an 8-bit step")
    }

    @Test(arguments: [9.0, 60, 1000])
    func aFlatRowStaysFlat(sigma: Double) {
        let image = FloatImage(width: 500, height: 1)
        let color = SIMD4<Float>(0.2, 0.5, 0.7, 0.9)
        for x in 0..<image.width { image.row(0)[x] = color }
        let blurred = Self.horizontalBlur(image, kernel: GaussianKernel(sigma: sigma))
        for x in 0..<image.width {
            let d = blurred.row(0)[x] - color
            #expect(max(abs(d.x), abs(d.y), abs(d.z), abs(d.w)) < 1e-6, "σ = \(sigma), x = \(x): \(blurred.row(0)[x])")
        }
    }

    /// The vertical pass runs the recursion down column strips in place; each column must come out exactly as the
    /// row pass computes the same values laid along a row, whatever strip it falls in and however many threads run.
    @Test func theColumnStripsGiveTheRowPassResultOnTheTransposedImage() {
        let kernel = GaussianKernel(sigma: 12)
        let width = 70, height = 90  // 70 = two strips of 32 and one of 6
        let image = Self.randomImage(width: width, height: height)
        let transposed = FloatImage(width: height, height: width)
        for y in 0..<height { for x in 0..<width { transposed.row(x)[y] = image.row(y)[x] } }
        let rowResult = Self.horizontalBlur(transposed, kernel: kernel)
        for threads in [1, 2, 3] {
            let copy = FloatImage(width: width, height: height)
            for y in 0..<height { copy.row(y).update(from: image.row(y), count: width) }
            let pass = VerticalBlurPass(kernel: kernel, size: image.size)
            let columns = pass.output(reading: .stored(copy), for: .sameRow, parallelism: Parallelism(threads: threads))
                .storedImage
            var mismatches = 0
            for y in 0..<height {
                for x in 0..<width where columns.row(y)[x] != rowResult.row(x)[y] { mismatches += 1 }
            }
            #expect(mismatches == 0, "\(threads) threads: \(mismatches) pixels differ from the row pass")
        }
    }

    /// The direct sums run eight pixels at a time, then one (the horizontal pass), and four at a time, then one,
    /// in blocks of four rows (the vertical pass): every width from 1 to 19 crosses each of those tails, and the
    /// transposed image's five rows end in a block with one row.
    @Test(arguments: Array(1...19))
    func theDirectSumsMatchTheirDefinitionAtEveryWidth(width: Int) {
        let kernel = GaussianKernel(sigma: 2.2)  // radius 9: a window of 22 rows for each block of four
        let image = Self.randomImage(width: width, height: 5, seed: UInt64(width) &* 0x9E37_79B9_7F4A_7C15 | 1)
        let blurred = Self.horizontalBlur(image, kernel: kernel)
        // The vertical pass on the transposed image computes the same definition down the columns.
        let transposed = FloatImage(width: image.height, height: width)
        for y in 0..<image.height { for x in 0..<width { transposed.row(x)[y] = image.row(y)[x] } }
        let vertical = VerticalBlurPass(kernel: kernel, size: transposed.size)
            .output(reading: .stored(transposed), for: .neighbourhood, parallelism: .serial).storedImage
        var worst = 0.0
        for y in 0..<image.height {
            for x in 0..<width {
                let exact = Self.directSum(image, kernel: kernel, x: x, y: y)
                for p in [blurred.row(y)[x], vertical.row(x)[y]] {
                    let d = SIMD4(Double(p.x), Double(p.y), Double(p.z), Double(p.w)) - exact
                    worst = max(worst, abs(d.x), abs(d.y), abs(d.z), abs(d.w))
                }
            }
        }
        #expect(worst < 1e-6, "width \(width): worst difference \(worst)")
    }
}
