import CLibPNG
import Dispatch
import Synchronization

/// One zlib stream of a buffer, compressed in strips on several threads (`CLibPNG/backdrop_deflate_strips.c`).
///
/// Contract: the strips are ``stripBytes`` long (the last one shorter), cut by the data's size alone, so the bytes
/// are the same for any thread count; each strip is deflated by libdeflate at `level` without the window of the one
/// before it, made joinable (its final block un-finalled, an empty stored block after it) and appended; a zlib header
/// as libdeflate writes it and the Adler-32 of the whole buffer close the stream. Every decoder reads it as one
/// stream (pngcheck, libpng and zlib do in the tests). Below ``threshold`` bytes the caller writes one libdeflate
/// stream instead: small pictures keep their bytes, and their threads' start would cost more than it saves.
enum ZlibStrips {
    /// The length of a strip: 1 MiB, where the matches lost at each strip's start cost well under 1 % of the size.
    static let stripBytes = 1 << 20

    /// The smallest buffer compressed in strips: 4 MiB (a 1200 × 1200 RGB picture).
    static let threshold = 4 << 20

    /// The zlib stream of `data` at libdeflate `level`, its strips compressed by up to `threads` threads at once; nil
    /// when memory ran out.
    static func compress(_ data: UnsafeRawBufferPointer, level: Int32, threads: Int) -> [UInt8]? {
        let count = (data.count + stripBytes - 1) / stripBytes
        guard count > 0, let base = data.baseAddress else { return nil }
        let strips = Mutex<[Int: [UInt8]]>([:])
        let next = Atomic<Int>(0), failed = Atomic<Bool>(false)
        let address = UInt(bitPattern: base), size = data.count
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, count))) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                if index >= count || failed.load(ordering: .relaxed) { return }
                let start = index * stripBytes, length = min(stripBytes, size - start)
                var out: UnsafeMutablePointer<UInt8>?
                let written = bd_deflate_strip(
                    UnsafePointer(bitPattern: address + UInt(start)), length, level, index == count - 1 ? 1 : 0,
                    &out)
                guard written > 0, let out else {
                    failed.store(true, ordering: .relaxed)
                    return
                }
                let strip = Array(UnsafeBufferPointer(start: out, count: written))
                bd_png_free(out)
                strips.withLock { $0[index] = strip }
            }
        }
        if failed.load(ordering: .relaxed) { return nil }
        return strips.withLock { strips in
            var header: (UInt8, UInt8) = (0, 0)
            withUnsafeMutableBytes(of: &header) {
                bd_zlib_header(level, $0.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
            var stream = [header.0, header.1]
            stream.reserveCapacity(2 + strips.values.reduce(0) { $0 + $1.count } + 4)
            for index in 0..<count { stream += strips[index]! }
            let adler = bd_adler32(base.assumingMemoryBound(to: UInt8.self), size)
            stream += [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
            return stream
        }
    }
}
