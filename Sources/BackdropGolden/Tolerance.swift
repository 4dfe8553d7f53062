import BackdropImageIO

/// How far an actual picture may differ from the expected one and still pass a golden-image test.
///
/// A comparison passes when every limit given holds; with none given no pixel may differ. The limits:
/// - ``minimumPSNR``: the picture as a whole changed by little (a blur shifted slightly);
/// - ``maximumDifference``: no channel of any pixel moved by more than so many levels;
/// - ``maximumDifferingPixels`` / ``maximumDifferingRatio``: only a few pixels differ. Which pixels differ is
///   decided by one of two rules: by default any channel moving by more than ``pixelThreshold`` levels; with
///   ``threshold`` or ``includeAA`` given, pixelmatch 7.2.0's perceptual rule (``PerceptualDifference``), the rule
///   behind Playwright's `maxDiffPixels` / `maxDiffPixelRatio` and jest-image-snapshot's default comparison.
///   The ratio is over the compared pixels (the region less the ignored rectangles), where Playwright divides by
///   the whole picture;
/// - ``minimumSSIM``: the structure is the same: mean SSIM on luma with an 11×11 Gaussian window, Wang et al. 2004
///   as scikit-image computes it (``StructuralSimilarity``; not jest-image-snapshot's default "bezkrovny" SSIM);
/// - ``ignore``: rectangles left out of every measure. Unlike Playwright's `mask` (which paints the area over in
///   both screenshots and still counts it), ignored pixels are not counted at all.
public struct Tolerance: Sendable, Codable, Equatable {
    /// The least PSNR in dB, or nil for no PSNR limit.
    public var minimumPSNR: Double?
    /// The largest difference of any channel in levels, or nil for no such limit.
    public var maximumDifference: Int?
    /// The most pixels that may differ (beyond ``pixelThreshold``).
    public var maximumDifferingPixels: Int?
    /// The largest share (0–1) of the compared pixels that may differ (beyond ``pixelThreshold``).
    public var maximumDifferingRatio: Double?
    /// Levels a channel may move before its pixel counts as differing (default 0), under the channel rule.
    public var pixelThreshold: Int?
    /// pixelmatch's `threshold` (0–1): when given, pixels are counted by pixelmatch's perceptual rule.
    public var threshold: Double?
    /// pixelmatch's `includeAA`: when given, pixels are counted by pixelmatch's rule (threshold 0.1 unless
    /// ``threshold`` is given), anti-aliased ones counted only when true.
    public var includeAA: Bool?
    /// The least mean SSIM on luma (−1…1; 1 for identical pictures).
    public var minimumSSIM: Double?
    /// Pixel rectangles `[x, y, w, h]` left out of every measure.
    public var ignore: [PixelRect]?

    /// A tolerance; by default, identical pictures only.
    public init(
        minimumPSNR: Double? = nil, maximumDifference: Int? = nil, maximumDifferingPixels: Int? = nil,
        maximumDifferingRatio: Double? = nil, pixelThreshold: Int? = nil, minimumSSIM: Double? = nil,
        ignore: [PixelRect]? = nil, threshold: Double? = nil, includeAA: Bool? = nil
    ) {
        self.threshold = threshold
        self.includeAA = includeAA
        self.minimumPSNR = minimumPSNR
        self.maximumDifference = maximumDifference
        self.maximumDifferingPixels = maximumDifferingPixels
        self.maximumDifferingRatio = maximumDifferingRatio
        self.pixelThreshold = pixelThreshold
        self.minimumSSIM = minimumSSIM
        self.ignore = ignore
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case minimumPSNR, maximumDifference, maximumDifferingPixels, maximumDifferingRatio, pixelThreshold, minimumSSIM,
            ignore, threshold, includeAA
    }

