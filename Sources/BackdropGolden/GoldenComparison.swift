import BackdropImageIO
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

    /// Compares `actual` with `expected` inside `region`. Throws `.badOption` when the region is not inside the
    /// pictures.
    public init(
        expected: RGBAImage<UInt8>, actual: RGBAImage<UInt8>, region: PixelRect? = nil,
        tolerance: Tolerance
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
        difference = ImageDifference(
            expected, actual, region: region, ignore: ignore, threshold: tolerance.pixelThreshold ?? 0)
        ssim =
            tolerance.minimumSSIM == nil
            ? nil : StructuralSimilarity.mean(expected, actual, region: region, ignore: ignore)
    }

    /// Whether the check passes.
    public var passed: Bool { difference.map { tolerance.accepts($0, ssim: ssim) } ?? false }

    /// One line: the figures and the tolerance, or the sizes that differ.
    public var summary: String {
        guard let difference else { return "sizes differ: expected \(expectedSize), actual \(actualSize)" }
        let psnr = difference.psnr.isFinite ? String(format: "%.2f dB", difference.psnr) : "∞ dB (identical)"
        let ssimText = ssim.map { String(format: ", SSIM %.4f", $0) } ?? ""
        return
            "PSNR \(psnr), max diff \(difference.maxDifference), \(difference.differingPixels) of \(difference.pixelCount) pixels differ\(ssimText) (tolerance: \(tolerance.description))"
    }

    /// The picture of the differences, or nil when the sizes differ.
    public func diffPicture(expected: RGBAImage<UInt8>, actual: RGBAImage<UInt8>) -> RGBAImage<UInt8>? {
        guard difference != nil else { return nil }
        return DiffPicture.make(expected: expected, actual: actual, region: region)
    }
}
