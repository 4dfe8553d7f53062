import Foundation

/// Writing a whole file or nothing.
public enum AtomicFile {
    /// Writes `bytes` to a temporary file in the destination's directory, then renames it to `path`.
    /// Errors name the path and the reason in one line.
    public static func write(_ bytes: [UInt8], to path: String) throws(BackdropError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw BackdropError(.output, "\(path): the directory \(directory) does not exist")
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw BackdropError(.output, "\(path): is a directory")
        }
        let temporary = directory + "/." + url.lastPathComponent + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else {
            throw BackdropError(.output, "\(path): cannot write (\(String(cString: strerror(errno))))")
        }
        var written = 0
        let ok: Bool = bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + written, raw.count - written)
                if n <= 0 { return false }
                written += n
            }
            return true
        }
        let writeErrno = errno
        if close(fd) != 0 || !ok {
            unlink(temporary)
            throw BackdropError(
                .output, "\(path): cannot write (\(String(cString: strerror(ok ? errno : writeErrno))))")
        }
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw BackdropError(.output, "\(path): cannot write (\(reason))")
        }
    }
}
