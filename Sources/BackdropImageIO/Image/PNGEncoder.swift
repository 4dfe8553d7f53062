import CLibPNG
import Foundation

/// Encodes straight RGBA at 8 or 16 bits per sample as a PNG: not interlaced, with sRGB, gAMA and cHRM chunks (or the
/// chunks of ``colorSpace``), the image data one zlib stream: 8-bit pictures at ``Compression/default`` and
/// ``Compression/fast`` by our own encoder (`CLibPNG/backdrop_png_fast_encoder.c`), the rest by libdeflate
/// (`CLibPNG/backdrop_fastpng.c`).
///
/// - Opaque pictures (every alpha at its maximum) are written as RGB (colour type 2): the same pixels in three
///   quarters of the bytes. Others as RGBA (colour type 6).
/// - 8-bit pictures at ``Compression/default`` and ``Compression/fast`` (up to 65,536 pixels wide) go to an encoder
///   of fpnge's kind: each row's filter chosen by an estimate, one Huffman code for the picture, zero runs as copies,
///   strips of rows on ``threads`` threads (whatever the picture's size), in AVX2 where the CPU has it; the same
///   bytes for any thread count and CPU. ``Compression`` chooses; `default` is what the commands write.
/// - 16-bit pictures, wider ones, and ``Compression/small``: every row filtered with "up" (with libdeflate, as small
///   as libpng's adaptive choice on photographs, at a fraction of its time), deflated by libdeflate at the
///   compression's level.
/// - Deterministic: the same pixels and compression give the same bytes, on any machine and thread count. Our encoder
///   cuts the rows into strips of about 512 KiB whatever the picture's size; on libdeflate's path, filtered rows of
///   4 MiB or more are deflated in strips of at most 1 MiB on ``threads`` threads and joined into one stream
///   (`ZlibStrips`), smaller ones in one stream on one thread.
/// - `PNGDecoder().decode(PNGEncoder().encode(x))` returns `x`.
public struct PNGEncoder: Sendable {
    /// Size against speed.
    public enum Compression: String, Sendable, CaseIterable {
        /// The fastest. 8-bit pictures up to ``PNGEncoder/ownEncoderWidth`` wide: `default`'s encoder and bytes (its trial of five
        /// filters a row costs about 8 % of its time; filtering every row "up" instead made the wallpaper's render
        /// 5.8 % larger, 1,148,341 bytes, a C probe). 16-bit and wider pictures: libdeflate level 1, files some
        /// 5–15 % larger than `default`.
        case fast
        /// 8-bit pictures up to ``PNGEncoder/ownEncoderWidth`` wide: our encoder of fpnge's kind
        /// (`CLibPNG/backdrop_png_fast_encoder.h`), each row's filter chosen, in about a quarter of libdeflate level
        /// 1's time on one thread (docs/performance.md). Against libdeflate level 2 (this level until issue 49), as
        /// measured there: on the wallpaper's render (`render wallpaper-2048x1536.png --scale 2`) 1,085,622 bytes,
        /// 2.9 % more; on the fixtures' photographs 2–8 % less, on their blurred renders 3 % less to 9 % more.
        /// 16-bit and wider pictures: libdeflate level 2, about the size zlib's level 6 made, several times faster.
        case `default`
        /// libdeflate level 12: the smallest files (a quarter to a third smaller), dozens of times slower.
        case small

        var level: Int32 { self == .fast ? 1 : self == .default ? 2 : 12 }
    }

    /// The compression used.
    public var compression: Compression

    /// The most threads that deflate strips at once (≥ 1): the bytes do not depend on it.
    public var threads: Int

    /// The space the samples are in, written right after IHDR: sRGB (the default) as sRGB, gAMA and cHRM chunks; a
    /// profile as an iCCP chunk (zlib-compressed, "ICC Profile"); H.273 codes as a cICP chunk (matrix 0, full range);
    /// untagged as no colour chunk (`--color-space keep`). The file is made once with its chunks: no copy of it.
    public var colorSpace: PictureColorSpace

    /// An encoder at `compression`, deflating on up to `threads` threads (default: every core), tagging the file with
    /// `colorSpace`.
    public init(
        compression: Compression = .default, threads: Int = ProcessInfo.processInfo.activeProcessorCount,
        colorSpace: PictureColorSpace = .sRGB
    ) {
        self.compression = compression
        self.threads = max(1, threads)
        self.colorSpace = colorSpace
    }

    /// Calls `body` with the colour chunks to write in place of the sRGB ones (a NULL address for sRGB's own;
    /// a non-NULL one of 0 bytes for none).
    func withColorChunks<Result>(
        _ body: (UnsafePointer<UInt8>?, Int) -> Result
    ) throws(BackdropError) -> Result {
        guard let chunks = try colorSpace.pngColorChunks() else { return body(nil, 0) }
        return chunks.withUnsafeBufferPointer { buffer in
            guard let address = buffer.baseAddress else { return withUnsafePointer(to: UInt8(0)) { body($0, 0) } }
            return body(address, buffer.count)
        }
    }

