import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// The composite's four-pixel conversions (Clang's vector conversions, `backdrop_vector_lanes.h`) held lane by lane
/// to their definitions over every input class the pipeline produces: the same values on every CPU.
@Suite("Sample conversions")
struct SampleConversionTests {
    /// Values at 8-bit output scale: exact integers, exact ties (x.5, which round to even), the neighbours of each
    /// tie one float apart, the ends of the range and pseudo-random values in [0, 255.5).
    static let byteScaleValues: [Float] = {
        var values: [Float] = [0, 0.25, 0.5, 1, 1.5, 2.5, 126.5, 127.5, 254.5, 255, 255.25, 255.499]
        for i in stride(from: Float(0.5), through: 254.5, by: 1) { values += [i, i.nextDown, i.nextUp] }
        var generator = Xorshift64(seed: 0x9E37_79B9_7F4A_7C15)
        for _ in 0..<4096 { values.append(Float(generator.next() >> 40) / Float(1 << 24) * 255.5) }
        return values
    }()

    /// `values` in groups of sixteen lanes (the last group padded with zeros).
    static func groups<Scalar: SIMDScalar>(_ values: [Scalar]) -> [SIMD16<Scalar>] {
        stride(from: 0, to: values.count, by: 16).map { start in
            var group = SIMD16<Scalar>()
            for lane in 0..<16 where start + lane < values.count { group[lane] = values[start + lane] }
            return group
        }
    }

    /// For each group of sixteen `values`: `body` gives in each lane what `lane` gives for that lane's value.
    static func expectLaneByLane<Output: SIMD>(
        _ values: [Float], _ body: (SIMD16<Float>) -> Output,
        lane: (Float) -> Output.Scalar
    ) where Output.Scalar: Equatable {
        for group in groups(values) {
            let result = body(group)
            for index in 0..<16 { #expect(result[index] == lane(group[index]), "lane \(index) of \(group)") }
        }
    }

    @Test func bytesRoundToNearestTiesToEvenInLaneOrder() {
        Self.expectLaneByLane(
            Self.byteScaleValues, SampleConversion.bytesRoundedToNearest,
            lane: { UInt8($0.rounded(.toNearestOrEven)) })
    }

    @Test func wordsRoundToNearestTiesToEvenInLaneOrder() {
        // The domain is [0, 65535.5): byte-scale values times 257, and the ends and ties of the 16-bit range.
        let wordScale =
            Self.byteScaleValues.map { $0 * 257 }.filter { $0 < 65535.5 } + [65535, 65535.25, 32767.5, 32768.5]
        Self.expectLaneByLane(
            wordScale, SampleConversion.wordsRoundedToNearest,
            lane: { UInt16($0.rounded(.toNearestOrEven)) })
    }

    @Test func bytesBecomeExactFloatsInLaneOrder() {
        for start in stride(from: 0, to: 256, by: 16) {
            var bytes = SIMD16<UInt8>.zero
            for lane in 0..<16 { bytes[lane] = UInt8(start + lane) }
            let reversed = SIMD16<UInt8>((0..<16).map { 255 - bytes[$0] })
            for input in [bytes, reversed] {
                let floats = SampleConversion.floats(input)
                for lane in 0..<16 { #expect(floats[lane] == Float(input[lane])) }
            }
        }
    }

    /// Calls `check(pointer, offset)` for a read at every byte offset of a 300-byte pattern that leaves `width`
    /// bytes to read; `pattern[offset + lane]` is the byte each lane must come from.
    static func atEveryAlignment(reading width: Int, _ check: (UnsafeRawPointer, Int) -> Void) {
        pattern.withUnsafeBytes { buffer in
            for offset in 0..<(pattern.count - width) { check(buffer.baseAddress! + offset, offset) }
        }
    }

    static let pattern = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 167 &+ 11) }

    @Test func eightBytesReadFromAnyAlignmentBecomeExactFloats() {
        Self.atEveryAlignment(reading: 8) { pointer, offset in
            let floats = SampleConversion.floats(eightBytesAt: pointer)
            for lane in 0..<8 {
                #expect(floats[lane] == Float(Self.pattern[offset + lane]), "lane \(lane) at \(offset)")
            }
        }
    }

    @Test func sixteenBytesReadFromAnyAlignmentWidenToWordsInLaneOrder() {
        Self.atEveryAlignment(reading: 16) { pointer, offset in
            let words = SampleConversion.words(sixteenBytesAt: pointer)
            for lane in 0..<16 {
                #expect(words[lane] == UInt16(Self.pattern[offset + lane]), "lane \(lane) at \(offset)")
            }
        }
    }

    @Test func theClampLimitsEachLaneToItsBounds() {
        let lower = SIMD8<Float>(0, 0, 0, 255, 0, 0, 0, 255)
        let upper = SIMD8<Float>(255, 255, 255, 255, 255, 255, 255, 255)
        let inputs: [Float] = [-300, -1, -0.0, 0, 1e-30, 0.5, 127, 254.99, 255, 255.01, 1e6] + Self.byteScaleValues
        for start in stride(from: 0, to: inputs.count - 8, by: 3) {
            let values = SIMD8<Float>(inputs[start..<(start + 8)])
            let limited = SampleConversion.limited(values, from: lower, upTo: upper)
            for lane in 0..<8 {
                let expected = min(max(values[lane], lower[lane]), upper[lane])
                #expect(
                    limited[lane].bitPattern == (expected == 0 ? 0 : expected.bitPattern), "lane \(lane) of \(values)")
                #expect(limited[lane] == min(max(values[lane], lower[lane]), upper[lane]), "lane \(lane) of \(values)")
            }
        }
    }
}