    /// Reads the limits; `ignore` is a list of `[x, y, w, h]` arrays.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        minimumPSNR = try container.decodeIfPresent(Double.self, forKey: .minimumPSNR)
        maximumDifference = try container.decodeIfPresent(Int.self, forKey: .maximumDifference)
        maximumDifferingPixels = try container.decodeIfPresent(Int.self, forKey: .maximumDifferingPixels)
        maximumDifferingRatio = try container.decodeIfPresent(Double.self, forKey: .maximumDifferingRatio)
        pixelThreshold = try container.decodeIfPresent(Int.self, forKey: .pixelThreshold)
        minimumSSIM = try container.decodeIfPresent(Double.self, forKey: .minimumSSIM)
        threshold = try container.decodeIfPresent(Double.self, forKey: .threshold)
        includeAA = try container.decodeIfPresent(Bool.self, forKey: .includeAA)
        ignore = try container.decodeIfPresent([[Int]].self, forKey: .ignore).map { rects in
            try rects.map { r in
                let rect = r.count == 4 ? PixelRect(x: r[0], y: r[1], width: r[2], height: r[3]) : nil
                guard let rect, !rect.isEmpty, rect.isWithinLimits else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .ignore, in: container,
                        debugDescription:
                            "ignore takes [x, y, w, h] rectangles (positive sizes, each value within ±\(PixelRect.coordinateLimit))"
                    )
                }
                return rect
            }
        }
    }

    /// Writes the limits given.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(minimumPSNR, forKey: .minimumPSNR)
        try container.encodeIfPresent(maximumDifference, forKey: .maximumDifference)
        try container.encodeIfPresent(maximumDifferingPixels, forKey: .maximumDifferingPixels)
        try container.encodeIfPresent(maximumDifferingRatio, forKey: .maximumDifferingRatio)
        try container.encodeIfPresent(pixelThreshold, forKey: .pixelThreshold)
        try container.encodeIfPresent(minimumSSIM, forKey: .minimumSSIM)
        try container.encodeIfPresent(ignore?.map { [$0.x, $0.y, $0.width, $0.height] }, forKey: .ignore)
        try container.encodeIfPresent(threshold, forKey: .threshold)
        try container.encodeIfPresent(includeAA, forKey: .includeAA)
    }

    /// Whether a limit other than the threshold and the ignored regions is given.
    var hasLimits: Bool {
        minimumPSNR != nil || maximumDifference != nil || maximumDifferingPixels != nil || maximumDifferingRatio != nil
            || minimumSSIM != nil
    }

    /// pixelmatch's rule when ``threshold`` or ``includeAA`` is given, else nil (the channel rule).
    public var perceptualRule: PerceptualRule? {
        guard threshold != nil || includeAA != nil else { return nil }
        return PerceptualRule(
            threshold: threshold ?? PerceptualRule.defaultThreshold, includeAntiAliased: includeAA ?? false)
    }

    /// A usage error naming a limit out of range, if any.
    public func validate() throws(BackdropError) {
        if let threshold, !(0...1).contains(threshold) {
            throw BackdropError(.badOption, "the threshold \(threshold) is outside 0…1 (pixelmatch's colour distance)")
        }
        if threshold != nil || includeAA != nil, pixelThreshold != nil {
            throw BackdropError(
                .badOption,
                "give either threshold/includeAA (pixelmatch's rule) or pixelThreshold (channel levels), not both")
        }
        if let pixelThreshold, !(0...255).contains(pixelThreshold) {
            throw BackdropError(.badOption, "the pixel threshold \(pixelThreshold) is outside 0…255")
        }
        if let maximumDifferingRatio, !(0...1).contains(maximumDifferingRatio) {
            throw BackdropError(.badOption, "the differing ratio \(maximumDifferingRatio) is outside 0…1")
        }
        if let maximumDifferingPixels, maximumDifferingPixels < 0 {
            throw BackdropError(.badOption, "the differing pixels \(maximumDifferingPixels) must be 0 or more")
        }
        if let minimumSSIM, !(-1...1).contains(minimumSSIM) {
            throw BackdropError(.badOption, "the SSIM \(minimumSSIM) is outside −1…1")
        }
        if let maximumDifference, maximumDifference < 0 {
            throw BackdropError(.badOption, "the largest difference \(maximumDifference) must be 0 or more")
        }
        if let minimumPSNR, minimumPSNR.isNaN { throw BackdropError(.badOption, "the PSNR limit must be a number") }
        if let wide = ignore?.first(where: { !$0.isWithinLimits }) {
            throw BackdropError(
                .badOption, "the ignored region \(wide) has a value beyond ±\(PixelRect.coordinateLimit)")
        }
    }

    /// Whether `difference` (and `ssim`, when ``minimumSSIM`` is given) is within the tolerance.
    public func accepts(_ difference: ImageDifference, ssim: Double? = nil) -> Bool {
        failedLimits(difference, ssim: ssim).isEmpty
    }

    /// The limits `difference` (and `ssim`) break, as ``description`` words them ("PSNR ≥ 40.0 dB"); empty when
    /// the tolerance accepts it. With no limit given, ``noLimitWords`` when a pixel differs.
    public func failedLimits(_ difference: ImageDifference, ssim: Double? = nil) -> [String] {
        if !hasLimits { return difference.differingPixels == 0 ? [] : [noLimitWords] }
        var failed: [String] = []
        if let minimumPSNR, difference.psnr < minimumPSNR { failed.append("PSNR ≥ \(minimumPSNR) dB") }
        if let maximumDifference, difference.maxDifference > maximumDifference {
            failed.append("max diff ≤ \(maximumDifference)")
        }
        if let maximumDifferingPixels, difference.differingPixels > maximumDifferingPixels {
            failed.append("differing pixels ≤ \(maximumDifferingPixels)")
        }
        if let maximumDifferingRatio, difference.differingRatio > maximumDifferingRatio {
            failed.append("differing ratio ≤ \(maximumDifferingRatio)")
        }
        if let minimumSSIM, (ssim ?? -1) < minimumSSIM { failed.append("SSIM ≥ \(minimumSSIM)") }
        return failed
    }

    /// What a tolerance without limits asks: "identical" when every channel counts, "no differing pixel" when a pixel
    /// threshold or pixelmatch's rule decides which pixels differ (two pictures 40 levels apart can then pass).
    public var noLimitWords: String {
        (pixelThreshold ?? 0) > 0 || perceptualRule != nil ? "no differing pixel" : "identical"
    }

    /// "PSNR ≥ 40 dB, max diff ≤ 2, …" or ``noLimitWords``.
    public var description: String {
        var parts: [String] = []
        if let minimumPSNR { parts.append("PSNR ≥ \(minimumPSNR) dB") }
        if let maximumDifference { parts.append("max diff ≤ \(maximumDifference)") }
        if let maximumDifferingPixels { parts.append("differing pixels ≤ \(maximumDifferingPixels)") }
        if let maximumDifferingRatio { parts.append("differing ratio ≤ \(maximumDifferingRatio)") }
        if let minimumSSIM { parts.append("SSIM ≥ \(minimumSSIM)") }
        if !hasLimits { parts.append(noLimitWords) }
        if let pixelThreshold, pixelThreshold > 0 { parts.append("pixel threshold \(pixelThreshold)") }
        if let rule = perceptualRule {
            parts.append(
                "pixelmatch threshold \(rule.threshold)\(rule.includeAntiAliased ? ", anti-aliasing included" : "")")
        }
        if let ignore, !ignore.isEmpty { parts.append("\(ignore.count) region\(ignore.count == 1 ? "" : "s") ignored") }
        return parts.joined(separator: ", ")
    }
}
