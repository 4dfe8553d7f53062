import Foundation

/// The memory this process may allocate at most: the smaller of the machine's physical memory and the soft limits on
/// its address space and data segment (`ulimit -v`, `ulimit -d`).
///
/// Contract: a decoder asks it before allocating a picture-sized buffer, so that a picture no allocation could hold
/// is a one-line error rather than an abort inside the allocator (a 65536² 16-bit header under a 16 GB cap ended with
/// exit 134). It is an upper bound, not a promise: what the rest of the process holds is not subtracted, and memory
/// overcommitted by the kernel may still run out later.
enum ProcessMemory {
    /// Bytes, or `Int.max` when nothing limits it.
    static var allocatableBytes: Int {
        var bytes =
            ProcessInfo.processInfo.physicalMemory > UInt64(Int.max)
            ? Int.max : Int(ProcessInfo.processInfo.physicalMemory)
        for resource in [RLIMIT_AS, RLIMIT_DATA] {
            var limit = rlimit()
            if getrlimit(__rlimit_resource_t(resource.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max,
                limit.rlim_cur < UInt64(Int.max)
            {
                bytes = min(bytes, Int(limit.rlim_cur))
            }
        }
        return bytes
    }

    /// Throws a `.badInput` error naming `name` when `bytes` are more than ``allocatableBytes``.
    static func check(_ bytes: Int, for name: String, what: String) throws(BackdropError) {
        let available = allocatableBytes
        guard bytes > available else { return }
        func gigabytes(_ value: Int) -> String { String(format: "%.1f GB", Double(value) / 1e9) }
        throw BackdropError(
            .badInput,
            "\(name): \(what) needs \(gigabytes(bytes)), more than this process may allocate (\(gigabytes(available)))")
    }
}
