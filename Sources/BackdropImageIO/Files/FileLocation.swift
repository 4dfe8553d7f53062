import Foundation

/// Where a path really leads, through symbolic links, for the rules that confine what Backdrop writes: a golden
/// manifest's files stay in its folder, and `check --output` stays out of it.
///
/// Plain string work and system calls (`getcwd`, `lstat`, `realpath`), no `URL` or `NSString`: every write asks,
/// and Foundation's first use of those cost a render some 0.3 ms (`docs/performance.md`).
public enum FileLocation {
    /// `path` made absolute with the links of its deepest existing part resolved and the rest appended: where a
    /// file at `path` is, or would be created. Nil when no part of it resolves.
    public static func resolved(_ path: String) -> String? {
        let absolute = path.hasPrefix("/") ? path : currentDirectory + "/" + path
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

    /// Whether `path` is `folder` or lies below it, through links.
    public static func lies(_ path: String, inside folder: String) -> Bool {
        guard let inner = resolved(path), let outer = resolved(folder) else { return false }
        return inner == outer || inner.hasPrefix(outer == "/" ? "/" : outer + "/")
    }

    /// An absolute path without empty and `.` components, each `..` taking away the component before it (none above
    /// the root), and no trailing `/`: what `URL.standardizedFileURL` makes of a file path, and the root as `/`.
    package static func standardized(_ absolute: String) -> String {
        var kept: [Substring] = []
        for part in absolute.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                if !kept.isEmpty { kept.removeLast() }
                continue
            }
            kept.append(part)
        }
        var result = ""
        for part in kept {
            result += "/"
            result += String(part)  // String += String: not the generic append(contentsOf:) a Substring takes
        }
        return result.isEmpty ? "/" : result
    }

    /// A standardized absolute path's folder and last component: `/a/b` is `/a` and `b`, `/a` is `/` and `a`.
    package static func split(_ standardized: String) -> (folder: String, name: String) {
        guard let slash = standardized.lastIndex(of: "/") else { return (".", standardized) }
        let folder = slash == standardized.startIndex ? "/" : String(standardized[..<slash])
        return (folder, String(standardized[standardized.index(after: slash)...]))
    }

    /// The working directory (`getcwd`); `.` when it cannot be had.
    static var currentDirectory: String {
        guard let directory = getcwd(nil, 0) else { return "." }
        defer { free(directory) }
        return String(cString: directory)
    }
}
