import CLibPNG
import CLittleCMS

/// What `--color-space` asks of a picture's colours: converted to sRGB before the effect and the output tagged sRGB
/// (`srgb`, the default), or left in the input's own space and the input's profile written into the output (`keep`).
public enum ColorSpaceChoice: String, Sendable, CaseIterable {
    case srgb
    case keep
}

/// The colour space a decoded picture's samples are in, as its file describes it: what `--color-space keep` writes
/// back into the output (``ImageDecoder/decodeKeepingColorSpace(_:name:)``, ``PNGEncoder/colorSpace``,
/// ``outputProfile``).
public enum PictureColorSpace: Sendable, Equatable {
    /// sRGB: no colour information, an sRGB chunk, or a gAMA of sRGB's 1/2.2; and every picture converted to sRGB.
    /// Written with the encoders' own sRGB tags.
    case sRGB
    /// Unknown: a profile that could not be read (after its warning line). Written without any colour tag.
    case untagged
    /// An RGB ICC profile: the file's own (PNG iCCP, JPEG APP2, WebP ICCP, HEIF `colr`), or one made from a PNG's
    /// cHRM and gAMA chunks.
    case profile([UInt8])
    /// ITU-T H.273 code points (a PNG cICP chunk, a HEIF nclx `colr` box) and the ICC profile made of them; nil for
    /// codes Little CMS has no curve for (PQ, HLG).
    case codes(primaries: Int, transfer: Int, profile: [UInt8]?)

    /// The ICC profile a JPEG or WebP output carries: the profile, or the one made of the codes; nil for sRGB and
    /// untagged pictures (and codes without a profile).
    public var outputProfile: [UInt8]? {
        switch self {
        case .sRGB, .untagged: return nil
        case .profile(let profile): return profile
        case .codes(_, _, let profile): return profile
        }
    }

    /// The colour chunks a PNG of this space carries in place of ``PNGEncoder``'s sRGB, gAMA and cHRM: nil for sRGB
    /// (the encoder's own), an iCCP chunk of the profile (zlib-compressed), a cICP chunk of the codes (matrix 0, full
    /// range), or none (untagged).
    func pngColorChunks() throws(BackdropError) -> [UInt8]? {
        if self == .sRGB { return nil }
        let profile: [UInt8]?
        var cicp: [UInt8]?
        switch self {
        case .profile(let bytes): profile = bytes
        case .codes(let primaries, let transfer, _):
            profile = nil
            cicp = [UInt8(clamping: primaries), UInt8(clamping: transfer), 0, 1]
        default: profile = nil
        }
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = (profile ?? []).withUnsafeBufferPointer { icc in
            (cicp ?? []).withUnsafeBufferPointer { codes in
                bd_png_colour_chunks(
                    profile == nil ? nil : icc.baseAddress, icc.count, cicp == nil ? nil : codes.baseAddress, &out,
                    &size)
            }
        }
        guard status == 0 else {
            throw BackdropError(.output, "cannot write the colour profile into the PNG: out of memory")
        }
        defer { bd_png_free(out) }
        return out.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }
}

extension ColorProfileConversion {
    /// What a decoder does with an embedded profile under `choice`: `srgb` converts `image` to sRGB and answers
    /// ``PictureColorSpace/sRGB``; `keep` leaves the samples and answers the profile when Little CMS reads it as RGB,
    /// ``PictureColorSpace/sRGB`` for another space's (a grey JPEG's, whose samples are RGB already), and
    /// ``PictureColorSpace/untagged`` after one warning line when it cannot read it.
    static func handle<Sample: PixelSample>(
        _ image: inout RGBAImage<Sample>, profile: UnsafeBufferPointer<UInt8>, choice: ColorSpaceChoice, name: String
    ) -> PictureColorSpace {
        guard choice == .keep else {
            convertToSRGB(&image, profile: profile, name: name)
            return .sRGB
        }
        // A profile larger than a PNG's iCCP is read back with (issue 70 item 5: a JPEG's 12 MB profile was written
        // into a chunk no reader here inflates).
        guard profile.count <= Int(BD_ICC_MAX_BYTES) else {
            warn(
                "\(name): its ICC profile of \(profile.count) bytes is over the \(BD_ICC_MAX_BYTES) bytes a kept profile may have; written untagged"
            )
            return .untagged
        }
        switch bd_icc_check_rgb(profile.baseAddress, profile.count) {
        case 1: return .profile(Array(profile))
        case 0:
            warn("\(name): the embedded ICC profile is unreadable; written untagged")
            return .untagged
        default: return .sRGB
        }
    }

    /// The colour primaries and transfer characteristics H.273 (ITU-T, 2021) defines: every other value is reserved
    /// (or, 2, "unspecified"), and names no space to keep.
    static let definedPrimaries: Set<Int> = [1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 22]
    static let definedTransfers: Set<Int> = Set([1] + Array(4...18))

    /// The space H.273's codes name, kept: sRGB's, or the codes with their profile (nil for PQ, HLG: no warning, a PNG
    /// output carries the codes as they are). Codes H.273 reserves or leaves unspecified name no space: one warning
    /// line naming them (`name`'s), written untagged (issue 70 item 5: 255/255 and 0/0 were copied into the output).
    static func keptCodes(primaries: Int, transfer: Int, name: String) -> PictureColorSpace {
        guard definedPrimaries.contains(primaries), definedTransfers.contains(transfer) else {
            warn(
                "\(name): its colour codes (primaries \(primaries), transfer \(transfer)) are reserved or unspecified in H.273; written untagged"
            )
            return .untagged
        }
        var profile: UnsafeMutablePointer<UInt8>?
        var size = 0
        switch bd_icc_profile_from_h273(Int32(primaries), Int32(transfer), &profile, &size) {
        case 0: return .sRGB
        case 1:
            defer { bd_icc_free(profile) }
            return .codes(
                primaries: primaries, transfer: transfer,
                profile: Array(UnsafeBufferPointer(start: profile, count: size)))
        default: return .codes(primaries: primaries, transfer: transfer, profile: nil)
        }
    }
}
