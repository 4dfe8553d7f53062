import CLittleCMS
import Foundation

/// A picture's colours converted from an embedded or described colour space to sRGB by Little CMS, shared by every
/// decoder.
///
/// Contract: relative colorimetric intent, alpha untouched, 8- or 16-bit samples. A profile whose conversion moves no
/// sample of a 9×9×9 grid and of the grey ramp by more than one 8-bit level is sRGB in effect and the samples are
/// kept exactly; a grey profile leaves them as they are (the decoders have already made them RGB). A profile Little
/// CMS cannot read, or a described space it has no curve for, is one warning line on standard error and the samples
/// are taken as sRGB.
enum ColorProfileConversion {
    /// Converts `image` from `profile`'s colours to sRGB; a profile ``KnownSRGBProfiles`` lists (unless
    /// `recognisingKnownProfiles` is false) keeps the samples without asking Little CMS.
    static func convertToSRGB<Sample: PixelSample>(
        _ image: inout RGBAImage<Sample>, profile: UnsafeBufferPointer<UInt8>, name: String,
        recognisingKnownProfiles: Bool = true
    ) {
        if recognisingKnownProfiles, KnownSRGBProfiles.contains(profile) { return }
        let pixels = image.width * image.height
        let status: Int32 = image.samples.withUnsafeMutableBufferPointer { samples in
            let raw = UnsafeMutableRawPointer(samples.baseAddress)
            if Sample.self == UInt16.self {
                return bd_icc_convert_to_srgb_16(
                    profile.baseAddress, profile.count, raw?.assumingMemoryBound(to: UInt16.self), pixels)
            }
            return bd_icc_convert_to_srgb(
                profile.baseAddress, profile.count, raw?.assumingMemoryBound(to: UInt8.self), pixels)
        }
        if status == 0 { warn("\(name): the embedded ICC profile is unreadable; colours taken as sRGB") }
    }

    /// The profile a `CLittleCMS` maker writes (it returns 1 with a profile, 0 for sRGB's own space, -1 for a space it
    /// cannot describe): nil for sRGB's space, and nil after the warning line `unsupported` for the last, which ends
    /// with what is done instead under `choice`: `srgb` takes the colours as sRGB, `keep` writes the output untagged.
    static func profile(
        name: String, unsupported: String, choice: ColorSpaceChoice = .srgb,
        _ make: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int>) -> Int32
    ) -> [UInt8]? {
        var profile: UnsafeMutablePointer<UInt8>?
        var size = 0
        switch make(&profile, &size) {
        case 1:
            defer { bd_icc_free(profile) }
            return Array(UnsafeBufferPointer(start: profile, count: size))
        case 0: return nil
        default:
            warn("\(name): \(unsupported); \(choice == .keep ? "written untagged" : "colours taken as sRGB")")
            return nil
        }
    }

    /// The profile of the colour space H.273's `primaries` and `transfer` codes name (a HEIF nclx box, a PNG cICP);
    /// nil for sRGB's, or after a warning line for codes it cannot describe.
    static func profile(primaries: Int, transfer: Int, name: String) -> [UInt8]? {
        profile(name: name, unsupported: "colour primaries \(primaries) with transfer \(transfer) are not supported") {
            bd_icc_profile_from_h273(Int32(primaries), Int32(transfer), $0, $1)
        }
    }

    /// One warning line on standard error.
    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("backdrop: warning: \(message)\n".utf8))
    }
}
