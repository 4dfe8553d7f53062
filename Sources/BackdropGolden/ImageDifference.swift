import BackdropImageIO
import BackdropRendering
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
    /// Pixels that differ: under ``rule`` when given, else those with a channel more than ``threshold`` levels
    /// apart (colour of pixels transparent in both not counted).
    public let differingPixels: Int
    /// Pixels compared (the region less the ignored rectangles).
    public let pixelCount: Int
    /// Levels a channel may move before its pixel counts as differing.
    public let threshold: Int

    /// Pixels over the perceptual threshold left out as anti-aliasing (0 under the channel rule).
    public let antiAliasedPixels: Int
    /// The perceptual rule that counted ``differingPixels``, or nil for the channel rule (``threshold``).
    public let rule: PerceptualRule?

    /// Compares `a` and `b` inside `region` (default: everything), leaving out the pixels of `ignore`. A pixel
    /// differs when a channel moves by more than `threshold` levels, or, with `rule`, when it differs under
    /// pixelmatch's rule (``PerceptualDifference``). PSNR and the largest difference count every compared pixel.
    /// The pictures must have the same size. Rows are worked on in bands (``Parallelism``); every figure is the same
    /// for any thread count (the squared differences are integers, summed exactly).
    public init(
        _ a: RGBAImage<UInt8>, _ b: RGBAImage<UInt8>, region: PixelRect? = nil, ignore: [PixelRect] = [],
        threshold: Int = 0, rule: PerceptualRule? = nil, parallelism: Parallelism = Parallelism()
    ) {
        precondition(a.size == b.size, "ImageDifference: \(a.size) against \(b.size)")
        let region = region ?? PixelRect(covering: a.size)
        let rows = max(0, region.height)
        // Per row: squared sum, largest difference, differing pixels, compared pixels.
        var rowFigures = [(Double, Int, Int, Int)](repeating: (0, 0, 0, 0), count: rows)
        if !a.samples.isEmpty {
            a.samples.withUnsafeBufferPointer { aBuffer in
                b.samples.withUnsafeBufferPointer { bBuffer in
                    rowFigures.withUnsafeMutableBufferPointer { figures in
                        let first = SendableConstPointer(aBuffer.baseAddress!),
                            second = SendableConstPointer(
                                bBuffer.baseAddress!)
                        let out = SendablePointer(figures.baseAddress!)
                        let width = a.width
                        parallelism.forEachBand(of: rows, minimumBandSize: 16) { band in
                            for row in band {
                                let y = region.y + row
                                let ignoredRow = ignore.filter { $0.y <= y && y < $0.maxY }
                                var squared = 0, largest = 0, differing = 0, compared = 0
                                var index = (y * width + region.x) * 4
                                let p = first.pointer, q = second.pointer
                                for x in region.x..<region.maxX {
                                    defer { index += 4 }
                                    if !ignoredRow.isEmpty, ignoredRow.contains(where: { $0.x <= x && x < $0.maxX }) {
                                        continue
                                    }
                                    compared += 1
                                    let bothTransparent = p[index + 3] == 0 && q[index + 3] == 0
                                    var pixelLargest = 0
                                    for channel in (bothTransparent ? 3 : 0)..<4 {
                                        let d = abs(Int(p[index + channel]) - Int(q[index + channel]))
                                        squared += d * d
                                        pixelLargest = max(pixelLargest, d)
                                    }
                                    largest = max(largest, pixelLargest)
                                    if pixelLargest > threshold { differing += 1 }
                                }
                                out.pointer[row] = (Double(squared), largest, differing, compared)
                            }
                        }
                    }
                }
            }
        }
        let squared = rowFigures.reduce(0.0) { $0 + $1.0 }
        let compared = rowFigures.reduce(0) { $0 + $1.3 }
        let samples = Double(compared * 4)
        let meanSquared = samples > 0 ? squared / samples : 0
        psnr = meanSquared == 0 ? .infinity : 10 * log10(255 * 255 / meanSquared)
        maxDifference = rowFigures.reduce(0) { max($0, $1.1) }
        pixelCount = compared
        self.threshold = threshold
        self.rule = rule
        if let rule {
            let count = PerceptualDifference.count(
                a, b, region: region, ignore: ignore, rule: rule, parallelism: parallelism)
            differingPixels = count.differing
            antiAliasedPixels = count.antiAliased
        } else {
            differingPixels = rowFigures.reduce(0) { $0 + $1.2 }
            antiAliasedPixels = 0
        }
    }

    /// The figures of two identical pictures over `region` less `ignore` (none of them measured).
    init(identicalOver region: PixelRect, ignore: [PixelRect], threshold: Int, rule: PerceptualRule?) {
        var compared = 0
        for y in region.y..<region.maxY {
            let ignored = ignore.compactMap { rect -> Range<Int>? in
                guard rect.y <= y && y < rect.maxY else { return nil }
                let lower = max(rect.x, region.x), upper = min(rect.maxX, region.maxX)
                return lower < upper ? lower..<upper : nil
            }.sorted { $0.lowerBound < $1.lowerBound }
            var covered = 0, reach = region.x
            for range in ignored where range.upperBound > reach {
                covered += range.upperBound - max(range.lowerBound, reach)
                reach = range.upperBound
            }
            compared += region.width - covered
        }
        psnr = .infinity
        maxDifference = 0
        differingPixels = 0
        antiAliasedPixels = 0
        pixelCount = compared
        self.threshold = threshold
        self.rule = rule
    }

    /// The share of compared pixels that differ (0 when none are compared).
    public var differingRatio: Double { pixelCount > 0 ? Double(differingPixels) / Double(pixelCount) : 0 }

    /// True when no pixel of the region differs.
    public var isIdentical: Bool { maxDifference == 0 }
}
