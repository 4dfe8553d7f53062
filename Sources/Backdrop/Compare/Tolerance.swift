/// How far an actual picture may differ from the expected one and still pass a golden-image test.
///
/// A comparison passes when every limit given holds: PSNR at least ``minimumPSNR`` and no channel more than
/// ``maximumDifference`` levels apart. With neither limit given the pictures must be identical.
public struct Tolerance: Sendable, Codable, Equatable {
    /// The least PSNR in dB, or nil for no PSNR limit.
    public var minimumPSNR: Double?
    /// The largest difference of any channel in levels, or nil for no such limit.
    public var maximumDifference: Int?

    /// A tolerance; by default, identical pictures only.
    public init(minimumPSNR: Double? = nil, maximumDifference: Int? = nil) {
        self.minimumPSNR = minimumPSNR
        self.maximumDifference = maximumDifference
    }

    /// Whether `difference` is within the tolerance.
    public func accepts(_ difference: ImageDifference) -> Bool {
        if minimumPSNR == nil && maximumDifference == nil { return difference.isIdentical }
        if let minimumPSNR, difference.psnr < minimumPSNR { return false }
        if let maximumDifference, difference.maxDifference > maximumDifference { return false }
        return true
    }

    /// "PSNR ≥ 40 dB, max diff ≤ 2" or "identical".
    public var description: String {
        var parts: [String] = []
        if let minimumPSNR { parts.append("PSNR ≥ \(minimumPSNR) dB") }
        if let maximumDifference { parts.append("max diff ≤ \(maximumDifference)") }
        return parts.isEmpty ? "identical" : parts.joined(separator: ", ")
    }
}
