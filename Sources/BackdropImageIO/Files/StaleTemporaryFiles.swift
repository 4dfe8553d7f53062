import Foundation
import Synchronization

/// The temporary files ``AtomicFile`` names, and the sweep that removes those a killed run left behind.
///
/// Name: `.NAME.backdrop-HOST-PID-N.tmp`, where HOST is eight hex digits of a hash of the machine's host name, PID the
/// writing process and N its counter. A signal the process can catch removes its files (``AtomicFile``); SIGKILL
/// cannot be caught, so the next write into the same folder removes them instead: a file is stale when its name has
/// this form with this machine's HOST, it is a regular file (not a link) owned by this user, and no process with its
/// PID is alive. A file of a process on another machine or container sharing the folder (another HOST) is never
/// touched; a PID reused by an unrelated live process keeps its file until that process ends. The sweep reads at most
/// ``entriesRead`` names of a folder and runs once per folder per process.
public enum StaleTemporaryFiles {
    /// The most directory entries one sweep reads: a folder of millions of files costs a bounded time.
    public static let entriesRead = 100_000

    /// The part after NAME: `.backdrop-HOST-PID-N.tmp` (at most 1 + 9 + 8 + 1 + 10 + 1 + 20 + 4 = 54 bytes).
    public static func suffix(number: Int) -> String { ".backdrop-\(host)-\(getpid())-\(number).tmp" }

    /// The longest ``suffix(number:)``, with the leading dot of the hidden name.
    static let longestSuffix = 1 + 54

    /// Eight hex digits of FNV-1a over the host name.
    static let host: String = {
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count - 1)
        var hash: UInt32 = 0x811C_9DC5
        for byte in name.prefix(while: { $0 != 0 }) {
            hash = (hash ^ UInt32(UInt8(bitPattern: byte))) &* 0x0100_0193
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }()

    static let swept = Mutex<Set<String>>([])

    /// Removes the stale temporary files in `directory`, the first time this process writes there.
    static func sweepOnce(_ directory: String) {
        let first = swept.withLock { $0.insert(directory).inserted }
        if first { sweep(directory) }
    }

    /// Removes the stale temporary files in `directory` (see the type's contract); returns the names removed.
    @discardableResult
    public static func sweep(_ directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        let marker = ".backdrop-\(host)-"
        var removed: [String] = []
        var read = 0
        while read < entriesRead, let entry = readdir(stream) {
            read += 1
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard name.hasPrefix("."), name.hasSuffix(".tmp"),
                let markerRange = name.range(of: marker, options: .backwards)
            else { continue }
            let numbers = name[markerRange.upperBound...].dropLast(4).split(separator: "-")
            guard numbers.count == 2, let pid = pid_t(numbers[0]), pid > 0, Int(numbers[1]) != nil,
                pid != getpid()
            else { continue }
            let path = directory + "/" + name
            var status = stat()
            guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_uid == getuid() else {
                continue
            }
            if kill(pid, 0) == -1, errno == ESRCH, unlink(path) == 0 { removed.append(name) }
        }
        return removed
    }
}
