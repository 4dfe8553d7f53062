import Foundation

/// How two pictures of the same size differ, over a region: the figures a golden-image test reports.
///
/// PSNR is over the four 8-bit channels of the region's pixels, peak 255, as `docs/effects.md`
/// defines it: the colour channels of a pixel that is transparent (alpha 0) in both pictures are ignored (they
/// carry no colour), its alpha still counts.
public struct ImageDifference: Sendable, Equatable {
    /// Peak signal-to-noise ratio in dB; `.infinity` when the region is identical.
    public let psnr: Double
    /// The largest difference of any channel, in levels.
    public let maxDifference: Int
    /// Pixels with a channel more than ``threshold`` levels apart (colour of pixels transparent in both not counted).
    public let differingPixels: Int
    /// Pixels compared (the region less the ignored rectangles).
    public let pixelCount: Int
    /// Levels a channel may move before its pixel counts as differing.
    public let threshold: Int

    /// Compares `a` and `b` inside `region` (default: everything), leaving out the pixels of `ignore`; a pixel
    /// differs when a channel moves by more than `threshold` levels. PSNR and the largest difference count every
    /// compared pixel. The pictures must have the same size.
    public init(
        _ a: RGBAImage<UInt8>, _ b: RGBAImage<UInt8>, region: PixelRect? = nil, ignore: [PixelRect] = [],
        threshold: Int = 0
    ) {
        precondition(a.size == b.size, "ImageDifference: \(a.size) against \(b.size)")
        let region = region ?? PixelRect(covering: a.size)
        var squared = 0.0, largest = 0, differing = 0, compared = 0
        for y in region.y..<region.maxY {
            let ignoredRow = ignore.filter { $0.y <= y && y < $0.maxY }
            var index = (y * a.width + region.x) * 4
            for x in region.x..<region.maxX {
                defer { index += 4 }
                if !ignoredRow.isEmpty, ignoredRow.contains(where: { $0.x <= x && x < $0.maxX }) { continue }
                compared += 1
                let bothTransparent = a.samples[index + 3] == 0 && b.samples[index + 3] == 0
                var pixelLargest = 0
                for channel in (bothTransparent ? 3 : 0)..<4 {
                    let d = abs(Int(a.samples[index + channel]) - Int(b.samples[index + channel]))
                    squared += Double(d * d)
                    pixelLargest = max(pixelLargest, d)
                }
                largest = max(largest, pixelLargest)
                if pixelLargest > threshold { differing += 1 }
            }
        }
        let samples = Double(compared * 4)
        let meanSquared = samples > 0 ? squared / samples : 0
        psnr = meanSquared == 0 ? .infinity : 10 * log10(255 * 255 / meanSquared)
        maxDifference = largest
        differingPixels = differing
        pixelCount = compared
        self.threshold = threshold
    }

    /// The share of compared pixels that differ (0 when none are compared).
    public var differingRatio: Double { pixelCount > 0 ? Double(differingPixels) / Double(pixelCount) : 0 }

    /// True when no pixel of the region differs.
    public var isIdentical: Bool { maxDifference == 0 }
}
