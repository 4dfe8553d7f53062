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
///   across threads would need a sync flush, which libdeflate lacks and zlib does three times slower at this size).
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
            let status = bd_fast_png_encode(
                raw.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(image.width),
                UInt32(image.height), Int32(Sample.bitDepth), image.width * 4 * MemoryLayout<Sample>.size,
                opaque ? 1 : 0, compression.level, &out, &size)
            return Self.file(status: status, out, size, width: image.width, height: image.height)
        }
        return try result.get()
    }

    /// The PNG file's bytes, filtering the rows into `image`'s own buffer when it is an opaque 8-bit picture (no second
    /// picture-sized buffer: for 100 megapixels, 300 MB fewer to fault in); other pictures as ``encode(_:)`` does. The
    /// same bytes as ``encode(_:)``. `image` is left empty.
    public func encode<Sample: PixelSample>(destroying image: inout RGBAImage<Sample>) throws(BackdropError) -> [UInt8]
    {
        defer { image = RGBAImage(width: 0, height: 0, samples: []) }
        guard Sample.bitDepth == 8, image.width > 0, image.height > 0, Self.isOpaque(image) else {
            return try encode(image)
        }
        let (width, height) = (image.width, image.height)
        let result: Result<[UInt8], BackdropError> = image.samples.withUnsafeMutableBytes { raw in
            var out: UnsafeMutablePointer<UInt8>?
            var size = 0
            let status = bd_fast_png_encode_opaque_in_place(
                raw.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(width), UInt32(height),
                compression.level, &out, &size)
            return Self.file(status: status, out, size, width: width, height: height)
        }
        return try result.get()
    }

    /// The file the C encoder made (and frees here), or the error it met.
    static func file(
        status: Int32, _ out: UnsafeMutablePointer<UInt8>?, _ size: Int, width: Int, height: Int
    ) -> Result<[UInt8], BackdropError> {
        guard status == 0, let out else {
            return .failure(BackdropError(.output, "cannot encode PNG: out of memory (\(width)×\(height))"))
        }
        defer { bd_png_free(out) }
        return .success(Array(UnsafeBufferPointer(start: out, count: size)))
    }

    /// Whether every alpha sample is at its maximum.
    static func isOpaque<Sample: PixelSample>(_ image: RGBAImage<Sample>) -> Bool {
        image.samples.withUnsafeBytes { raw in
            bd_rgba_is_opaque(
                raw.baseAddress!.assumingMemoryBound(to: UInt8.self), image.width * image.height,
                Int32(Sample.bitDepth)) == 1
        }
    }

    /// Encodes and writes atomically: to a temporary file beside `path`, then renamed over it,
    /// so an existing file is never left half-written.
    public func write<Sample: PixelSample>(_ image: RGBAImage<Sample>, to path: String) throws(BackdropError) {
        try AtomicFile.write(try encode(image), to: path)
    }

    /// ``write(_:to:)`` by ``encode(destroying:)``: `image` is left empty.
    public func write<Sample: PixelSample>(
        destroying image: inout RGBAImage<Sample>, to path: String
    ) throws(BackdropError) {
        try AtomicFile.write(try encode(destroying: &image), to: path)
    }
}
