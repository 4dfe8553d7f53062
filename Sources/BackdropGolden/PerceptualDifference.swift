import BackdropImageIO
import BackdropRendering
import Foundation

/// Which pixels count as differing under pixelmatch's perceptual rule: the one Playwright's `toHaveScreenshot` and
/// jest-image-snapshot use.
///
/// The rule is pixelmatch 7.2.0's with its default options (`checkerboard: true`, no `diffMask`); its counts equal
/// pixelmatch 7.2.0's on pixelmatch's own fixtures at every threshold and `includeAA` setting
/// (`Tests/Fixtures/pixelmatch`, `PerceptualDifferenceTests`). Later pixelmatch versions (its main branch
/// measures colour in OKLab) count differently.
public struct PerceptualRule: Sendable, Equatable, Codable {
    /// pixelmatch's `threshold`, 0–1: the largest YIQ distance, as a share of the largest possible one, that still
    /// counts as the same colour. pixelmatch's default is 0.1.
    public var threshold: Double
    /// pixelmatch's `includeAA`: whether pixels found to be anti-aliasing count as differing (default false).
    public var includeAntiAliased: Bool

    /// The default threshold, pixelmatch's (Playwright's `toHaveScreenshot` defaults to 0.2, jest-image-snapshot to
    /// 0.01).
    public static let defaultThreshold = 0.1

    /// A rule; by default pixelmatch's defaults.
    public init(threshold: Double = PerceptualRule.defaultThreshold, includeAntiAliased: Bool = false) {
        self.threshold = threshold
        self.includeAntiAliased = includeAntiAliased
    }
}

/// Counts the pixels of two same-size pictures that differ under a ``PerceptualRule``, and draws pixelmatch's diff
/// picture.
///
/// The rule, as pixelmatch 7.2.0 applies it (its README and the two papers it cites):
/// - Colour distance (Kotsarenko and Ramos, "Measuring perceived color difference using YIQ NTSC transmission color
///   space in mobile applications", 2010): the channel differences are taken to YIQ and weighted,
///   Δ = 0.5053·Y² + 0.299·I² + 0.1957·Q²; a pixel differs when |Δ| exceeds 35215·threshold² (35215 is the largest
///   Δ, black against white). A pixel that is translucent in either picture is first blended over a fixed
///   pseudo-random checkerboard of greys 48 and 207 that depends on the pixel's position, so a colour change under
///   alpha 0 is no change, and an alpha change is one.
/// - Anti-aliasing (Vysniauskas, "Anti-aliased pixel and intensity slope detector", 2009): a differing pixel is
///   anti-aliasing, in either picture, when among its eight neighbours (fewer at the edges, an edge counting as one
///   equal neighbour) at most two have its exact colour, some are darker and some brighter (by luma Y, blended
///   over the same checkerboard cell as the centre), and the darkest or the brightest of them has three or more
///   neighbours of exactly its own colour in both pictures: the pixel then lies on the slope between two flat
///   areas. Ties keep the first neighbour found, walking columns left to right and each column top to bottom.
///   Without `includeAntiAliased`, such pixels are not counted.
///
/// Arithmetic is in `Double` in pixelmatch's order of operations, so the counts are exact, not approximate.
/// With a region, the region is compared as if it were the whole picture: neighbours stop at its edges and the
/// checkerboard starts at its corner. Ignored pixels are not counted but still serve as neighbours.
///
/// Rows are worked on in bands on several threads (``Parallelism``); the counts are integers summed per row, the
/// same for any thread count.
public enum PerceptualDifference {
    /// Differing pixels and, among the pixels over the threshold, those left out as anti-aliasing.
    public struct Count: Sendable, Equatable {
        /// Pixels that differ under the rule (the count pixelmatch returns).
        public var differing: Int
        /// Pixels over the threshold found to be anti-aliasing (counted in ``differing`` only with
        /// ``PerceptualRule/includeAntiAliased``).
        public var antiAliased: Int
    }

    /// What a pixel is in the diff picture.
    enum Verdict: UInt8 {
        case similar, antiAliased, differing
    }

    /// The largest YIQ distance Δ (black against white), as pixelmatch rounds it.
    static let largestDelta = 35215.0

