import Foundation
import Synchronization

/// Reading the files Backdrop is given — pictures, scene files, golden manifests — whole, and only when they are
/// regular files (through symbolic links).
///
/// Contract: the file is opened without blocking (`O_NONBLOCK`, so a FIFO with no writer cannot hold the command)
/// and checked with `fstat` on the open descriptor before a byte is read: a directory, a FIFO, a device or a socket
/// is refused with a one-line error, and so is a file larger than `limit`. The check and the read are on the same
/// descriptor, so nothing swapped in between is read. Errors are `.badInput`: "PATH: cannot read WHAT (REASON)".
///
/// Once ``recordReads()`` was called (the CLI does, first thing), every file read is remembered by its device and
/// inode, whatever path or link reached it, and ``AtomicFile`` refuses to replace one (see `wasRead(_:)`).
public enum InputFile {
    /// A file's identity: the same for every path, link or hard link that reaches it.
    struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    static let recording = Atomic<Bool>(false)
    static let filesRead = Mutex<Set<Identity>>([])

    /// From now on, remember the files read, so that no output replaces one. A command calls it once.
    public static func recordReads() { recording.store(true, ordering: .relaxed) }

    /// Whether the regular file `status` describes was read while reads were recorded (``recordReads()``).
    static func wasRead(_ status: stat) -> Bool {
        guard recording.load(ordering: .relaxed) else { return false }
        let identity = Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        return filesRead.withLock { $0.contains(identity) }
    }

    /// The whole file at `path`; `what` names it in errors ("the file", "the scene file", "the manifest"). `-` is
    /// standard input (``StandardStreams``), held to the same `limit`.
    /// `recorded` false reads a file the command may then replace without being an input (a golden that
    /// `check --update failed` re-records).
    public static func bytes(
        of path: String, limit: Int = .max, what: String = "the file", recorded: Bool = true
    ) throws(BackdropError) -> [UInt8] {
        func failure(_ reason: String) -> BackdropError {
            BackdropError(.badInput, "\(path): cannot read \(what) (\(reason))")
        }
        if path == StandardStreams.name { return try StandardStreams.readInput(limit: limit, what: what) }
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
        if recorded, recording.load(ordering: .relaxed) {
            let identity = Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
            _ = filesRead.withLock { $0.insert(identity) }
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
