import Foundation

/// Reading the files Backdrop is given — pictures, scene files, golden manifests — whole, and only when they are
/// regular files (through symbolic links).
///
/// Contract: the file is opened without blocking (`O_NONBLOCK`, so a FIFO with no writer cannot hold the command)
/// and checked with `fstat` on the open descriptor before a byte is read: a directory, a FIFO, a device or a socket
/// is refused with a one-line error, and so is a file larger than `limit`. The check and the read are on the same
/// descriptor, so nothing swapped in between is read. Errors are `.badInput`: "PATH: cannot read WHAT (REASON)".
public enum InputFile {
    /// The whole file at `path`; `what` names it in errors ("the file", "the scene file", "the manifest").
    public static func bytes(of path: String, limit: Int = .max, what: String = "the file") throws(BackdropError)
        -> [UInt8]
    {
        func failure(_ reason: String) -> BackdropError {
            BackdropError(.badInput, "\(path): cannot read \(what) (\(reason))")
        }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw failure(errno == ENOENT ? "no such file" : String(cString: strerror(errno))) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw failure(String(cString: strerror(errno))) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw failure("is a directory")
        default: throw failure("not a regular file")
        }
        let size = Int(status.st_size)
        guard size <= limit else { throw failure("larger than \(limit) bytes") }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var failed: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            while initialized < size {
                let n = read(fd, buffer.baseAddress! + initialized, size - initialized)
                if n < 0, errno == EINTR { continue }
                if n <= 0 {
                    failed = n < 0 ? errno : 0
                    break
                }
                initialized += n
            }
        }
        if failed != 0 { throw failure(String(cString: strerror(failed))) }
        return bytes
    }

    /// Whether `a` and `b` name the same file, through symbolic links (device and inode); false when either is
    /// missing. The "never overwrite the input without --force" guard and `compare --diff` use it.
    public static func same(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
}
