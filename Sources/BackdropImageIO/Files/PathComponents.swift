/// A path's folder, last component and extension, read from its text: byte work on the UTF-8, split at every `/`
/// byte as the kernel splits paths.
///
/// Contract: no path, whatever its length or bytes, traps. Foundation's own path-component code traps on a relative
/// name of one character on Linux (issue 70: `backdrop check m`), so no user-given path goes through it. The answers
/// are `NSString`'s (`deletingLastPathComponent`, `lastPathComponent`, `pathExtension`, `deletingPathExtension`) for
/// paths without a repeated `/` (`PathComponentsTests`); where `NSString` tidies a path (`a//b`, or `ab/` without its
/// extension), these keep the text as given, and `//` is the root, as the kernel reads it.
/// - ``folder(of:)``: the path without its last component and the `/` before it; trailing `/`s are ignored. A bare
///   name's folder is "" (the working directory), a name in the root's is "/", and "/" is its own folder.
/// - ``lastComponent(of:)``: what follows the last `/` that is not trailing; "/" for the root, "" for "".
/// - ``pathExtension(of:)``: the last component's text after its last `.`, when that dot is neither its first
///   character nor its last; "" otherwise.
/// - ``removingExtension(_:)``: the path without `.` and the extension, when there is one; the path otherwise.
public enum PathComponents {
    private static let slash = UInt8(ascii: "/")
    private static let dot = UInt8(ascii: ".")

    /// The folder `path` names its last component in ("" for a bare name).
    public static func folder(of path: String) -> String {
        let bytes = trimmed(path)
        guard !bytes.isEmpty else { return path.utf8.first == slash ? "/" : "" }
        guard let last = bytes.lastIndex(of: slash) else { return "" }
        var end = last
        while end > bytes.startIndex, bytes[end - 1] == slash { end -= 1 }
        return end == bytes.startIndex ? "/" : String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// The last component of `path`.
    public static func lastComponent(of path: String) -> String {
        let bytes = trimmed(path)
        guard !bytes.isEmpty else { return path.utf8.first == slash ? "/" : "" }
        let start = bytes.lastIndex(of: slash).map { $0 + 1 } ?? bytes.startIndex
        return String(decoding: bytes[start...], as: UTF8.self)
    }

    /// The extension of `path`'s last component, without its dot ("" when it has none).
    public static func pathExtension(of path: String) -> String {
        guard let (_, dotIndex, bytes) = extensionDot(path) else { return "" }
        return String(decoding: bytes[(dotIndex + 1)...], as: UTF8.self)
    }

    /// `path` without its last component's extension and the dot before it.
    public static func removingExtension(_ path: String) -> String {
        guard let (_, dotIndex, bytes) = extensionDot(path) else { return path }
        return String(decoding: bytes[..<dotIndex], as: UTF8.self)
    }

    /// The path's bytes without trailing `/`s.
    private static func trimmed(_ path: String) -> ArraySlice<UInt8> {
        var bytes = ArraySlice(Array(path.utf8))
        while bytes.last == slash { bytes.removeLast() }
        return bytes
    }

    /// Where the last component starts, its extension's dot, and the trimmed bytes; nil without an extension.
    private static func extensionDot(_ path: String) -> (start: Int, dot: Int, bytes: ArraySlice<UInt8>)? {
        let bytes = trimmed(path)
        let start = bytes.lastIndex(of: slash).map { $0 + 1 } ?? bytes.startIndex
        guard let dotIndex = bytes[start...].lastIndex(of: dot), dotIndex > start, dotIndex < bytes.endIndex - 1
        else { return nil }
        return (start, dotIndex, bytes)
    }
}
