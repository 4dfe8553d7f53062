import CLibPNG
import Dispatch
import Synchronization

/// One zlib stream of a buffer, compressed in strips on several threads (`CLibPNG/backdrop_deflate_strips.c`).
///
/// Contract: the strips are cut by the data's size alone (``strips(of:)``), so the bytes are the same for any thread
/// count; each strip is deflated by libdeflate at `level` without the window of the one before it, made joinable (its
/// final block un-finalled, an empty stored block after it) and appended; a zlib header as libdeflate writes it and
/// the Adler-32 of the whole buffer (the strips' Adler-32s, computed on their threads, combined) close the stream.
/// Every decoder reads it as one stream (pngcheck, libpng and zlib do in the tests). Below ``threshold`` bytes the
/// caller writes one libdeflate stream instead: small pictures keep their bytes, and their threads' start would cost
/// more than it saves.
enum ZlibStrips {
    /// The longest strip: 1 MiB, where the matches lost at each strip's start cost well under 0.1 % of the size.
    static let stripBytes = 1 << 20

    /// The smallest buffer compressed in strips: 4 MiB (a 1200 × 1200 RGB picture).
    static let threshold = 4 << 20

    /// The strips of `size` bytes: the fewest of at most ``stripBytes``, rounded up to a multiple of 4 so that 2 or 4
    /// cores get the same share each, of equal length (the last one shorter by the rounding): `(count, length)`.
    static func strips(of size: Int) -> (count: Int, length: Int) {
        let fewest = (size + stripBytes - 1) / stripBytes
        let count = max(4, (fewest + 3) / 4 * 4)
        let length = (size + count - 1) / count
        return ((size + length - 1) / length, length)
    }

    /// The zlib stream of `data` at libdeflate `level`, its strips compressed by up to `threads` threads at once; nil
    /// when memory ran out.
    static func compress(_ data: UnsafeRawBufferPointer, level: Int32, threads: Int) -> [UInt8]? {
        guard data.count > 0, let base = data.baseAddress else { return nil }
        let (count, stripLength) = strips(of: data.count)
        let strips = Mutex<[Int: (stream: [UInt8], adler: UInt32)]>([:])
        let next = Atomic<Int>(0), failed = Atomic<Bool>(false)
        let address = UInt(bitPattern: base), size = data.count
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, count))) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                if index >= count || failed.load(ordering: .relaxed) { return }
                let start = index * stripLength, length = min(stripLength, size - start)
                let strip = UnsafePointer<UInt8>(bitPattern: address + UInt(start))
                var out: UnsafeMutablePointer<UInt8>?
                let written = bd_deflate_strip(strip, length, level, index == count - 1 ? 1 : 0, &out)
                guard written > 0, let out else {
                    failed.store(true, ordering: .relaxed)
                    return
                }
                let stream = Array(UnsafeBufferPointer(start: out, count: written))
                bd_png_free(out)
                let adler = bd_adler32(strip, length)
                strips.withLock { $0[index] = (stream, adler) }
            }
        }
        if failed.load(ordering: .relaxed) { return nil }
        return strips.withLock { strips in
            var header: (UInt8, UInt8) = (0, 0)
            withUnsafeMutableBytes(of: &header) {
                bd_zlib_header(level, $0.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
            var stream = [header.0, header.1]
            stream.reserveCapacity(2 + strips.values.reduce(0) { $0 + $1.stream.count } + 4)
            var adler: UInt32 = 1
            for index in 0..<count {
                stream += strips[index]!.stream
                let length = min(stripLength, size - index * stripLength)
                adler = bd_adler32_combine(adler, strips[index]!.adler, length)
            }
            stream += [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
            return stream
        }
    }
}