    /// The counts for `a` against `b` inside `region` (default: everything), leaving `ignore` out of the counts.
    /// When `diff` is given it receives pixelmatch's diff picture of the whole picture: differing pixels red, pixels
    /// left out as anti-aliasing yellow, every other pixel (ignored and outside the region included) the expected
    /// picture's luma faded towards white, grey = 255 + (Y − 255)·0.1·alpha/255 truncated to a level, as pixelmatch
    /// writes into a Node `Buffer`. Opaque.
    public static func count(
        _ a: RGBAImage<UInt8>, _ b: RGBAImage<UInt8>, region: PixelRect? = nil, ignore: [PixelRect] = [],
        rule: PerceptualRule, parallelism: Parallelism = Parallelism(), diff: UnsafeMutablePointer<UInt8>? = nil
    ) -> Count {
        precondition(a.size == b.size, "PerceptualDifference: \(a.size) against \(b.size)")
        let region = region ?? PixelRect(covering: a.size)
        guard region.width > 0, region.height > 0 else { return Count(differing: 0, antiAliased: 0) }
        let maxDelta = largestDelta * rule.threshold * rule.threshold
        let rows = region.height
        var differing = [Int](repeating: 0, count: rows), antiAliased = [Int](repeating: 0, count: rows)
        a.samples.withUnsafeBufferPointer { aSamples in
            b.samples.withUnsafeBufferPointer { bSamples in
                differing.withUnsafeMutableBufferPointer { differingRows in
                    antiAliased.withUnsafeMutableBufferPointer { antiAliasedRows in
                        let pair = PixelPair(
                            a: SendableConstPointer(aSamples.baseAddress!),
                            b: SendableConstPointer(bSamples.baseAddress!),
                            stride: a.width, region: region)
                        let differingOut = SendablePointer(differingRows.baseAddress!)
                        let antiAliasedOut = SendablePointer(antiAliasedRows.baseAddress!)
                        let diffOut = diff.map { SendablePointer($0) }
                        let identical = memcmp(aSamples.baseAddress!, bSamples.baseAddress!, aSamples.count) == 0
                        let includeAntiAliased = rule.includeAntiAliased
                        parallelism.forEachBand(of: rows, minimumBandSize: 16) { band in
                            for y in band {
                                let ignoredRow = ignore.filter {
                                    $0.y <= region.y + y && region.y + y < $0.maxY
                                }
                                var rowDiffering = 0, rowAntiAliased = 0
                                for x in 0..<region.width {
                                    var verdict = Verdict.similar
                                    if !identical && !pair.sameWord(x, y) {
                                        let delta = pair.colourDelta(x, y)
                                        if abs(delta) > maxDelta {
                                            let isAntiAliased =
                                                !includeAntiAliased
                                                && (pair.isAntiAliased(x, y, inFirst: true)
                                                    || pair.isAntiAliased(x, y, inFirst: false))
                                            verdict = isAntiAliased ? .antiAliased : .differing
                                        }
                                    }
                                    if verdict != .similar,
                                        ignoredRow.contains(where: { $0.x <= region.x + x && region.x + x < $0.maxX })
                                    {
                                        verdict = .similar
                                    }
                                    switch verdict {
                                    case .differing: rowDiffering += 1
                                    case .antiAliased: rowAntiAliased += 1
                                    case .similar: break
                                    }
                                    if let diffOut {
                                        drawPixel(
                                            verdict, at: pair.offset(x, y), from: pair.a.pointer, into: diffOut.pointer)
                                    }
                                }
                                differingOut.pointer[y] = rowDiffering
                                antiAliasedOut.pointer[y] = rowAntiAliased
                            }
                        }
                        if let diffOut { drawOutside(region, a: a, into: diffOut.pointer) }
                    }
                }
            }
        }
        return Count(differing: differing.reduce(0, +), antiAliased: antiAliased.reduce(0, +))
    }

