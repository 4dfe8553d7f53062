import BackdropImageIO
import BackdropRendering
import Foundation

/// The mean structural similarity (SSIM) of two pictures, on luma, as Wang et al. (2004) define it and
/// scikit-image's `structural_similarity` computes it with `gaussian_weights=True, sigma=1.5,
/// use_sample_covariance=False, data_range=255`:
/// - luma Y = 0.299 R + 0.587 G + 0.114 B of the straight 8-bit colour; a fully transparent pixel (alpha 0) has
///   luma 0, whatever colour it stores, since it shows none;
/// - inside the ignored rectangles both pictures take the expected picture's luma (the first picture's): the
///   ignored pixels are left out of the mean and, being the same in both, change none of their neighbours'
///   windows either;
/// - local means, variances and covariance under an 11×11 Gaussian window of σ = 1.5 (radius ⌊3.5σ + ½⌋ = 5),
///   edges mirrored as `scipy.ndimage` mirrors them (`reflect`: the edge sample repeats);
/// - SSIM = (2μₐμᵦ + C₁)(2σₐᵦ + C₂) / ((μₐ² + μᵦ² + C₁)(σₐ² + σᵦ² + C₂)), C₁ = (0.01·255)², C₂ = (0.03·255)²;
/// - the mean over the region less a 5-pixel border (the window's reach), and less the ignored rectangles.
///
/// On opaque pictures with nothing ignored this is scikit-image's figure (within 10⁻⁶, `StructuralSimilarityTests`).
/// 1 for identical pictures; it falls as structure differs, less for a uniform shift of brightness than PSNR does.
///
/// The filter is separable and streamed: bands of rows on several threads (``Parallelism``), each keeping only the
/// 11 horizontally filtered rows its window needs, so memory is a few rows per thread, not picture-sized planes.
/// The symmetric window adds the two samples of each weight before multiplying (scipy multiplies each), which moves
/// the mean by far less than 10⁻⁶. Every sum runs in the same order whatever the bands, and the rows' sums are added
/// in row order: the result is the same for any thread count.
public enum StructuralSimilarity {
    /// σ of the Gaussian window.
    public static let sigma = 1.5
    /// The window's radius: ⌊3.5σ + ½⌋.
    public static let radius = Int(3.5 * sigma + 0.5)

    /// The mean SSIM of `a` and `b` inside `region` (default: everything), leaving out `ignore`. The pictures must
    /// have the same size.
    public static func mean(
        _ a: RGBAImage<UInt8>, _ b: RGBAImage<UInt8>, region: PixelRect? = nil,
        ignore: [PixelRect] = [], parallelism: Parallelism = Parallelism()
    ) -> Double {
        precondition(a.size == b.size, "StructuralSimilarity: \(a.size) against \(b.size)")
        let region = region ?? PixelRect(covering: a.size)
        let width = region.width, height = region.height
        guard width > 0, height > 0 else { return 1 }
        // The mean over the interior, as scikit-image crops its map; the whole map when the region is too small.
        let pad = width > 2 * radius && height > 2 * radius ? radius : 0
        let outputRows = height - 2 * pad
        var rowSums = [Double](repeating: 0, count: outputRows)
        var rowCounts = [Int](repeating: 0, count: outputRows)
        a.samples.withUnsafeBufferPointer { aSamples in
            b.samples.withUnsafeBufferPointer { bSamples in
                rowSums.withUnsafeMutableBufferPointer { sums in
                    rowCounts.withUnsafeMutableBufferPointer { counts in
                        let source = SSIMSource(
                            a: SendableConstPointer(aSamples.baseAddress!),
                            b: SendableConstPointer(bSamples.baseAddress!),
                            stride: a.width, region: region, ignore: ignore)
                        let sumsOut = SendablePointer(sums.baseAddress!),
                            countsOut = SendablePointer(counts.baseAddress!)
                        parallelism.forEachBand(of: outputRows, minimumBandSize: 4 * radius) { band in
                            let scratch = SSIMBand(width: width)
                            defer { scratch.release() }
                            for row in band {
                                let (sum, count) = scratch.meanRow(
                                    pad + row, pad: pad, source: source, first: row == band.lowerBound)
                                sumsOut.pointer[row] = sum
                                countsOut.pointer[row] = count
                            }
                        }
                    }
                }
            }
        }
        let count = rowCounts.reduce(0, +)
        return count > 0 ? rowSums.reduce(0, +) / Double(count) : 1
    }

