import Foundation

/// Where a path really leads, through symbolic links, for the rules that confine what Backdrop writes: a golden
/// manifest's files stay in its folder, and `check --output` stays out of it.
public enum FileLocation {
    /// `path` made absolute with the links of its deepest existing part resolved and the rest appended: where a
    /// file at `path` is, or would be created. Nil when no part of it resolves.
    public static func resolved(_ path: String) -> String? {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var existing = URL(fileURLWithPath: absolute).standardizedFileURL.path
        var rest: [String] = []
        var status = stat()
        while lstat(existing, &status) != 0 {
            guard existing != "/" else { return nil }
            rest.insert((existing as NSString).lastPathComponent, at: 0)
            existing = (existing as NSString).deletingLastPathComponent
        }
        guard let real = realpath(existing, nil) else { return nil }
        defer { free(real) }
        let base = String(cString: real)
        return rest.isEmpty ? base : (base == "/" ? "" : base) + "/" + rest.joined(separator: "/")
    }

    /// Whether `path` is `folder` or lies below it, through links.
    public static func lies(_ path: String, inside folder: String) -> Bool {
        guard let inner = resolved(path), let outer = resolved(folder) else { return false }
        return inner == outer || inner.hasPrefix(outer == "/" ? "/" : outer + "/")
    }
}
