import CLibPNG
import Foundation

/// Encodes straight RGBA at 8 or 16 bits per sample as a PNG: not interlaced, with sRGB, gAMA and cHRM chunks, the
/// image data one zlib stream made by libdeflate (`CLibPNG/backdrop_fastpng.c`).
///
/// - Opaque pictures (every alpha at its maximum) are written as RGB (colour type 2): the same pixels in three
///   quarters of the bytes. Others as RGBA (colour type 6).
/// - Every row is filtered with "up": with libdeflate, as small as libpng's adaptive choice on photographs, at a
///   fraction of its time. ``Compression`` chooses the deflate level; `default` is what the commands write.
/// - Deterministic: the same pixels and compression give the same bytes, on any machine and thread count (one
///   stream, compressed on one thread: libdeflate cannot end a block without ending the stream, so a stream split
///   across threads would need zlib's sync flush, three times slower at this size).
/// - `PNGDecoder().decode(PNGEncoder().encode(x))` returns `x`.
public struct PNGEncoder: Sendable {
    /// Size against speed.
    public enum Compression: String, Sendable, CaseIterable {
        /// libdeflate level 1: the fastest; files some 5–15 % larger than `default`.
        case fast
        /// libdeflate level 2: on photographs and effect output about the size zlib's level 6 made, several times
        /// faster.
        case `default`
        /// libdeflate level 12: the smallest files (a quarter to a third smaller), dozens of times slower.
        case small

        var level: Int32 { self == .fast ? 1 : self == .default ? 2 : 12 }
    }

    /// The compression used.
    public var compression: Compression

    /// An encoder at `compression`.
    public init(compression: Compression = .default) {
        self.compression = compression
    }

    /// The PNG file's bytes.
    public func encode<Sample: PixelSample>(_ image: RGBAImage<Sample>) throws(BackdropError) -> [UInt8] {
        let opaque = Self.isOpaque(image)
        let result: Result<[UInt8], BackdropError> = image.samples.withUnsafeBytes { raw in
            var out: UnsafeMutablePointer<UInt8>?
            var size = 0
            let status = bd_fast_png_encode(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(image.width),
                                            UInt32(image.height), Int32(Sample.bitDepth), image.width * 4 * MemoryLayout<Sample>.size,
                                            opaque ? 1 : 0, compression.level, &out, &size)
            guard status == 0, let out else {
                return .failure(BackdropError(.output, "cannot encode PNG: out of memory (\(image.width)×\(image.height))"))
            }
            defer { bd_png_free(out) }
            return .success(Array(UnsafeBufferPointer(start: out, count: size)))
        }
        return try result.get()
    }

    /// Whether every alpha sample is at its maximum.
    static func isOpaque<Sample: PixelSample>(_ image: RGBAImage<Sample>) -> Bool {
        image.samples.withUnsafeBytes { raw in
            bd_rgba_is_opaque(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), image.width * image.height,
                              Int32(Sample.bitDepth)) == 1
        }
    }

    /// Encodes and writes atomically: to a temporary file beside `path`, then renamed over it,
    /// so an existing file is never left half-written.
    public func write<Sample: PixelSample>(_ image: RGBAImage<Sample>, to path: String) throws(BackdropError) {
        try AtomicFile.write(try encode(image), to: path)
    }
}

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
            throw BackdropError(.output, "\(path): cannot write (\(String(cString: strerror(ok ? errno : writeErrno))))")
        }
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw BackdropError(.output, "\(path): cannot write (\(reason))")
        }
    }
}
