import CJPEG
import CWebP
import Foundation

/// Decodes any picture Backdrop reads (PNG, JPEG, WebP, HEIF) to straight 8-bit RGBA, choosing the decoder by the
/// file's first bytes (``ImageFormat``), not by its name.
///
/// Contract:
/// - PNG: exactly ``PNGDecoder``'s pixels (the same limits, colour rules and errors).
/// - JPEG (libjpeg-turbo, through `CJPEG`, which keeps libjpeg's longjmp inside C): baseline and progressive,
///   greyscale and YCbCr to RGB, CMYK/YCCK converted naively (Adobe's inverted samples, no profile); the EXIF
///   orientation (1–8) applied, so the picture is upright as a viewer shows it. A file that ends early is an error.
/// - WebP (libwebp, still pictures, lossy and lossless, alpha kept); an animated WebP is refused.
/// - HEIF (libheif with libde265): the primary image, its transformations (`irot`, `imir`) applied and its alpha
///   kept; its `colr` profile (ICC or nclx) converted to sRGB.
/// - Colour: a JPEG's (APP2) or WebP's (ICCP) embedded RGB ICC profile is converted to sRGB by Little CMS
///   (relative colorimetric, alpha untouched), before the effect; a profile Little CMS cannot read is one warning
///   line on standard error and the samples are taken as sRGB; without a profile they are sRGB. A PNG's colour
///   chunks are ``PNGDecoder``'s.
/// - `--color-space keep` (``decodeKeepingColorSpace(_:name:)``): nothing converted; the samples as stored and the
///   space the file describes (``PictureColorSpace``), for the output to carry.
/// - Limits: width × height from the header is checked against `maxPixels`, and the decoding buffers against
///   what the process may allocate (its memory and `ulimit -v`), before any pixel buffer is allocated.
/// - Errors: a ``BackdropError`` of kind `.badInput`, one line naming `name` and the problem.
public struct ImageDecoder: Sendable {
    /// The PNG decoder, and the limit on width × height every format shares.
    public var png: PNGDecoder

    /// Pictures with more pixels than this are refused before allocation.
    public var maxPixels: Int { png.maxPixels }

    /// A decoder refusing pictures over `maxPixels` pixels.
    public init(maxPixels: Int = PNGDecoder.defaultMaxPixels) {
        png = PNGDecoder(maxPixels: maxPixels)
    }

    /// Reads and decodes the file at `path`.
    public func decodeFile(_ path: String) throws(BackdropError) -> RGBAImage<UInt8> {
        try decode(try InputFile.bytes(of: path), name: path)
    }

    /// Reads and decodes the file at `path` under `choice` (``decode(_:name:choice:)``).
    public func decodeFile(_ path: String, choice: ColorSpaceChoice) throws(BackdropError) -> (
        image: RGBAImage<UInt8>, space: PictureColorSpace
    ) {
        try decode(try InputFile.bytes(of: path), name: path, choice: choice)
    }

    /// Decodes the bytes of a picture; `name` is used in error messages.
    public func decode(_ bytes: [UInt8], name: String = "input") throws(BackdropError) -> RGBAImage<UInt8> {
        try decode(bytes, name: name, choice: .srgb).image
    }

    /// Decodes the bytes of a picture in its own colour space (nothing converted), with the space its file describes.
    public func decodeKeepingColorSpace(_ bytes: [UInt8], name: String = "input") throws(BackdropError) -> (
        image: RGBAImage<UInt8>, space: PictureColorSpace
    ) {
        try decode(bytes, name: name, choice: .keep)
    }

    /// Decodes the bytes of a picture under `choice`: converted to sRGB (its space then ``PictureColorSpace/sRGB``),
    /// or kept.
    public func decode(_ bytes: [UInt8], name: String = "input", choice: ColorSpaceChoice) throws(BackdropError) -> (
        image: RGBAImage<UInt8>, space: PictureColorSpace
    ) {
        switch ImageFormat(sniffing: bytes[...]) {
        case .png: return try png.decode(bytes, name: name, as: UInt8.self, choice: choice)
        case .jpeg: return try decodeJPEG(bytes, name: name, choice: choice)
        case .webP: return try decodeWebP(bytes, name: name, choice: choice)
        case .heif: return try decodeHEIF(bytes, name: name, choice: choice)
        case nil:
            let what = bytes.isEmpty ? "the file is empty" : "not a \(ImageFormat.names) file"
            throw BackdropError(.badInput, "\(name): \(what)")
        }
    }

    /// Refuses a picture from its first bytes when its header declares more pixels than the limit (PNG only: a
    /// JPEG's or WebP's size may lie further in); what a reader of an upload can check before the rest arrives.
    public func checkDeclaredSize(_ prefix: ArraySlice<UInt8>, name: String) throws(BackdropError) {
        try png.checkDeclaredSize(prefix, name: name)
    }