    /// The normalised Gaussian of σ = ``sigma`` over −radius … radius.
    static func gaussianWeights() -> [Double] {
        let raw = (-radius...radius).map { exp(-0.5 * Double($0 * $0) / (sigma * sigma)) }
        let total = raw.reduce(0, +)
        return raw.map { $0 / total }
    }

    /// `i` mirrored into 0..<n as `scipy.ndimage`'s `reflect` mode does (d c b a | a b c d | d c b a).
    static func mirrored(_ i: Int, _ n: Int) -> Int {
        var i = i
        while i < 0 || i >= n { i = i < 0 ? -i - 1 : 2 * n - i - 1 }
        return i
    }
}

/// The two pictures' luma as SSIM reads it, row by row of the region.
private struct SSIMSource: Sendable {
    let a: SendableConstPointer<UInt8>
    let b: SendableConstPointer<UInt8>
    /// Pixels per row of the pictures.
    let stride: Int
    let region: PixelRect
    let ignore: [PixelRect]

    /// The region-relative column ranges of region row `row` that are ignored.
    func ignoredColumns(_ row: Int) -> [Range<Int>] {
        let y = region.y + row
        return ignore.compactMap { rect in
            guard rect.y <= y && y < rect.maxY else { return nil }
            let lower = max(rect.x, region.x) - region.x, upper = min(rect.maxX, region.maxX) - region.x
            return lower < upper ? lower..<upper : nil
        }
    }

    /// Fills `first` and `second` (width + 2·radius each) with region row `row`'s luma, mirrored by `radius` at
    /// both ends (`columns` maps padded positions to region columns).
    func luma(
        _ row: Int, columns: UnsafePointer<Int>, count: Int, first: UnsafeMutablePointer<Double>,
        second: UnsafeMutablePointer<Double>, rowFirst: UnsafeMutablePointer<Double>,
        rowSecond: UnsafeMutablePointer<Double>
    ) {
        let width = region.width
        let base = ((region.y + row) * stride + region.x) * 4
        @inline(__always) func value(_ p: UnsafePointer<UInt8>) -> Double {
            p[3] == 0 ? 0 : 0.299 * Double(p[0]) + 0.587 * Double(p[1]) + 0.114 * Double(p[2])
        }
        for x in 0..<width {
            rowFirst[x] = value(a.pointer + base + 4 * x)
            rowSecond[x] = value(b.pointer + base + 4 * x)
        }
        for range in ignoredColumns(row) {
            for x in range { rowSecond[x] = rowFirst[x] }
        }
        for i in 0..<count {
            first[i] = rowFirst[columns[i]]
            second[i] = rowSecond[columns[i]]
        }
    }
}

/// One band's scratch rows: the five padded input rows of a source row (a, b, a², b², ab), and the ring of the last
/// 11 horizontally filtered rows of the five statistics.
///
/// The window is symmetric, so each filter adds the two samples a tap's weight meets before multiplying: the centre
/// tap w₅·s₅, then w_k·(s_k + s₁₀₋ₖ) for k = 0…4, in that order. Every output takes the same operations in the same
/// order wherever its row falls, so bands do not change a bit of the result.
private final class SSIMBand {
    let width: Int
    static let diameter = 2 * StructuralSimilarity.radius + 1
    let weights = StructuralSimilarity.gaussianWeights()
    /// Padded column → region column.
    let columns: UnsafeMutablePointer<Int>
    /// Five padded rows (width + 2·radius each): a, b, a², b², ab.
    let inputs: UnsafeMutablePointer<Double>
    let rowFirst: UnsafeMutablePointer<Double>, rowSecond: UnsafeMutablePointer<Double>
    /// diameter slots × 5 statistics × width.
    let ring: UnsafeMutablePointer<Double>
    /// The vertically filtered statistics of the current row: 5 × width.
    let filtered: UnsafeMutablePointer<Double>
    /// Which columns of the current row count in the mean.
    let keep: UnsafeMutablePointer<Bool>

