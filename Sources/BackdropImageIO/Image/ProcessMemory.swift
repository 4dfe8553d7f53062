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
        // The machine's physical memory, its pages × their size, then each limit in turn (two calls, not a loop
        // over an array of them: that array's type the runtime would build by name on a process's first decode).
        let pages = sysconf(Int32(_SC_PHYS_PAGES)), pageSize = sysconf(Int32(_SC_PAGESIZE))
        var bytes =
            pages > 0 && pageSize > 0 && pages <= Int.max / pageSize ? pages * pageSize : Int.max
        func cap(_ resource: __rlimit_resource) {
            var limit = rlimit()
            if getrlimit(__rlimit_resource_t(resource.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max,
                limit.rlim_cur < UInt64(Int.max)
            {
                bytes = min(bytes, Int(limit.rlim_cur))
            }
        }
        cap(RLIMIT_AS)
        cap(RLIMIT_DATA)
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
