import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// What SSIM must not see: ignored rectangles and fully transparent pixels.
@Suite("SSIM exclusions")
struct SSIMExclusionTests {
    let base = noiseImage(width: 96, height: 80, seed: 11)

    /// `picture` with `rect` painted one colour.
    func painted(_ picture: RGBAImage<UInt8>, _ rect: PixelRect, _ colour: (UInt8, UInt8, UInt8, UInt8))
        -> RGBAImage<UInt8>
    {
        var samples = picture.samples
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                let index = (y * picture.width + x) * 4
                (samples[index], samples[index + 1], samples[index + 2], samples[index + 3]) = colour
            }
        }
        return RGBAImage(width: picture.width, height: picture.height, samples: samples)
    }

    @Test func aBlockPaintedOnlyInsideAnIgnoredRegionChangesNoScore() throws {
        let ignored = PixelRect(x: 30, y: 20, width: 24, height: 16)
        let block = painted(base, ignored, (255, 0, 0, 255))
        #expect(StructuralSimilarity.mean(base, block) < 0.99)
        #expect(StructuralSimilarity.mean(base, block, ignore: [ignored]) == 1)
        let comparison = try GoldenComparison(
            expected: base, actual: block, tolerance: Tolerance(minimumSSIM: 0.999999, ignore: [ignored]))
        #expect(comparison.passed && comparison.ssim == 1)
        // Outside the ignored rectangle a change still counts, as much as it did without the rectangle.
        let both = painted(block, PixelRect(x: 70, y: 50, width: 8, height: 8), (0, 0, 0, 255))
        #expect(StructuralSimilarity.mean(base, both, ignore: [ignored]) < 0.999)
    }

    @Test func colourUnderAlphaZeroChangesNoScore() throws {
        var first = noiseImage(width: 96, height: 80, seed: 5, alpha: true)
        var second = noiseImage(width: 96, height: 80, seed: 9, alpha: true)
        // The same alpha in both, a third of the pixels fully transparent; the same colour where alpha is not 0.
        for index in stride(from: 0, to: first.samples.count, by: 4) {
            let alpha: UInt8 = index % 12 == 0 ? 0 : first.samples[index + 3]
            first.samples[index + 3] = alpha
            second.samples[index + 3] = alpha
            if alpha != 0 { for c in 0..<3 { second.samples[index + c] = first.samples[index + c] } }
        }
        #expect(first != second)
        #expect(StructuralSimilarity.mean(first, second) == 1)
        let glyphs = try Fixtures.image("photos/glyphs-alpha.png")
        var recoloured = glyphs
        var generator = Xorshift64(seed: 3)
        for index in stride(from: 0, to: recoloured.samples.count, by: 4) where recoloured.samples[index + 3] == 0 {
            for c in 0..<3 { recoloured.samples[index + c] = UInt8(truncatingIfNeeded: generator.next()) }
        }
        #expect(StructuralSimilarity.mean(glyphs, recoloured) == 1)
        // A pixel that turns transparent is a change.
        let vanished = painted(base, PixelRect(x: 10, y: 10, width: 12, height: 12), (0, 0, 0, 0))
        #expect(StructuralSimilarity.mean(base, vanished) < 0.99)
    }

    @Test func theMeanIsTheSameForAnyThreadCountAndBand() throws {
        let other = noiseImage(width: 96, height: 80, seed: 12)
        let blended = RGBAImage(
            width: 96, height: 80, samples: zip(base.samples, other.samples).map { UInt8((Int($0) * 3 + Int($1)) / 4) })
        let serial = StructuralSimilarity.mean(base, blended, parallelism: .serial)
        for threads in [2, 3, 5, 16] {
            for scheduler in Scheduler.allCases {
                let parallelism = Parallelism(scheduler: scheduler, threads: threads)
                #expect(StructuralSimilarity.mean(base, blended, parallelism: parallelism) == serial)
            }
        }
        let region = PixelRect(x: 7, y: 9, width: 41, height: 30)
        #expect(
            StructuralSimilarity.mean(base, blended, region: region, parallelism: .serial)
                == StructuralSimilarity.mean(base, blended, region: region, parallelism: Parallelism(threads: 4)))
    }

    @Test func anIgnoredRegionOutsideThePictureIsRefused() throws {
        #expect(throws: BackdropError.self) {
            try GoldenComparison(
                expected: base, actual: base,
                tolerance: Tolerance(ignore: [PixelRect(x: 90, y: 0, width: 10, height: 10)]))
        }
        #expect(throws: BackdropError.self) {
            try GoldenComparison(expected: base, actual: base, tolerance: Tolerance(threshold: 1.01))
        }
    }
}

/// A pair with the same pixels is found identical at once, with the figures the full measure gives.
@Suite("Identical pairs")
struct IdenticalPairTests {
    @Test func theShortcutGivesTheFiguresOfTheFullMeasure() throws {
        let picture = noiseImage(width: 40, height: 30, seed: 21)
        let copy = RGBAImage(width: 40, height: 30, samples: picture.samples)
        let ignore = [PixelRect(x: 2, y: 3, width: 10, height: 8), PixelRect(x: 8, y: 5, width: 10, height: 20)]
        let region = PixelRect(x: 5, y: 4, width: 30, height: 22)
        let tolerance = Tolerance(minimumSSIM: 0.99, ignore: ignore)
        let comparison = try GoldenComparison(expected: picture, actual: copy, region: region, tolerance: tolerance)
        let measured = ImageDifference(picture, copy, region: region, ignore: ignore)
        #expect(comparison.difference == measured && comparison.ssim == 1 && comparison.passed)
        #expect(StructuralSimilarity.mean(picture, copy, region: region, ignore: ignore) == 1)
    }
}
