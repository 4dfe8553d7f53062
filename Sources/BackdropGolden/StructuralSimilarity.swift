import BackdropImageIO
import Foundation

/// The mean structural similarity (SSIM) of two pictures, on luma, as Wang et al. (2004) define it and
/// scikit-image's `structural_similarity` computes it with `gaussian_weights=True, sigma=1.5,
/// use_sample_covariance=False, data_range=255`:
/// - luma Y = 0.299 R + 0.587 G + 0.114 B of the straight 8-bit colour (alpha is not used);
/// - local means, variances and covariance under an 11×11 Gaussian window of σ = 1.5 (radius ⌊3.5σ + ½⌋ = 5),
///   edges mirrored as `scipy.ndimage` mirrors them (`reflect`: the edge sample repeats);
/// - SSIM = (2μₐμᵦ + C₁)(2σₐᵦ + C₂) / ((μₐ² + μᵦ² + C₁)(σₐ² + σᵦ² + C₂)), C₁ = (0.01·255)², C₂ = (0.03·255)²;
/// - the mean over the region less a 5-pixel border (the window's reach), and less the ignored rectangles.
///
/// 1 for identical pictures; it falls as structure differs, less for a uniform shift of brightness than PSNR does.
public enum StructuralSimilarity {
    /// σ of the Gaussian window.
    public static let sigma = 1.5
    /// The window's radius: ⌊3.5σ + ½⌋.
    public static let radius = Int(3.5 * sigma + 0.5)

    /// The mean SSIM of `a` and `b` inside `region` (default: everything), leaving out `ignore`. The pictures must
    /// have the same size.
    public static func mean(
        _ a: RGBAImage<UInt8>, _ b: RGBAImage<UInt8>, region: PixelRect? = nil,
        ignore: [PixelRect] = []
    ) -> Double {
        precondition(a.size == b.size, "StructuralSimilarity: \(a.size) against \(b.size)")
        let region = region ?? PixelRect(covering: a.size)
        let width = region.width, height = region.height
        guard width > 0, height > 0 else { return 1 }
        func luma(_ image: RGBAImage<UInt8>) -> [Double] {
            var out = [Double](repeating: 0, count: width * height)
            for y in 0..<height {
                var index = ((region.y + y) * image.width + region.x) * 4
                for x in 0..<width {
                    out[y * width + x] =
                        0.299 * Double(image.samples[index]) + 0.587 * Double(image.samples[index + 1])
                        + 0.114 * Double(image.samples[index + 2])
                    index += 4
                }
            }
            return out
        }
        let x = luma(a), y = luma(b)
        let xx = zip(x, x).map(*), yy = zip(y, y).map(*), xy = zip(x, y).map(*)
        let weights = gaussianWeights()
        let (mx, my) = (blur(x, width, height, weights), blur(y, width, height, weights))
        let (mxx, myy, mxy) = (
            blur(xx, width, height, weights), blur(yy, width, height, weights),
            blur(xy, width, height, weights)
        )
        let c1 = (0.01 * 255) * (0.01 * 255), c2 = (0.03 * 255) * (0.03 * 255)
        // The mean over the interior, as scikit-image crops its map; the whole map when the region is too small.
        let pad = width > 2 * radius && height > 2 * radius ? radius : 0
        var sum = 0.0, count = 0
        for row in pad..<(height - pad) {
            for column in pad..<(width - pad) {
                let px = region.x + column, py = region.y + row
                if ignore.contains(where: { $0.x <= px && px < $0.maxX && $0.y <= py && py < $0.maxY }) { continue }
                let i = row * width + column
                let ux = mx[i], uy = my[i]
                let vx = mxx[i] - ux * ux, vy = myy[i] - uy * uy, cxy = mxy[i] - ux * uy
                sum += ((2 * ux * uy + c1) * (2 * cxy + c2)) / ((ux * ux + uy * uy + c1) * (vx + vy + c2))
                count += 1
            }
        }
        return count > 0 ? sum / Double(count) : 1
    }

    /// The normalised Gaussian of σ = ``sigma`` over −radius … radius.
    static func gaussianWeights() -> [Double] {
        let raw = (-radius...radius).map { exp(-0.5 * Double($0 * $0) / (sigma * sigma)) }
        let total = raw.reduce(0, +)
        return raw.map { $0 / total }
    }

    /// `values` (width × height) filtered by `weights` along rows, then columns, edges mirrored (d c b a | a b c d).
    static func blur(_ values: [Double], _ width: Int, _ height: Int, _ weights: [Double]) -> [Double] {
        func mirrored(_ i: Int, _ n: Int) -> Int {
            var i = i
            while i < 0 || i >= n { i = i < 0 ? -i - 1 : 2 * n - i - 1 }
            return i
        }
        var rows = [Double](repeating: 0, count: values.count)
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0.0
                for k in -radius...radius { sum += weights[k + radius] * values[y * width + mirrored(x + k, width)] }
                rows[y * width + x] = sum
            }
        }
        var out = [Double](repeating: 0, count: values.count)
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0.0
                for k in -radius...radius { sum += weights[k + radius] * rows[mirrored(y + k, height) * width + x] }
                out[y * width + x] = sum
            }
        }
        return out
    }
}