    /// pixelmatch's diff picture of `expected` against `actual` (see ``count(_:_:region:ignore:rule:parallelism:diff:)``).
    public static func diffPicture(
        expected: RGBAImage<UInt8>, actual: RGBAImage<UInt8>, region: PixelRect? = nil, ignore: [PixelRect] = [],
        rule: PerceptualRule, parallelism: Parallelism = Parallelism()
    ) -> RGBAImage<UInt8> {
        var samples = [UInt8](repeating: 255, count: expected.samples.count)
        samples.withUnsafeMutableBufferPointer { out in
            _ = count(
                expected, actual, region: region, ignore: ignore, rule: rule, parallelism: parallelism,
                diff: out.baseAddress!)
        }
        return RGBAImage(width: expected.width, height: expected.height, samples: samples)
    }

    /// Writes one diff pixel: red, yellow, or `source`'s pixel faded.
    @inline(__always)
    static func drawPixel(
        _ verdict: Verdict, at offset: Int, from source: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>
    ) {
        switch verdict {
        case .differing: out[offset] = 255; out[offset + 1] = 0; out[offset + 2] = 0
        case .antiAliased: out[offset] = 255; out[offset + 1] = 255; out[offset + 2] = 0
        case .similar:
            let luma =
                Double(source[offset]) * 0.29889531 + Double(source[offset + 1]) * 0.58662247 + Double(
                    source[offset + 2]) * 0.11448223
            let grey = UInt8(255 + (luma - 255) * 0.1 * Double(source[offset + 3]) / 255)
            out[offset] = grey; out[offset + 1] = grey; out[offset + 2] = grey
        }
        out[offset + 3] = 255
    }

    /// The faded grey for every pixel outside `region`.
    static func drawOutside(_ region: PixelRect, a: RGBAImage<UInt8>, into out: UnsafeMutablePointer<UInt8>) {
        a.samples.withUnsafeBufferPointer { source in
            for y in 0..<a.height {
                for x in 0..<a.width where !(region.x <= x && x < region.maxX && region.y <= y && y < region.maxY) {
                    drawPixel(.similar, at: (y * a.width + x) * 4, from: source.baseAddress!, into: out)
                }
            }
        }
    }
}

/// Two pictures' pixels seen through a region: (x, y) are region coordinates, neighbours stop at the region's
/// edges, and the checkerboard's position is the pixel's byte offset in the region as a picture of its own.
private struct PixelPair: Sendable {
    let a: SendableConstPointer<UInt8>
    let b: SendableConstPointer<UInt8>
    /// Pixels per row of the pictures.
    let stride: Int
    let region: PixelRect

    /// The byte offset of region pixel (x, y) in the pictures.
    @inline(__always) func offset(_ x: Int, _ y: Int) -> Int { ((region.y + y) * stride + region.x + x) * 4 }

    /// The pixel's four bytes as one word.
    @inline(__always) func word(_ picture: UnsafePointer<UInt8>, _ x: Int, _ y: Int) -> UInt32 {
        UnsafeRawPointer(picture + offset(x, y)).loadUnaligned(as: UInt32.self)
    }

    @inline(__always) func sameWord(_ x: Int, _ y: Int) -> Bool { word(a.pointer, x, y) == word(b.pointer, x, y) }

    /// The checkerboard's grey under a translucent pixel whose byte offset in the region is `k`: red alternates
    /// with the offset's parity, green and blue with the offset divided by φ and by φ + 1.
    @inline(__always) static func background(_ k: Int) -> (Double, Double, Double) {
        let kk = Double(k)
        return (
            Double(48 + 159 * (k % 2)), Double(48 + 159 * (Int(kk / 1.618033988749895) % 2)),
            Double(48 + 159 * (Int(kk / 2.618033988749895) % 2))
        )
    }

    /// Channel differences of pixel p against pixel q, both blended over the checkerboard cell `k` when either is
    /// translucent.
    @inline(__always) static func channelDeltas(_ p: UnsafePointer<UInt8>, _ q: UnsafePointer<UInt8>, cell k: Int)
        -> (Double, Double, Double)
    {
        let r1 = Double(p[0]), g1 = Double(p[1]), b1 = Double(p[2]), a1 = Double(p[3])
        let r2 = Double(q[0]), g2 = Double(q[1]), b2 = Double(q[2]), a2 = Double(q[3])
        guard a1 < 255 || a2 < 255 else { return (r1 - r2, g1 - g2, b1 - b2) }
        let da = a1 - a2
        let (rb, gb, bb) = background(k)
        return (
            (r1 * a1 - r2 * a2 - rb * da) / 255, (g1 * a1 - g2 * a2 - gb * da) / 255,
            (b1 * a1 - b2 * a2 - bb * da) / 255
        )
    }

