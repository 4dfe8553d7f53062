import CVectorKernels

/// The tint step of `UIImage+ImageEffects`: the style's colour filled source-over a premultiplied 8-bit pixel.
///
/// Contract: each lane's value v (0…255, premultiplied) becomes min(255, ⌊T + v · keep + ½⌋), with T the lane's tint
/// (colour clamped to 0…1, alpha for the alpha lane) × tint alpha × 255 and keep = 1 − tint alpha, evaluated in
/// doubles as written (a product, then two sums; the values are positive, so the conversion's truncation is the
/// floor). `table` holds those 256 values a lane, which the portable loop reads.
///
/// The vector kernel computes the same values without a table (a gather of eight lanes costs what the rest of the
/// composite does): `lines` are, per lane, a slope and an offset with min(255, (v · slope + offset) >> 22) equal to
/// the table's entry for every v, each checked against all 256 entries here. A line exists wherever the table's
/// steps fall as a straight line's do, which the double rounding of entries that land on an integer could in
/// principle prevent; `lines` is nil then and the portable loop draws the composite. It was found for every style
/// and for every tint the tests try.
public struct TintFill8: Sendable {
    /// 256 entries a lane, lanes red, green, blue, alpha.
    public let table: [UInt32]
    /// Slope and offset a lane, in the table's lane order; nil where a lane has no line.
    public let lines: [UInt32]?

    /// The lines' fixed point: v · slope + offset stays below 2³¹ (slope ≤ 2²², offset below 256 · 2²²).
    public static let fractionBits = Int(BD_TINT_FRACTION_BITS)

    public init(style: ImageEffectsStyle) {
        let alpha = min(max(style.tintAlpha, 0), 1), keep = 1 - alpha
        let lanes = [style.tint.x, style.tint.y, style.tint.z, 1].map { min(max($0, 0), 1) * alpha * 255 }
        let tables: [[UInt32]] = lanes.map { lane in
            (0..<256).map { value in min(255, UInt32(lane + Double(value) * keep + 0.5)) }
        }
        table = tables.flatMap { $0 }
        let found = tables.map { Self.line(through: $0, keep: keep) }
        lines = found.contains { $0 == nil } ? nil : found.flatMap { [$0!.slope, $0!.offset] }
    }

    /// A slope near keep · 2²² (the nearest first, then ±1, … ±32) and the least offset whose line gives every
    /// entry of `table`, nil where none of the slopes tried has one. For each v the offsets that give entry t form
    /// the interval [t · 2²² − v · slope, (t + 1) · 2²² − 1 − v · slope] (from t · 2²² − v · slope up, for the
    /// clamped 255): the line's offsets are their intersection.
    public static func line(through table: [UInt32], keep: Double) -> (slope: UInt32, offset: UInt32)? {
        let one = Int64(1) << fractionBits, nearest = Int64((keep * Double(one)).rounded())
        let slopes = ([0] + (1...32).flatMap { [$0, -$0] }).map { nearest + $0 }
        for slope in slopes where slope >= 0 && slope <= one {
            var lowest = Int64.min, highest = Int64.max
            for (v, entry) in table.enumerated() {
                let t = Int64(entry), base = Int64(v) * slope
                lowest = max(lowest, t * one - base)
                if t < 255 { highest = min(highest, (t + 1) * one - 1 - base) }
            }
            if lowest <= highest && lowest >= 0 && lowest < 256 * one { return (UInt32(slope), UInt32(lowest)) }
        }
        return nil
    }
}