    init(width: Int) {
        self.width = width
        let radius = StructuralSimilarity.radius
        let padded = width + 2 * radius
        columns = .allocate(capacity: padded)
        for i in 0..<padded { columns[i] = StructuralSimilarity.mirrored(i - radius, width) }
        inputs = .allocate(capacity: 5 * padded)
        rowFirst = .allocate(capacity: width)
        rowSecond = .allocate(capacity: width)
        ring = .allocate(capacity: Self.diameter * 5 * width)
        filtered = .allocate(capacity: 5 * width)
        keep = .allocate(capacity: width)
    }

    func release() {
        columns.deallocate()
        inputs.deallocate()
        rowFirst.deallocate()
        rowSecond.deallocate()
        ring.deallocate()
        filtered.deallocate()
        keep.deallocate()
    }

    /// The ring slot holding (unmirrored) source row `row`.
    func slot(_ row: Int) -> UnsafeMutablePointer<Double> {
        ring + (((row % Self.diameter) + Self.diameter) % Self.diameter) * 5 * width
    }

    /// Filters source row `row` (mirrored into the region) along x into its ring slot.
    func filterRow(_ row: Int, source: SSIMSource) {
        let radius = StructuralSimilarity.radius
        let padded = width + 2 * radius
        let a = inputs, b = inputs + padded, aa = inputs + 2 * padded, bb = inputs + 3 * padded
        let ab = inputs + 4 * padded
        source.luma(
            StructuralSimilarity.mirrored(row, source.region.height), columns: columns, count: padded,
            first: a, second: b, rowFirst: rowFirst, rowSecond: rowSecond)
        for i in 0..<padded {
            let u = a[i], v = b[i]
            aa[i] = u * u
            bb[i] = v * v
            ab[i] = u * v
        }
        let out = slot(row)
        for statistic in 0..<5 {
            Self.filter(
                inputs + statistic * padded, into: out + statistic * width, count: width, weights: weights)
        }
    }

    /// out[x] = w₅·in[x + 5] + Σₖ₌₀…₄ wₖ·(in[x + k] + in[x + 10 − k]), for x in 0..<count.
    @inline(__always)
    static func filter(
        _ input: UnsafePointer<Double>, into out: UnsafeMutablePointer<Double>, count: Int,
        weights: [Double]
    ) {
        let radius = StructuralSimilarity.radius
        let centre = input + radius, w5 = weights[radius]
        for x in 0..<count { out[x] = w5 * centre[x] }
        for k in 0..<radius {
            let w = weights[k], near = input + k, far = input + (2 * radius - k)
            for x in 0..<count { out[x] += w * (near[x] + far[x]) }
        }
    }

    /// Sum and count of the SSIM map over region row `row`, its columns pad..<width − pad, ignored pixels left out.
    /// `first`: the band's first row, whose window rows are all filtered anew.
    func meanRow(_ row: Int, pad: Int, source: SSIMSource, first: Bool) -> (Double, Int) {
        let radius = StructuralSimilarity.radius
        if first {
            for r in (row - radius)...(row + radius) { filterRow(r, source: source) }
        } else {
            filterRow(row + radius, source: source)
        }
        // The vertical filter over the ring: rows row − 5 … row + 5, each slot 5·width long.
        let count = 5 * width
        let w5 = weights[radius]
        let centre = slot(row)
        for x in 0..<count { filtered[x] = w5 * centre[x] }
        for k in 0..<radius {
            let w = weights[k], near = slot(row - radius + k), far = slot(row + radius - k)
            for x in 0..<count { filtered[x] += w * (near[x] + far[x]) }
        }
        let c1 = (0.01 * 255) * (0.01 * 255), c2 = (0.03 * 255) * (0.03 * 255)
        let mx = filtered, my = filtered + width, mxx = filtered + 2 * width, myy = filtered + 3 * width
        let mxy = filtered + 4 * width
        for x in 0..<width { keep[x] = true }
        for range in source.ignoredColumns(row) {
            for x in range { keep[x] = false }
        }
        var sum = 0.0, kept = 0
        for x in pad..<(width - pad) where keep[x] {
            let ux = mx[x], uy = my[x]
            let vx = mxx[x] - ux * ux, vy = myy[x] - uy * uy, cxy = mxy[x] - ux * uy
            sum += ((2 * ux * uy + c1) * (2 * cxy + c2)) / ((ux * ux + uy * uy + c1) * (vx + vy + c2))
            kept += 1
        }
        return (sum, kept)
    }
}
