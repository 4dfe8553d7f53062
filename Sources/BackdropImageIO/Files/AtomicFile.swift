import CTemporaryFiles
import Foundation
import Synchronization

/// Writing a whole file or nothing, and nothing but the file named.
///
/// Contract, by what the path names (through symbolic links):
/// - nothing yet, or a regular file: the bytes go to a new hidden file beside the target,
///   `.NAME.backdrop-HOST-PID-N.tmp` (NAME cut to keep it within 255 bytes; the files a killed run left in the folder
///   are removed first, as `StaleTemporaryFiles` says),
///   created with `O_EXCL | O_NOFOLLOW` (a file or link planted under that name is never followed or reused; the
///   counter N keeps threads of one process apart), which is renamed over the target once complete. A reader sees
///   the old file or the new one, never part of either. A symbolic link stays: its target is replaced. On an error
///   the temporary file is removed, and on SIGINT, SIGTERM, SIGHUP or SIGXFSZ too once ``removeTemporaryFilesOnSignals()``
///   was called.
/// - a character device or a FIFO (`/dev/null`, `/dev/stdout` on a terminal or a pipe, a named pipe): written
///   directly, never replaced; a FIFO that no process reads is an error, not a wait.
/// - a directory, a block device, a socket, a link to nothing, a missing folder: a one-line error, nothing written.
///
/// - a file this command read (``InputFile/recordReads()``), through any link or hard link: refused with a
///   `.badOption` error naming it, nothing written, unless ``allowReplacingInputs()`` was called (`--force`).
///
/// Errors are `.output` and name the path.
public enum AtomicFile {
    /// Numbers the temporary files of this process.
    static let counter = Atomic<Int>(0)
    static let replacesInputs = Atomic<Bool>(false)

    /// From now on, a file this command read may be replaced (`render --force`).
    public static func allowReplacingInputs() { replacesInputs.store(true, ordering: .relaxed) }

    /// Writes `bytes` to `path` as the contract above says; `-` is standard output (``StandardStreams``).
    public static func write(_ bytes: [UInt8], to path: String) throws(BackdropError) {
        let result: Result<Void, BackdropError> = bytes.withUnsafeBytes { raw in
            Result { () throws(BackdropError) in try write(raw: raw, to: path) }
        }
        try result.get()
    }

    /// ``write(_:to:)`` of bytes the caller holds elsewhere (a C encoder's buffer), without copying them first.
    static func write(raw bytes: UnsafeRawBufferPointer, to path: String) throws(BackdropError) {
        func failure(_ reason: String) -> BackdropError { BackdropError(.output, "\(path): \(reason)") }
        if path == StandardStreams.name { return try StandardStreams.writeOutput(bytes) }
        var status = stat()
        if stat(path, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                if !replacesInputs.load(ordering: .relaxed), InputFile.wasRead(status) {
                    throw BackdropError(
                        .badOption,
                        "\(path): is a file this command reads; write elsewhere, or pass --force to replace it")
                }
            case S_IFCHR: return try writeDirectly(bytes, to: path, fifo: false)
            case S_IFIFO: return try writeDirectly(bytes, to: path, fifo: true)
            case S_IFDIR: throw failure("is a directory")
            default: throw failure("is not a regular file, a character device or a FIFO: not replaced")
            }
        } else {
            var link = stat()
            if lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK {
                throw failure("is a symbolic link to a missing file")
            }
        }
        // A link's target is replaced, not the link.
        let target = FileLocation.resolved(path) ?? path
        let (directory, name) = Self.directoryAndName(target)
        var folder = stat()
        guard stat(directory, &folder) == 0, (folder.st_mode & S_IFMT) == S_IFDIR else {
            throw failure("the directory \(directory) does not exist")
        }
        StaleTemporaryFiles.sweepOnce(directory)
        var temporary = "", fd: Int32 = -1
        for _ in 0..<100 {
            let number = counter.add(1, ordering: .relaxed).newValue
            temporary =
                directory + "/." + Self.shortened(name) + StaleTemporaryFiles.suffix(number: number)
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw failure("cannot write (\(String(cString: strerror(errno))))") }
        let slot = bd_tempfile_remember(temporary)
        defer { bd_tempfile_forget(slot) }
        let (ok, writeErrno) = writeAll(bytes, to: fd)
        if close(fd) != 0 || !ok {
            let reason = String(cString: strerror(ok ? errno : writeErrno))
            unlink(temporary)
            throw failure("cannot write (\(reason))")
        }
        if rename(temporary, target) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw failure("cannot write (\(reason))")
        }
    }

    /// The folder a file at `target` is in, and its name: split at the last `/` of the path made absolute (a relative
    /// one joined to the working directory, or to "." when there is none) and standardized. No Foundation path code:
    /// it traps on some relative names (``PathComponents``).
    static func directoryAndName(_ target: String) -> (directory: String, name: String) {
        let absolute =
            target.utf8.first == UInt8(ascii: "/") ? target : (FileLocation.currentDirectory ?? ".") + "/" + target
        let (folder, name) = FileLocation.split(FileLocation.standardized(absolute))
        return (folder, name)
    }

    /// `name` cut, on a character's boundary, to what leaves a temporary name (the leading `.` and the suffix)
    /// within the 255 bytes a file name may have: a legal output name keeps a legal temporary one.
    static func shortened(_ name: String) -> String {
        var kept = Substring(name)
        while kept.utf8.count > 255 - StaleTemporaryFiles.longestSuffix { kept = kept.dropLast() }
        return String(kept)
    }

    /// From now on, SIGINT, SIGTERM, SIGHUP and SIGXFSZ remove the temporary files being written before the process ends
    /// as the signal says (where the program has not set its own handling of the signal). The CLI calls it once.
    public static func removeTemporaryFilesOnSignals() {
        bd_tempfile_remove_on_signals()
    }

    /// A device or a FIFO, written in place.
    static func writeDirectly(_ bytes: UnsafeRawBufferPointer, to path: String, fifo: Bool) throws(BackdropError) {
        let fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (fifo ? O_NONBLOCK : 0))
        guard fd >= 0 else {
            let reason = fifo && errno == ENXIO ? "no process reads the FIFO" : String(cString: strerror(errno))
            throw BackdropError(.output, "\(path): cannot write (\(reason))")
        }
        if fifo { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }
        let (ok, writeErrno) = writeAll(bytes, to: fd)
        let closed = close(fd) == 0
        guard ok, closed else {
            throw BackdropError(
                .output, "\(path): cannot write (\(String(cString: strerror(ok ? errno : writeErrno))))")
        }
    }

    /// Every byte to `fd`, retrying on interruptions; whether it went, and errno when it did not.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> (Bool, Int32) {
        var written = 0
        while written < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + written, bytes.count - written)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return (false, errno) }
            written += n
        }
        return (true, errno)
    }
}
