/// The picture formats Backdrop reads, told apart by a file's first bytes (never by its name).
///
/// Contract: PNG by its 8-byte signature, JPEG by its SOI marker and the next marker's 0xFF (`FF D8 FF`), WebP by
/// `RIFF····WEBP`, HEIF by an ISO BMFF `ftyp` box first whose major brand is one of HEIF's still-image or sequence
/// brands (``heifBrands``); anything else is nil, whatever its extension.
public enum ImageFormat: String, Sendable, CaseIterable {
    case png = "PNG"
    case jpeg = "JPEG"
    case webP = "WebP"
    case heif = "HEIF"

    /// How many leading bytes ``init(sniffing:)`` looks at.
    public static let sniffedBytes = 12

    /// The `ftyp` major brands read as HEIF: HEVC-coded images and sequences (`heic`, `heix`, `heim`, `heis`,
    /// `hevc`, `hevx`) and the structural brands (`mif1`, `msf1`).
    public static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]

    /// The format `prefix` starts like, or nil.
    public init?(sniffing prefix: ArraySlice<UInt8>) {
        let bytes = Array(prefix.prefix(Self.sniffedBytes))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.count >= 12, bytes[0..<4] == [0x52, 0x49, 0x46, 0x46],
            bytes[8..<12] == [0x57, 0x45, 0x42, 0x50]
        {
            self = .webP
        } else if bytes.count >= 12, bytes[4..<8] == [0x66, 0x74, 0x79, 0x70],
            Self.heifBrands.contains(String(decoding: bytes[8..<12], as: UTF8.self))
        {
            self = .heif
        } else {
            return nil
        }
    }

    /// The formats' names for a message: "PNG, JPEG, WebP or HEIF".
    public static var names: String { "PNG, JPEG, WebP or HEIF" }
}