    /// Bytes of the filtered rows of a `width` × `height` picture written with `channels` samples of `sampleBytes`.
    static func filteredSize(width: Int, height: Int, channels: Int, sampleBytes: Int) -> Int {
        height * (1 + width * channels * sampleBytes)
    }

    /// The file around the zlib stream of the `filtered` rows, compressed in strips.
    func file(
        stripping filtered: UnsafeRawBufferPointer, width: Int, height: Int, bitDepth: Int, opaque: Bool
    ) -> Result<[UInt8], BackdropError> {
        guard let stream = ZlibStrips.compress(filtered, level: compression.level, threads: threads) else {
            return .failure(BackdropError(.output, "cannot encode PNG: out of memory (\(width)×\(height))"))
        }
        do {
            return try withColorChunks { colour, colourSize in
                stream.withUnsafeBufferPointer { stream in
                    var out: UnsafeMutablePointer<UInt8>?
                    var size = 0
                    let status = bd_fast_png_wrap(
                        stream.baseAddress, stream.count, UInt32(width), UInt32(height), Int32(bitDepth),
                        opaque ? 1 : 0, colour, colourSize, &out, &size)
                    return Self.file(status: status, out, size, width: width, height: height)
                }
            }
        } catch { return .failure(error) }
    }

    /// The PNG file's bytes.
    public func encode<Sample: PixelSample>(_ image: RGBAImage<Sample>) throws(BackdropError) -> [UInt8] {
        let opaque = Self.isOpaque(image)
        if usesOwnEncoder(image) {
            return try fastFile(image, opaque: opaque)
        }
        let filteredSize = Self.filteredSize(
            width: image.width, height: image.height, channels: opaque ? 3 : 4, sampleBytes: Sample.bitDepth / 8)
        if filteredSize >= ZlibStrips.threshold {
            var filtered = [UInt8](repeating: 0, count: 0)
            var ok = false
            image.samples.withUnsafeBytes { raw in
                filtered = [UInt8](unsafeUninitializedCapacity: filteredSize) { buffer, initialized in
                    ok =
                        bd_fast_png_filter(
                            raw.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(image.width),
                            UInt32(image.height), Int32(Sample.bitDepth), image.width * 4 * MemoryLayout<Sample>.size,
                            opaque ? 1 : 0, buffer.baseAddress!) == 1
                    initialized = filteredSize
                }
            }
            guard ok else {
                throw BackdropError(.output, "cannot encode PNG: out of memory (\(image.width)×\(image.height))")
            }
            return try filtered.withUnsafeBytes {
                file(stripping: $0, width: image.width, height: image.height, bitDepth: Sample.bitDepth, opaque: opaque)
            }.get()
        }
        let result: Result<[UInt8], BackdropError> = try withColorChunks { colour, colourSize in
            image.samples.withUnsafeBytes { raw in
                var out: UnsafeMutablePointer<UInt8>?
                var size = 0
                let status = bd_fast_png_encode(
                    raw.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(image.width),
                    UInt32(image.height), Int32(Sample.bitDepth), image.width * 4 * MemoryLayout<Sample>.size,
                    opaque ? 1 : 0, compression.level, colour, colourSize, &out, &size)
                return Self.file(status: status, out, size, width: image.width, height: image.height)
            }
        }
        return try result.get()
    }

    /// The PNG file's bytes, filtering the rows into `image`'s own buffer when it is an opaque 8-bit picture deflated by
    /// libdeflate (``Compression/small``: no second picture-sized buffer, for 100 megapixels 300 MB fewer to fault in;
    /// our encoder, at the other levels, filters a row at a time and needs none); other pictures as ``encode(_:)``
    /// does. The same bytes as ``encode(_:)``. `image` is left empty.
    public func encode<Sample: PixelSample>(destroying image: inout RGBAImage<Sample>) throws(BackdropError) -> [UInt8]
    {
        defer { image = RGBAImage(width: 0, height: 0, samples: []) }
        guard !usesOwnEncoder(image), Sample.bitDepth == 8, image.width > 0, image.height > 0, Self.isOpaque(image)
        else {
            return try encode(image)
        }
        let (width, height) = (image.width, image.height)
        let filteredSize = Self.filteredSize(width: width, height: height, channels: 3, sampleBytes: 1)
        if filteredSize >= ZlibStrips.threshold {
            let result: Result<[UInt8], BackdropError> = image.samples.withUnsafeMutableBytes { raw in
                let pixels = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                guard bd_fast_png_filter(pixels, UInt32(width), UInt32(height), 8, width * 4, 1, pixels) == 1 else {
                    return .failure(BackdropError(.output, "cannot encode PNG: out of memory (\(width)×\(height))"))
                }
                return file(
                    stripping: UnsafeRawBufferPointer(start: pixels, count: filteredSize), width: width,
                    height: height, bitDepth: 8, opaque: true)
            }
            return try result.get()
        }
        let result: Result<[UInt8], BackdropError> = try withColorChunks { colour, colourSize in
            image.samples.withUnsafeMutableBytes { raw in
                var out: UnsafeMutablePointer<UInt8>?
                var size = 0
                let status = bd_fast_png_encode_opaque_in_place(
                    raw.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(width), UInt32(height),
                    compression.level, colour, colourSize, &out, &size)
                return Self.file(status: status, out, size, width: width, height: height)
            }
        }
        return try result.get()
    }

