import Foundation

/// Where a path really leads, through symbolic links, for the rules that confine what Backdrop writes: a golden
/// manifest's files stay in its folder, and `check --output` stays out of it.
///
/// Byte work on the paths' UTF-8 and system calls (`getcwd`, `lstat`, `realpath`), no `URL` or `NSString`: every
/// write asks, and their first use was part of a render's serial start (docs/performance.md, "The serial path's small
/// costs").
public enum FileLocation {
    /// `path` made absolute with the links of its deepest existing part resolved and the rest appended: where a
    /// file at `path` is, or would be created. Nil when no part of it resolves, or a relative path meets a working
    /// directory that cannot be had.
    public static func resolved(_ path: String) -> String? {
        let absolute: String
        if path.utf8.first == UInt8(ascii: "/") {  // bytes: "/" and a combining mark are one Character
            absolute = path
        } else {
            guard let directory = currentDirectory else { return nil }
            absolute = directory + "/" + path
        }
        var existing = standardized(absolute)
        var rest: [String] = []
        var status = stat()
        while lstat(existing, &status) != 0 {
            guard existing != "/" else { return nil }
            let (folder, name) = split(existing)
            rest.insert(name, at: 0)
            existing = folder
        }
        guard let real = realpath(existing, nil) else { return nil }
        defer { free(real) }
        var result = String(cString: real)
        for name in rest { result += (result == "/" ? "" : "/") + name }
        return result
    }

    /// Whether `path` is `folder` or lies below it, through links (compared byte for byte, as the kernel does).
    public static func lies(_ path: String, inside folder: String) -> Bool {
        guard let inner = resolved(path), let outer = resolved(folder) else { return false }
        return inner == outer || inner.utf8.starts(with: (outer == "/" ? "/" : outer + "/").utf8)
    }

    /// An absolute path without empty and `.` components, each `..` taking away the component before it (none above
    /// the root), and no trailing `/`: what `URL.standardizedFileURL` makes of a file path, and the root as `/`.
    /// Components are split at every `/` byte, as the kernel splits them: a `/` followed by a combining mark is one
    /// `Character` of a Swift string, but still a separator.
    package static func standardized(_ absolute: String) -> String {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        var kept: [ArraySlice<UInt8>] = []
        for part in Array(absolute.utf8).split(separator: slash) {
            if part.count == 1, part.first == dot { continue }
            if part.count == 2, part.allSatisfy({ $0 == dot }) {
                if !kept.isEmpty { kept.removeLast() }
                continue
            }
            kept.append(part)
        }
        var result: [UInt8] = []
        for part in kept {
            result.append(slash)
            result.append(contentsOf: part)
        }
        return result.isEmpty ? "/" : String(decoding: result, as: UTF8.self)
    }

    /// A standardized absolute path's folder and last component, split at its last `/` byte: `/a/b` is `/a` and `b`,
    /// `/a` is `/` and `a`.
    package static func split(_ standardized: String) -> (folder: String, name: String) {
        let bytes = Array(standardized.utf8)
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return (".", standardized) }
        let folder = slash == 0 ? "/" : String(decoding: bytes[..<slash], as: UTF8.self)
        return (folder, String(decoding: bytes[(slash + 1)...], as: UTF8.self))
    }

    /// The working directory (`getcwd`); nil when it cannot be had.
    static var currentDirectory: String? {
        guard let directory = getcwd(nil, 0) else { return nil }
        defer { free(directory) }
        return String(cString: directory)
    }
}
