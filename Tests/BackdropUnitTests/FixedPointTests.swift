import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// The 8-bit composite's 8.7 fixed point (`FixedPoint`): each operation against its lane-by-lane definition, and
/// the whole arithmetic against the 16-bit output, which the composite computes in `Float`.
@Suite("Fixed point")
struct FixedPointTests {
    /// Every q up to 32 767 (the composite's are at most 32 640), in groups of sixteen.
    static let qGroups: [FixedPoint.Lanes] = stride(from: 0, through: 32_767, by: 16).map { start in
        var group = FixedPoint.Lanes()
        for lane in 0..<16 { group[lane] = Int16(min(start + lane * 7 % 16, 32_767)) }
        return group
    }

    /// Signed values across the range of a difference of two q, with its ends.
    static let signedValues: [Int16] = {
        var values: [Int16] = [
            0, 1, -1, 63, 64, 65, -64, -65, 127, 128, -128, 32_704, -32_704, 32_767, -32_767, -32_768,
        ]
        var generator = Xorshift64(seed: 0x2545_F491_4F6C_DD1D)
        for _ in 0..<2048 { values.append(Int16(truncatingIfNeeded: generator.next() >> 48)) }
        return values
    }()

    @Test func quantisingRoundsOneHundredTwentyEightTimesTheValueTiesToEvenInLaneOrder() {
        SampleConversionTests.expectLaneByLane(
            SampleConversionTests.byteScaleValues, FixedPoint.quantised,
            lane: { Int16(($0 * 128).rounded(.toNearestOrEven)) })
    }

    /// ⌊q/128 + ½⌋, eight pixels and four at a time: ties (q = 128·n + 64) round up, as the reference renders do.
    @Test func eightPixelsBecomeSamplesRoundedHalfUpInLaneOrder() {
        for (first, second) in zip(Self.qGroups, Self.qGroups.reversed())
        where first.max() <= 32_703 && second.max() <= 32_703 {
            let bytes = FixedPoint.bytes(first, second)
            #expect(FixedPoint.bytes(first) == bytes.lowHalf && FixedPoint.bytes(second) == bytes.highHalf)
            for lane in 0..<16 {
                #expect(Int(bytes[lane]) == (Int(first[lane]) + 64) / 128, "lane \(lane) of \(first)")
                #expect(Int(bytes[16 + lane]) == (Int(second[lane]) + 64) / 128, "lane \(lane) of \(second)")
            }
        }
        #expect(FixedPoint.bytes(FixedPoint.Lanes(repeating: 9792))[0] == 77, "76.5 rounds up")
    }

    /// ⌊a·b/2¹⁵ + ½⌋ for every sign of a, every interpolation weight b of k = 8 and the largest b, which keeps a
    /// below 16 384 in size (the vibrancy filter's full coverage) and takes one unit off beyond.
    @Test func theScaledProductIsTheProductRoundedHalfUp() {
        let multipliers: [Int16] = [0, 1, 2048, 6144, 10_240, 14_336, 16_384, 18_432, 22_528, 26_624, 30_720, 32_767]
        for a in SampleConversionTests.groups(Self.signedValues) {
            for b in multipliers {
                let product = FixedPoint.scaledProduct(a, FixedPoint.Lanes(repeating: b))
                for lane in 0..<16 {
                    let exact = (Double(a[lane]) * Double(b) / 32_768 + 0.5).rounded(.down)
                    #expect(Double(product[lane]) == exact, "\(a[lane]) × \(b)")
                    if b == 32_767 && abs(Int(a[lane])) < 16_384 { #expect(product[lane] == a[lane]) }
                    if b == 32_767 && abs(Int(a[lane])) >= 16_384 {
                        #expect(abs(Int(product[lane])) == abs(Int(a[lane])) - 1)
                    }
                }
            }
        }
    }

    @Test func theClampAndTheAlphaShuffleFollowTheirDefinitions() {
        let lower = FixedPoint.Lanes(Array(repeating: [Int16(-100), 0, 0, 32_640], count: 4).flatMap { $0 }),
            upper = FixedPoint.Lanes(repeating: 32_640)
        for group in SampleConversionTests.groups(Self.signedValues) {
            #expect(
                FixedPoint.limited(group, from: lower, upTo: upper)
                    == group.clamped(lowerBound: lower, upperBound: upper))
            for lane in 0..<16 { #expect(FixedPoint.alphas(group)[lane] == group[lane / 4 * 4 + 3]) }
        }
    }

    /// The 8-bit composite (fixed point) against the 16-bit one (`Float`), over every style with and without vibrant
    /// content: every sample within one level, and only samples near a rounding boundary apart. A wrong weight, a
    /// lost rounding offset or a blend off by a lane would move far more, or by more.
    @Test(arguments: BlurStyle.builtIn)
    func eightBitOutputIsWithinOneLevelOfTheFloatComputation(_ style: BlurStyle) throws {
        let source = noiseImage(width: 203, height: 151)
        let content = noiseImage(width: 120, height: 90, seed: 42, alpha: true)
        let frame = PixelRect(x: 17, y: 9, width: 171, height: 131)
        for (scale, vibrancy) in [(1.0, false), (2, false), (2, true), (4, true)] {
            let effect = Effect(
                style: style, frame: frame, scale: scale,
                vibrancy: vibrancy ? Vibrancy(x: 30, y: 20, contentSize: content.size) : nil)
            let plan = try RenderPlan(effect: effect, imageSize: source.size)
            let picture = vibrancy ? content : nil
            let narrow = Renderer().render(source, plan: plan, vibrantContent: picture, as: UInt8.self)
            let wide = Renderer().render(source, plan: plan, vibrantContent: picture, as: UInt16.self)
            var apart = 0, worst = 0
            for (n, w) in zip(narrow.samples, wide.samples) {
                let difference = abs(Int(n) - Int((Double(w) / 257).rounded()))
                worst = max(worst, difference)
                if difference > 0 { apart += 1 }
            }
            let share = Double(apart) / Double(narrow.samples.count)
            let what = "\(style.name) k = \(plan.downscaleFactor)\(vibrancy ? " with content" : "")"
            #expect(worst <= 1, "\(what): a sample \(worst) levels apart")
            #expect(share < 0.01, "\(what): \(apart) samples apart (\(share * 100) %)")
        }
    }
}
