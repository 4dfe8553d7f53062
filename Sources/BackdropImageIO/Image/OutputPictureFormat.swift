/// The formats Backdrop writes, chosen by the output's extension (case-insensitive).
public enum OutputPictureFormat: String, Sendable, CaseIterable {
    case png = "PNG"
    case jpeg = "JPEG"
    case webP = "WebP"

    /// The format `path`'s extension names: `.png`, `.jpg` or `.jpeg`, `.webp`; PNG for a name without one (a device
    /// or a FIFO such as `/dev/stdout`). Any other extension is a `.badOption` error naming the path, so that it is
    /// refused before any work.
    public init(path: String) throws(BackdropError) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let suffix = name.firstIndex(of: ".") != nil ? String(name.split(separator: ".").last ?? "").lowercased() : ""
        switch suffix {
        case "png", "": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "webp": self = .webP
        default:
            throw BackdropError(
                .badOption, "\(path): unknown output format (give a path ending in .png, .jpg, .jpeg or .webp)")
        }
    }

    /// The extension a file of the format is given: `png`, `jpg`, `webp`.
    public var fileExtension: String {
        switch self {
        case .png: return "png"
        case .jpeg: return "jpg"
        case .webP: return "webp"
        }
    }

    /// The quality used when none is given: 90.
    public static let defaultQuality = 90

    /// Checks `--quality`: a whole number in 1…100.
    public static func validate(quality: Int) throws(BackdropError) {
        guard (1...100).contains(quality) else {
            throw BackdropError(.badOption, "--quality \(quality) is out of range (1…100)")
        }
    }
}
