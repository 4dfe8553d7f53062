/// Embedded ICC profiles known to be sRGB, recognised by their bytes so that a picture carrying one keeps its samples
/// without Little CMS reading the profile and building a transform (about 2.4 ms of a 36 ms whole-process render of
/// the wallpaper, which carries the first below: `perf stat -r 40` of the render with and without its iCCP chunk).
/// A hash, not the profile's bytes: a file crafted to collide keeps its own samples, nothing worse.
///
/// Contract: ``contains(_:)`` is true only for a profile whose bytes, with the header's flags (bytes 44–47),
/// rendering intent (64–67) and profile ID (84–99) set to zero as ICC.1:2010 §7.2.18 does to compute the ID, have a
/// length and FNV-1a 64 listed below. Every listed profile is one ``ColorProfileConversion``'s Little CMS check keeps
/// exactly (no sample of its grid moves by more than one level): `KnownSRGBProfilesTests` holds each to that, from
/// the fixture named beside it, so the shortcut writes the bytes the conversion would.
@_spi(CodecStages)
public enum KnownSRGBProfiles {
    public struct Fingerprint: Equatable, Sendable {
        public let byteCount: Int
        public let hash: UInt64
    }

    /// HP's "sRGB IEC61966-2.1" (1998), the profile most editors embed: `Tests/Fixtures/photos/wallpaper-2048x1536.png`.
    /// An array, not a set: a `Set`'s first use costs the runtime's generic lookups, more than a scan of a few entries.
    public static let fingerprints = [Fingerprint(byteCount: 3144, hash: 0x56d2_cbfc_a6b5_4318)]

    /// The bytes whose hash identifies a profile: the header's fields that do not change its colours, zeroed.
    public static func fingerprint(_ profile: UnsafeBufferPointer<UInt8>) -> Fingerprint {
        let ignored = [44..<48, 64..<68, 84..<100]
        let kept = profile.enumerated().lazy.map { offset, byte in ignored.contains { $0.contains(offset) } ? 0 : byte }
        let hash = FNV1a.hash(kept)
        return Fingerprint(byteCount: profile.count, hash: hash)
    }

    /// Whether `profile` is one of ``fingerprints``.
    public static func contains(_ profile: UnsafeBufferPointer<UInt8>) -> Bool {
        profile.count >= 100 && fingerprints.contains { $0.byteCount == profile.count }
            && fingerprints.contains(fingerprint(profile))
    }
}
