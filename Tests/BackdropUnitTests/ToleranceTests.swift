import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// Each limit of a golden test's tolerance, where it must pass and where it must fail.
@Suite("Tolerances")
struct ToleranceTests {
    let base = noiseImage(width: 64, height: 48, seed: 7)

    /// `base` with the pixels of `rect` changed by `by` levels in every colour channel.
    func changed(_ rect: PixelRect, by delta: Int) -> RGBAImage<UInt8> {
        var samples = base.samples
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                for channel in 0..<3 {
                    let index = (y * base.width + x) * 4 + channel
                    samples[index] = UInt8(clamping: Int(samples[index]) + (Int(samples[index]) > 127 ? -delta : delta))
                }
            }
        }
        return RGBAImage(width: base.width, height: base.height, samples: samples)
    }

    func check(_ actual: RGBAImage<UInt8>, _ tolerance: Tolerance) throws -> GoldenComparison {
        try GoldenComparison(expected: base, actual: actual, tolerance: tolerance)
    }

    @Test func withNoLimitThePicturesMustBeIdenticalUnlessTheThresholdForgivesTheNoise() throws {
        #expect(try check(base, Tolerance()).passed)
        let dithered = changed(PixelRect(x: 0, y: 0, width: 64, height: 48), by: 1)
        #expect(try !check(dithered, Tolerance()).passed)
        #expect(try check(dithered, Tolerance(pixelThreshold: 1)).passed)
        #expect(
            try !check(changed(PixelRect(x: 3, y: 3, width: 1, height: 1), by: 2), Tolerance(pixelThreshold: 1)).passed)
    }

    @Test func maximumDifferingPixelsAndRatioCountPixelsBeyondTheThreshold() throws {
        let moved = changed(PixelRect(x: 10, y: 10, width: 5, height: 4), by: 60)  // 20 pixels
        #expect(try check(moved, Tolerance(maximumDifferingPixels: 20)).passed)
        #expect(try !check(moved, Tolerance(maximumDifferingPixels: 19)).passed)
        #expect(try check(moved, Tolerance(maximumDifferingRatio: 20.0 / 3072)).passed)
        #expect(try !check(moved, Tolerance(maximumDifferingRatio: 19.0 / 3072)).passed)
        // A threshold above the change forgives it.
        #expect(try check(moved, Tolerance(maximumDifferingPixels: 0, pixelThreshold: 60)).passed)
    }

    @Test func ignoredRectanglesAreLeftOutOfEveryMeasure() throws {
        let moved = changed(PixelRect(x: 10, y: 10, width: 5, height: 4), by: 60)
        let ignore = [PixelRect(x: 8, y: 8, width: 10, height: 10)]
        let report = try check(moved, Tolerance(ignore: ignore))
        #expect(report.passed && report.difference?.pixelCount == 64 * 48 - 100)
        #expect(try check(moved, Tolerance(minimumSSIM: 0.9999, ignore: ignore)).passed)
        #expect(try !check(moved, Tolerance(ignore: [PixelRect(x: 8, y: 8, width: 6, height: 10)])).passed)
    }

    @Test func psnrAndLargestDifferenceKeepTheirMeaning() throws {
        let moved = changed(PixelRect(x: 0, y: 0, width: 8, height: 8), by: 10)
        let difference = try #require(try check(moved, Tolerance()).difference)
        #expect(difference.maxDifference == 10 && difference.differingPixels == 64)
        #expect(try check(moved, Tolerance(maximumDifference: 10)).passed)
        #expect(try !check(moved, Tolerance(maximumDifference: 9)).passed)
        #expect(try check(moved, Tolerance(minimumPSNR: difference.psnr)).passed)
        #expect(try !check(moved, Tolerance(minimumPSNR: difference.psnr + 0.01)).passed)
    }

    @Test func ssimIsOneForIdenticalPicturesAndFallsMoreForStructureThanForABrightnessShift() throws {
        #expect(abs(StructuralSimilarity.mean(base, base) - 1) < 1e-12)
        // A smooth picture: a uniform +8 levels keeps its structure; noise of the same energy does not.
        var smooth = [UInt8](repeating: 255, count: 64 * 48 * 4)
        for y in 0..<48 { for x in 0..<64 { for c in 0..<3 { smooth[(y * 64 + x) * 4 + c] = UInt8(60 + x + y) } } }
        let picture = RGBAImage(width: 64, height: 48, samples: smooth)
        let brighter = RGBAImage(
            width: 64, height: 48, samples: smooth.enumerated().map { $0.offset % 4 == 3 ? $0.element : $0.element + 8 }
        )
        var generator = SplitMix64(seed: 3)
        let noisy = RGBAImage(
            width: 64, height: 48,
            samples: smooth.enumerated().map {
                $0.offset % 4 == 3
                    ? $0.element : UInt8(clamping: Int($0.element) + (Bool.random(using: &generator) ? 8 : -8))
            })
        let shifted = StructuralSimilarity.mean(picture, brighter),
            scrambled = StructuralSimilarity.mean(picture, noisy)
        #expect(shifted > 0.95 && scrambled < shifted, "shift \(shifted), noise \(scrambled)")
        #expect(
            try GoldenComparison(expected: picture, actual: brighter, tolerance: Tolerance(minimumSSIM: 0.95)).passed)
        #expect(
            try !GoldenComparison(expected: picture, actual: noisy, tolerance: Tolerance(minimumSSIM: shifted)).passed)
    }

    @Test func limitsOutOfRangeAreUsageErrorsAndTheManifestFormReadsBack() throws {
        for bad in [
            Tolerance(pixelThreshold: 300), Tolerance(maximumDifferingRatio: 2), Tolerance(minimumSSIM: 1.5),
            Tolerance(maximumDifferingPixels: -1),
        ] {
            #expect(throws: BackdropError.self) { try check(base, bad) }
        }
        let json =
            #"{"maximumDifferingPixels": 5, "maximumDifferingRatio": 0.01, "pixelThreshold": 1, "minimumSSIM": 0.98, "ignore": [[0, 0, 10, 20]]}"#
        let tolerance = try JSONDecoder().decode(Tolerance.self, from: Data(json.utf8))
        #expect(
            tolerance
                == Tolerance(
                    maximumDifferingPixels: 5, maximumDifferingRatio: 0.01, pixelThreshold: 1,
                    minimumSSIM: 0.98, ignore: [PixelRect(x: 0, y: 0, width: 10, height: 20)]))
        #expect(try JSONDecoder().decode(Tolerance.self, from: JSONEncoder().encode(tolerance)) == tolerance)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Tolerance.self, from: Data(#"{"ignore": [[0, 0, 10]]}"#.utf8))
        }
    }

    /// Issue 68 item 7: with a threshold and no limit, two different pictures can pass; the words say what was asked
    /// (no differing pixel under the threshold), not "identical".
    @Test func aThresholdWithoutLimitsIsNotCalledIdentical() {
        #expect(Tolerance().description == "identical")
        for tolerance in [Tolerance(threshold: 0.1), Tolerance(pixelThreshold: 3), Tolerance(includeAA: true)] {
            #expect(!tolerance.description.contains("identical"), "\(tolerance.description)")
            #expect(tolerance.description.hasPrefix("no differing pixel"), "\(tolerance.description)")
        }
        #expect(Tolerance(pixelThreshold: 0).description == "identical")
    }
}