    /// Luma Y of channel differences (NTSC weights as pixelmatch rounds them).
    @inline(__always) static func luma(_ d: (Double, Double, Double)) -> Double {
        d.0 * 0.29889531 + d.1 * 0.58662247 + d.2 * 0.11448223
    }

    /// The weighted YIQ distance of the two pictures' pixel (x, y), negative when the first picture's is brighter.
    @inline(__always) func colourDelta(_ x: Int, _ y: Int) -> Double {
        let o = offset(x, y)
        let d = Self.channelDeltas(a.pointer + o, b.pointer + o, cell: (y * region.width + x) * 4)
        let lumaDelta = Self.luma(d)
        let inPhase = d.0 * 0.59597799 - d.1 * 0.27417610 - d.2 * 0.32180189
        let quadrature = d.0 * 0.21147017 - d.1 * 0.52261711 + d.2 * 0.31114694
        let delta = 0.5053 * lumaDelta * lumaDelta + 0.299 * inPhase * inPhase + 0.1957 * quadrature * quadrature
        return lumaDelta > 0 ? -delta : delta
    }

    /// Whether pixel (x, y) of the first picture (or the second) sits on an intensity slope between flat areas.
    func isAntiAliased(_ x: Int, _ y: Int, inFirst: Bool) -> Bool {
        let picture = inFirst ? a.pointer : b.pointer
        let x0 = max(x - 1, 0), y0 = max(y - 1, 0)
        let x2 = min(x + 1, region.width - 1), y2 = min(y + 1, region.height - 1)
        let centre = picture + offset(x, y)
        let cell = (y * region.width + x) * 4
        var equal = x == x0 || x == x2 || y == y0 || y == y2 ? 1 : 0
        var darkest = 0.0, brightest = 0.0
        var darkestAt = (0, 0), brightestAt = (0, 0)
        for nx in x0...x2 {
            for ny in y0...y2 where nx != x || ny != y {
                let neighbour = picture + offset(nx, ny)
                let delta: Double
                if UnsafeRawPointer(centre).loadUnaligned(as: UInt32.self)
                    == UnsafeRawPointer(neighbour).loadUnaligned(as: UInt32.self)
                {
                    delta = 0
                } else {
                    delta = Self.luma(Self.channelDeltas(centre, neighbour, cell: cell))
                }
                if delta == 0 {
                    equal += 1
                    if equal > 2 { return false }
                } else if delta < darkest {
                    darkest = delta
                    darkestAt = (nx, ny)
                } else if delta > brightest {
                    brightest = delta
                    brightestAt = (nx, ny)
                }
            }
        }
        if darkest == 0 || brightest == 0 { return false }
        return (hasManyEqualNeighbours(a.pointer, darkestAt) && hasManyEqualNeighbours(b.pointer, darkestAt))
            || (hasManyEqualNeighbours(a.pointer, brightestAt) && hasManyEqualNeighbours(b.pointer, brightestAt))
    }

    /// Whether three or more of pixel `at`'s neighbours have exactly its colour (an edge counts as one).
    func hasManyEqualNeighbours(_ picture: UnsafePointer<UInt8>, _ at: (Int, Int)) -> Bool {
        let (x, y) = at
        let x0 = max(x - 1, 0), y0 = max(y - 1, 0)
        let x2 = min(x + 1, region.width - 1), y2 = min(y + 1, region.height - 1)
        let value = word(picture, x, y)
        var equal = x == x0 || x == x2 || y == y0 || y == y2 ? 1 : 0
        for nx in x0...x2 {
            for ny in y0...y2 where nx != x || ny != y {
                if word(picture, nx, ny) == value { equal += 1 }
                if equal > 2 { return true }
            }
        }
        return false
    }
}