    /// width × height, refused over the limit, and the decoding buffers (`copies` pictures of RGBA8) checked
    /// against what the process may allocate.
    func checkedPixels(_ width: Int, _ height: Int, copies: Int, name: String) throws(BackdropError) -> Int {
        guard let pixels = png.pixelCount(width, height) else {
            throw PNGDecoder.overLimit(name, width, height, png.appliedLimit)
        }
        try ProcessMemory.check(pixels * 4 * copies, for: name, what: "decoding the picture")
        return pixels
    }

    func decodeJPEG(_ bytes: [UInt8], name: String, choice: ColorSpaceChoice) throws(BackdropError) -> (
        image: RGBAImage<UInt8>, space: PictureColorSpace
    ) {
        let result: Result<(image: RGBAImage<UInt8>, space: PictureColorSpace), BackdropError> =
            bytes.withUnsafeBufferPointer { buffer in
                var header = bd_jpeg_header()
                var message = [CChar](repeating: 0, count: 256)
                guard
                    let reader = bd_jpeg_reader_open(
                        buffer.baseAddress!, buffer.count, &header, &message, message.count)
                else { return .failure(BackdropError(.badInput, "\(name): \(String(cMessage: message))")) }
                defer { bd_jpeg_reader_close(reader) }
                let width = Int(header.width), height = Int(header.height)
                let samples: [UInt8]
                do throws(BackdropError) {
                    // A progressive file's coefficients (2 bytes a sample, 3 components) count as about 1.5 pictures.
                    let copies = (header.orientation == 1 ? 1 : 2) + (header.progressive != 0 ? 2 : 0)
                    let pixels = try checkedPixels(width, height, copies: copies, name: name)
                    samples = try Self.readSamples(pixels: pixels, name: name, message: &message) {
                        bd_jpeg_reader_read(reader, $0, $1, $2)
                    }
                } catch { return .failure(error) }
                var profileSize = 0
                var stored = RGBAImage(width: width, height: height, samples: samples)
                var space = PictureColorSpace.sRGB
                if let profile = bd_jpeg_reader_icc_profile(reader, &profileSize) {
                    space = ColorProfileConversion.handle(
                        &stored, profile: UnsafeBufferPointer(start: profile, count: profileSize), choice: choice,
                        name: name)
                }
                return .success((Orientation(exif: Int(header.orientation)).applied(to: stored), space))
            }
        return try result.get()
    }

    func decodeWebP(_ bytes: [UInt8], name: String, choice: ColorSpaceChoice) throws(BackdropError) -> (
        image: RGBAImage<UInt8>, space: PictureColorSpace
    ) {
        var width: UInt32 = 0, height: UInt32 = 0
        let found = bytes.withUnsafeBufferPointer { bd_webp_size($0.baseAddress!, $0.count, &width, &height) }
        guard found == 1 else {
            throw BackdropError(
                .badInput,
                "\(name): \(found < 0 ? "an animated WebP (only still pictures are read)" : "the WebP header is corrupt or truncated")"
            )
        }
        let pixels = try checkedPixels(Int(width), Int(height), copies: 1, name: name)
        var decoded: Int32 = 0
        let samples = [UInt8](unsafeUninitializedCapacity: pixels * 4) { storage, initialized in
            decoded = bytes.withUnsafeBufferPointer {
                bd_webp_decode($0.baseAddress!, $0.count, storage.baseAddress!, pixels * 4, width)
            }
            initialized = pixels * 4
        }
        guard decoded == 1 else {
            throw BackdropError(.badInput, "\(name): the WebP image data is corrupt or truncated")
        }
        var image = RGBAImage(width: Int(width), height: Int(height), samples: samples)
        var profileSize = 0
        var space = PictureColorSpace.sRGB
        if let profile = bytes.withUnsafeBufferPointer({ bd_webp_icc_profile($0.baseAddress!, $0.count, &profileSize) })
        {
            defer { bd_webp_free(profile) }
            space = ColorProfileConversion.handle(
                &image, profile: UnsafeBufferPointer(start: profile, count: profileSize), choice: choice, name: name)
        }
        return (image, space)
    }

    /// A C reader's RGBA samples, `pixels` of them: `read(storage, message, capacity)` fills the storage and returns
    /// 0, or writes its one-line error into `message` and returns another status (the JPEG and HEIF readers' contract).
    static func readSamples(
        pixels: Int, name: String, message: inout [CChar],
        read: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<CChar>, Int) -> Int32
    ) throws(BackdropError) -> [UInt8] {
        var status: Int32 = 0
        let capacity = message.count
        let samples = [UInt8](unsafeUninitializedCapacity: pixels * 4) { storage, initialized in
            status = message.withUnsafeMutableBufferPointer { read(storage.baseAddress!, $0.baseAddress!, capacity) }
            initialized = pixels * 4
        }
        guard status == 0 else { throw BackdropError(.badInput, "\(name): \(String(cMessage: message))") }
        return samples
    }

}
