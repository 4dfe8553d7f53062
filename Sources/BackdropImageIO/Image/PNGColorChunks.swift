import CLibPNG
import CLittleCMS

/// What a PNG's colour chunks ask of its samples, in the PNG specification's order of precedence (third edition,
/// 11.3.2): cICP, then iCCP, then sRGB, then cHRM with gAMA.
///
/// Contract:
/// - `cICP` (matrix 0, full range): the space its H.273 codes name, converted to sRGB (nothing when it is sRGB's);
///   gAMA, cHRM, iCCP and sRGB are then ignored. Codes Little CMS has no curve for (PQ, HLG): one warning line,
///   samples taken as sRGB.
/// - `iCCP`: its profile converted to sRGB (an sRGB profile keeps the samples exactly); gAMA and cHRM ignored. A
///   profile that does not inflate or that Little CMS cannot read: one warning line, samples taken as sRGB.
/// - `sRGB`: the samples are sRGB (``SampleEncoding``).
/// - `cHRM` whose chromaticities are not sRGB's (any value more than 0.001 away): its primaries and white point with
///   gAMA's power law (the sRGB curve without gAMA), converted to sRGB. Chromaticities no profile can be made of (a
///   value outside 0–1): one warning line, samples taken as sRGB.
/// - Otherwise (no colour chunk, gAMA alone, or cHRM naming sRGB's primaries): ``SampleEncoding``'s rule, exactly as
///   before these chunks were read, so such a file decodes to the same samples.
enum PNGColorRule: Equatable {
    /// ``SampleEncoding`` from the header's sRGB and gAMA.
    case sampleEncoding
    /// The samples are sRGB as stored (gAMA ignored).
    case asStored
    /// Convert with this ICC profile.
    case profile([UInt8])

    /// sRGB's chromaticities as cHRM stores them: white, red, green, blue (x, y).
    static let sRGBChromaticities: [Double] = [0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06]

    /// The rule for the file `bytes`; `name` for warnings.
    init(_ bytes: [UInt8], name: String) {
        var color = bd_png_color()
        let found = bytes.withUnsafeBufferPointer { bd_png_color_chunks($0.baseAddress, $0.count, &color) }
        defer { bd_png_color_free(&color) }
        guard found == 1 else { self = .sampleEncoding; return }
        if color.has_cicp != 0, color.cicp.2 == 0, color.cicp.3 == 1 {
            let profile = ColorProfileConversion.profile(
                primaries: Int(color.cicp.0), transfer: Int(color.cicp.1), name: name)
            self = profile.map { .profile($0) } ?? .asStored
            return
        }
        if let icc = color.icc {
            self = .profile(Array(UnsafeBufferPointer(start: icc, count: color.icc_size)))
            return
        }
        if color.icc_broken != 0 {
            ColorProfileConversion.warn("\(name): the iCCP profile does not inflate; colours taken as sRGB")
            self = .asStored
            return
        }
        let chromaticities = withUnsafeBytes(of: color.chrm) { Array($0.bindMemory(to: Double.self)) }
        guard color.has_srgb == 0, color.has_chrm != 0,
            zip(chromaticities, Self.sRGBChromaticities).contains(where: { abs($0 - $1) > 0.001 })
        else { self = .sampleEncoding; return }
        let gamma = color.has_gama != 0 ? color.gama : 0
        let profile = ColorProfileConversion.profile(name: name, unsupported: "its cHRM chunk is unusable") {
            profile, size in
            chromaticities.withUnsafeBufferPointer {
                bd_icc_profile_from_chromaticities($0.baseAddress, gamma, profile, size)
            }
        }
        self = profile.map { .profile($0) } ?? .asStored
    }
}

extension PNGColorRule {
    /// The space a PNG's colour chunks describe, for `--color-space keep` (the samples are then left as stored), in the
    /// same precedence: cICP's codes; iCCP's profile (one that does not inflate or that Little CMS cannot read: one
    /// warning line, untagged); an sRGB chunk: sRGB; cHRM (not sRGB's) with gAMA, or gAMA alone away from 1/2.2: a
    /// profile made of them (sRGB's primaries for gAMA alone; chromaticities no profile can be made of: one warning
    /// line saying the output is written untagged, untagged); otherwise sRGB.
    static func keptSpace(_ bytes: [UInt8], name: String) -> PictureColorSpace {
        var color = bd_png_color()
        let found = bytes.withUnsafeBufferPointer { bd_png_color_chunks($0.baseAddress, $0.count, &color) }
        defer { bd_png_color_free(&color) }
        guard found == 1 else { return .sRGB }
        if color.has_cicp != 0, color.cicp.2 == 0, color.cicp.3 == 1 {
            return ColorProfileConversion.keptCodes(
                primaries: Int(color.cicp.0), transfer: Int(color.cicp.1), name: name)
        }
        if let icc = color.icc {
            var image = RGBAImage<UInt8>(width: 0, height: 0, samples: [])
            return ColorProfileConversion.handle(
                &image, profile: UnsafeBufferPointer(start: icc, count: color.icc_size), choice: .keep, name: name)
        }
        if color.icc_broken != 0 {
            ColorProfileConversion.warn("\(name): the iCCP profile does not inflate; written untagged")
            return .untagged
        }
        if color.has_srgb != 0 { return .sRGB }
        var chromaticities = withUnsafeBytes(of: color.chrm) { Array($0.bindMemory(to: Double.self)) }
        let chrmIsSRGB =
            color.has_chrm == 0
            || !zip(chromaticities, Self.sRGBChromaticities).contains(where: { abs($0 - $1) > 0.001 })
        let gamma = color.has_gama != 0 ? color.gama : 0
        if chrmIsSRGB {
            guard SampleEncoding(hasSRGBChunk: false, fileGamma: gamma > 0 ? gamma : nil) != .sRGB else { return .sRGB }
            chromaticities = Self.sRGBChromaticities
        }
        let profile = ColorProfileConversion.profile(
            name: name, unsupported: "its cHRM chunk is unusable", choice: .keep
        ) { profile, size in
            chromaticities.withUnsafeBufferPointer {
                bd_icc_profile_from_chromaticities($0.baseAddress, gamma, profile, size)
            }
        }
        return profile.map { .profile($0) } ?? .untagged
    }
}
