import BackdropImageIO
import BackdropRendering
import Foundation

/// One golden-image check: how an actual picture differs from the expected one, and whether that is within
/// the tolerance. Pictures of different sizes are a failure with no figures, not an error.
public struct GoldenComparison: Sendable {
    /// The expected picture's size.
    public let expectedSize: PixelSize
    /// The actual picture's size.
    public let actualSize: PixelSize
    /// The region compared (nil: the whole picture).
    public let region: PixelRect?
    /// The figures; nil when the sizes differ.
    public let difference: ImageDifference?
    /// The tolerance applied.
    public let tolerance: Tolerance
    /// The mean SSIM on luma, when the tolerance asks for it (``Tolerance/minimumSSIM``).
    public let ssim: Double?

    /// Compares `actual` with `expected` inside `region`. Throws `.badOption` when the region or an ignored
    /// rectangle is not inside the pictures. Pictures with the same pixels are found identical at once: the figures
    /// of an identical pair, no measure run.
    public init(
        expected: RGBAImage<UInt8>, actual: RGBAImage<UInt8>, region: PixelRect? = nil,
        tolerance: Tolerance, parallelism: Parallelism = Parallelism()
    ) throws(BackdropError) {
        expectedSize = expected.size
        actualSize = actual.size
        self.region = region
        self.tolerance = tolerance
        guard expected.size == actual.size else {
            difference = nil
            ssim = nil
            return
        }
        try tolerance.validate()
        if let region, !region.fits(in: expected.size) {
            throw BackdropError(
                .badOption, "the region \(region) (x,y,w,h) is not inside the \(expected.size) pictures")
        }
        let ignore = tolerance.ignore ?? []
        if let outside = ignore.first(where: { !$0.fits(in: expected.size) }) {
            throw BackdropError(
                .badOption, "the ignored region \(outside) (x,y,w,h) is not inside the \(expected.size) pictures")
        }
        let threshold = tolerance.pixelThreshold ?? 0, rule = tolerance.perceptualRule
        if Self.samePixels(expected, actual) {
            difference = ImageDifference(
                identicalOver: region ?? PixelRect(covering: expected.size), ignore: ignore, threshold: threshold,
                rule: rule)
            ssim = tolerance.minimumSSIM == nil ? nil : 1
            return
        }
        difference = ImageDifference(
            expected, actual, region: region, ignore: ignore, threshold: threshold, rule: rule,
            parallelism: parallelism)
        ssim =
            tolerance.minimumSSIM == nil
            ? nil
            : StructuralSimilarity.mean(expected, actual, region: region, ignore: ignore, parallelism: parallelism)
    }

    /// Whether two pictures of the same size hold the same bytes (compared as memory, stopping at the first
    /// difference).
    static func samePixels(_ a: RGBAImage<UInt8>, _ b: RGBAImage<UInt8>) -> Bool {
        a.samples.withUnsafeBytes { p in
            b.samples.withUnsafeBytes { q in
                p.count == q.count && (p.count == 0 || memcmp(p.baseAddress!, q.baseAddress!, p.count) == 0)
            }
        }
    }

    /// Whether the check passes.
    public var passed: Bool { difference.map { tolerance.accepts($0, ssim: ssim) } ?? false }

    /// One line: the figures and the tolerance, or the sizes that differ.
    public var summary: String {
        guard let difference else { return "sizes differ: expected \(expectedSize), actual \(actualSize)" }
        let psnr = difference.psnr.isFinite ? String(format: "%.2f dB", difference.psnr) : "∞ dB (identical)"
        let aaText =
            difference.rule != nil && difference.antiAliasedPixels > 0
            ? " (\(difference.antiAliasedPixels) anti-aliased \(difference.rule!.includeAntiAliased ? "counted" : "left out"))"
            : ""
        let ssimText = ssim.map { String(format: ", SSIM %.4f", $0) } ?? ""
        return
            "PSNR \(psnr), max diff \(difference.maxDifference), \(difference.differingPixels) of \(difference.pixelCount) pixels differ\(aaText)\(ssimText) (tolerance: \(tolerance.description))"
    }

    /// The picture of the differences, or nil when the sizes differ: pixelmatch's diff picture
    /// (``PerceptualDifference/diffPicture(expected:actual:region:ignore:rule:parallelism:)``) under pixelmatch's
    /// rule, else ``DiffPicture``.
    public func diffPicture(expected: RGBAImage<UInt8>, actual: RGBAImage<UInt8>) -> RGBAImage<UInt8>? {
        guard difference != nil else { return nil }
        if let rule = tolerance.perceptualRule {
            return PerceptualDifference.diffPicture(
                expected: expected, actual: actual, region: region, ignore: tolerance.ignore ?? [], rule: rule)
        }
        return DiffPicture.make(expected: expected, actual: actual, region: region)
    }

    /// The limits the comparison breaks ("sizes differ" when the sizes differ); empty when it passes.
    public var failedLimits: [String] {
        guard let difference else { return ["sizes differ"] }
        return tolerance.failedLimits(difference, ssim: ssim)
    }
}