    /// The widest picture our encoder takes: it holds seven rows a thread (the rows above and at hand, five filtered
    /// candidates), 1.5 MB at this width; wider ones (a 9,000,000 × 1 picture held 190 MB) go to libdeflate, which
    /// filters in place.
    public static let ownEncoderWidth = 1 << 16

    /// Whether `image` goes to our encoder at this compression (8-bit, not empty, at most ``PNGEncoder/ownEncoderWidth`` wide, at
    /// `default` and `fast`) rather than to libdeflate.
    func usesOwnEncoder<Sample: PixelSample>(_ image: RGBAImage<Sample>) -> Bool {
        Sample.bitDepth == 8 && compression != .small && image.width > 0 && image.height > 0
            && image.width <= Self.ownEncoderWidth
    }

    /// The file of an 8-bit, non-empty `image` by our encoder on ``threads`` threads, written as RGB when `opaque`;
    /// `vectorKernels` false runs its portable loops (the same bytes).
    func fastFile<Sample: PixelSample>(
        _ image: RGBAImage<Sample>, opaque: Bool, vectorKernels: Bool = true
    ) throws(BackdropError) -> [UInt8] {
        try withFastFile(image, opaque: opaque, vectorKernels: vectorKernels) { Array($0) }
    }

    /// `body` given the file ``fastFile(_:opaque:vectorKernels:)`` makes, in the C encoder's buffer, freed after it.
    func withFastFile<Sample: PixelSample, Answer>(
        _ image: RGBAImage<Sample>, opaque: Bool, vectorKernels: Bool = true,
        _ body: (UnsafeRawBufferPointer) throws(BackdropError) -> Answer
    ) throws(BackdropError) -> Answer {
        precondition(Sample.bitDepth == 8 && image.width > 0 && image.height > 0)
        let (status, out, size): (Int32, UnsafeMutablePointer<UInt8>?, Int) = try withColorChunks {
            colour, colourSize in
            image.samples.withUnsafeBytes { raw in
                var out: UnsafeMutablePointer<UInt8>?
                var size = 0
                let status = bd_png_fast_encoder_encode(
                    raw.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(image.width), UInt32(image.height),
                    image.width * 4, opaque ? 1 : 0, Int32(clamping: threads), vectorKernels ? 1 : 0, colour,
                    colourSize, &out, &size)
                return (status, out, size)
            }
        }
        return try Self.withFile(status: status, out, size, width: image.width, height: image.height, body)
    }

    /// The file the C encoder made (and frees here), or the error it met.
    static func file(
        status: Int32, _ out: UnsafeMutablePointer<UInt8>?, _ size: Int, width: Int, height: Int
    ) -> Result<[UInt8], BackdropError> {
        Result { () throws(BackdropError) in
            try withFile(status: status, out, size, width: width, height: height) { Array($0) }
        }
    }

    /// `body` given the file the C encoder made, which is freed after it; the error it met instead.
    static func withFile<Answer>(
        status: Int32, _ out: UnsafeMutablePointer<UInt8>?, _ size: Int, width: Int, height: Int,
        _ body: (UnsafeRawBufferPointer) throws(BackdropError) -> Answer
    ) throws(BackdropError) -> Answer {
        guard status == 0, let out else {
            throw BackdropError(.output, "cannot encode PNG: out of memory (\(width)×\(height))")
        }
        defer { bd_png_free(out) }
        return try body(UnsafeRawBufferPointer(start: out, count: size))
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

    /// ``write(_:to:)`` by ``encode(destroying:)``: `image` is left empty. A picture our encoder takes is written
    /// from its buffer, not copied into an array first (the wallpaper's render: 1 MB).
    public func write<Sample: PixelSample>(
        destroying image: inout RGBAImage<Sample>, to path: String
    ) throws(BackdropError) {
        if usesOwnEncoder(image) {
            defer { image = RGBAImage(width: 0, height: 0, samples: []) }
            return try withFastFile(image, opaque: Self.isOpaque(image)) { (file) throws(BackdropError) in
                try AtomicFile.write(raw: file, to: path)
            }
        }
        try AtomicFile.write(try encode(destroying: &image), to: path)
    }
}
