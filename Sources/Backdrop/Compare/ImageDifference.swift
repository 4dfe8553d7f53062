import Foundation

/// How two pictures of the same size differ, over a region: the figures a golden-image test reports.
///
/// PSNR is over the four 8-bit channels of the region's pixels, peak 255, as `../shared/spec/effects.md`
/// defines it: the colour channels of a pixel that is transparent (alpha 0) in both pictures are ignored (they
/// carry no colour), its alpha still counts.
public struct ImageDifference: Sendable, Equatable {
    /// Peak signal-to-noise ratio in dB; `.infinity` when the region is identical.
    public let psnr: Double
    /// The largest difference of any channel, in levels.
    public let maxDifference: Int
    /// Pixels with at least one differing channel (colour of pixels transparent in both not counted).
    public let differingPixels: Int
    /// Pixels compared.
    public let pixelCount: Int

    /// Compares `a` and `b` inside `region` (default: everything). The pictures must have the same size.
    public init(_ a: RGBAImage<UInt8>, _ b: RGBAImage<UInt8>, region: PixelRect? = nil) {
        precondition(a.size == b.size, "ImageDifference: \(a.size) against \(b.size)")
        let region = region ?? PixelRect(covering: a.size)
        var squared = 0.0, largest = 0, differing = 0
        for y in region.y..<region.maxY {
            var index = (y * a.width + region.x) * 4
            for _ in 0..<region.width {
                let bothTransparent = a.samples[index + 3] == 0 && b.samples[index + 3] == 0
                var differs = false
                for channel in (bothTransparent ? 3 : 0)..<4 {
                    let d = abs(Int(a.samples[index + channel]) - Int(b.samples[index + channel]))
                    squared += Double(d * d)
                    largest = max(largest, d)
                    differs = differs || d != 0
                }
                if differs { differing += 1 }
                index += 4
            }
        }
        let samples = Double(region.width * region.height * 4)
        let meanSquared = samples > 0 ? squared / samples : 0
        psnr = meanSquared == 0 ? .infinity : 10 * log10(255 * 255 / meanSquared)
        maxDifference = largest
        differingPixels = differing
        pixelCount = region.width * region.height
    }

    /// True when no pixel of the region differs.
    public var isIdentical: Bool { maxDifference == 0 }
}
