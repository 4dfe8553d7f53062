@_spi(CodecStages) import Backdrop
import BackdropTestSupport
import CLittleCMS
import Testing

/// Issue 49: a profile `KnownSRGBProfiles` lists keeps a picture's samples without Little CMS, so each listed profile
/// must be one Little CMS's own check keeps exactly (status 2 of `bd_icc_convert_to_srgb`: no sample of its grid moves
/// by more than a level), and a profile that differs from it in a colour-bearing byte must not be taken for it.
@Suite("Embedded profiles known to be sRGB")
struct KnownSRGBProfilesTests {
    /// The embedded profile of a fixture, as `--color-space keep` reads it.
    static func profile(of fixture: String) throws -> [UInt8] {
        let (_, space) = try ImageDecoder().decodeFile(Fixtures.path(fixture), choice: .keep)
        guard case .profile(let bytes) = space else {
            Issue.record("\(fixture) carries no ICC profile: \(space)")
            return []
        }
        return bytes
    }

    /// Every 8-bit level of each channel, and a walk over mixed colours, in RGBA.
    static var levels: [UInt8] {
        (0..<4096).flatMap { index -> [UInt8] in
            let level = UInt8(index & 255)
            let mixed = [UInt8((index * 37) & 255), UInt8((index * 101) & 255), UInt8((index * 13 + 7) & 255)]
            switch index >> 8 {
            case 0: return [level, 0, 0, 255]
            case 1: return [0, level, 0, 255]
            case 2: return [0, 0, level, 255]
            case 3: return [level, level, level, 255]
            default: return mixed + [255]
            }
        }
    }

    @Test("the wallpaper's HP sRGB profile is listed, and Little CMS keeps every sample under it")
    func theListedProfileIsSRGBForLittleCMS() throws {
        let profile = try Self.profile(of: "photos/wallpaper-2048x1536.png")
        #expect(profile.count == 3144)
        #expect(profile.withUnsafeBufferPointer(KnownSRGBProfiles.contains))
        var samples = Self.levels
        let status = profile.withUnsafeBufferPointer { icc in
            samples.withUnsafeMutableBufferPointer {
                bd_icc_convert_to_srgb(icc.baseAddress, icc.count, $0.baseAddress, $0.count / 4)
            }
        }
        #expect(status == 2, "Little CMS does not take the listed profile for sRGB (status \(status))")
        #expect(samples == Self.levels)
        // 16-bit pictures take the same shortcut: Little CMS keeps their samples too.
        var wide = Self.levels.map { UInt16($0) * 257 }
        let wideStatus = profile.withUnsafeBufferPointer { icc in
            wide.withUnsafeMutableBufferPointer {
                bd_icc_convert_to_srgb_16(icc.baseAddress, icc.count, $0.baseAddress, $0.count / 4)
            }
        }
        #expect(wideStatus == 2, "16 bits: status \(wideStatus)")
        #expect(wide == Self.levels.map { UInt16($0) * 257 })
    }

    @Test("a changed colorant or curve is not the listed profile; a changed intent, flag or profile ID still is")
    func onlyColourlessHeaderFieldsAreIgnored() throws {
        let profile = try Self.profile(of: "photos/wallpaper-2048x1536.png")
        // The red colorant's X (the rXYZ tag at offset 536) and a byte of the curve (rTRC at 1084).
        for offset in [536 + 9, 1084 + 400] {
            var changed = profile
            changed[offset] ^= 1
            #expect(!changed.withUnsafeBufferPointer(KnownSRGBProfiles.contains), "byte \(offset) changed")
        }
        for offset in [44, 67, 84, 99] {
            var changed = profile
            changed[offset] ^= 1
            #expect(changed.withUnsafeBufferPointer(KnownSRGBProfiles.contains), "byte \(offset) changed")
        }
        #expect(!Array(profile.dropLast()).withUnsafeBufferPointer(KnownSRGBProfiles.contains))
        #expect(![UInt8](repeating: 0, count: 3144).withUnsafeBufferPointer(KnownSRGBProfiles.contains))
    }

    @Test("a Display P3 profile is not listed, and its picture still converts")
    func otherProfilesStillConvert() throws {
        let profile = try Self.profile(of: "png-color/p3-iccp.png")
        #expect(!profile.isEmpty)
        #expect(!profile.withUnsafeBufferPointer(KnownSRGBProfiles.contains))
        let path = Fixtures.path("png-color/p3-iccp.png")
        let kept = try ImageDecoder().decodeFile(path, choice: .keep).image
        let converted = try ImageDecoder().decodeFile(path, choice: .srgb).image
        #expect(kept.samples != converted.samples, "the P3 picture's samples did not change when converted")
    }
}
