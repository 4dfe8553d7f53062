import CLibPNG
import Foundation

/// Decodes PNG files of every colour type and bit depth to straight RGBA (sRGB-encoded).
///
/// Contract:
/// - Input: the bytes of a PNG file. Palettes, greyscale, bit depths 1–16, tRNS and Adam7 are expanded by libpng
///   (through `CLibPNG`, which keeps libpng's longjmp inside C).
/// - Colour: the colour chunks in the PNG specification's order, cICP, iCCP, sRGB, then cHRM with gAMA: a space other
///   than sRGB converted to sRGB by Little CMS (relative colorimetric); gAMA alone (or with cHRM naming sRGB's
///   primaries) by ``SampleEncoding`` (the exact sRGB curve); alpha untouched. A file without colour chunks keeps
///   its samples exactly.
/// - Depth: 16-bit samples are reduced to 8 bits by rounding v·255/65535 when decoding to `UInt8`;
///   8-bit samples widen exactly (v·257) when decoding to `UInt16`.
/// - Limits: the header is read first and an image over `maxPixels` is refused before any pixel is allocated.
/// - Errors: a ``BackdropError`` of kind `.badInput` whose message names `name` and the problem.
public struct PNGDecoder: Sendable {
    /// The default limit on width × height: 100 megapixels (400 MB as RGBA8).
    public static let defaultMaxPixels = 100_000_000

    /// The largest limit a user may set: 2³² pixels (65536 × 65536, 16 GiB as RGBA8, 64 GiB as the renderer's
    /// float buffers). Beyond it no machine Backdrop runs on holds the buffers, and a header's byte counts would
    /// approach `Int`'s range; the decoder never applies a larger limit than this, whatever it is given.
    public static let largestMaxPixels = 1 << 32

    /// Images with more pixels than this (or than ``largestMaxPixels``) are refused before allocation.
    public var maxPixels: Int

    /// Checks a limit a user gave as `what` (`--max-pixels`): a whole number in 1…``largestMaxPixels``.
    public static func validate(maxPixels: Int, as what: String = "--max-pixels") throws(BackdropError) {
        guard (1...largestMaxPixels).contains(maxPixels) else {
            throw BackdropError(.badOption, "\(what) \(maxPixels) is out of range (1…\(largestMaxPixels))")
        }
    }

    /// A decoder refusing images over `maxPixels` pixels.
    public init(maxPixels: Int = PNGDecoder.defaultMaxPixels) {
        self.maxPixels = maxPixels
    }

    /// Reads and decodes the file at `path`.
    public func decodeFile<Sample: PixelSample>(_ path: String, as: Sample.Type = UInt8.self) throws(BackdropError)
        -> RGBAImage<Sample>
    {
        return try decode(try InputFile.bytes(of: path), name: path, as: Sample.self)
    }

    /// Decodes PNG bytes; `name` is used in error messages.
    ///
    /// 8-bit RGB and RGBA files that are not interlaced take the fast path (`CLibPNG/backdrop_fastpng.c`: chunks
    /// and filters here, inflate by libdeflate; from 4 MiB of filtered rows compressed to less than half, by ISA-L
    /// on a second thread while this one unfilters the rows already inflated, with the same pixels); every other file, and any file the fast path has a doubt about
    /// (a CRC, a stream that does not inflate to the right size), is read by libpng, which reports the errors.
    public func decode<Sample: PixelSample>(_ bytes: [UInt8], name: String = "input", as: Sample.Type = UInt8.self)
        throws(BackdropError) -> RGBAImage<Sample>
    {
        let rule = PNGColorRule(bytes, name: name)
        let encoding: SampleEncoding? = rule == .sampleEncoding ? nil : .sRGB
        var image: RGBAImage<Sample>
        if let common = try decodeCommonCase(bytes, name: name, as: Sample.self, encoding: encoding) {
            image = common
        } else {
            image = try decodeWithLibPNG(bytes, name: name, as: Sample.self, encoding: encoding)
        }
        if case .profile(let profile) = rule {
            profile.withUnsafeBufferPointer {
                ColorProfileConversion.convertToSRGB(&image, profile: $0, name: name)
            }
        }
        return image
    }

    /// Decodes PNG bytes under `choice`: `srgb` as ``decode(_:name:as:)``, its space then sRGB; `keep` with the samples
    /// as stored (no colour chunk applied) and the space its chunks describe (`PNGColorRule.keptSpace`).
    func decode<Sample: PixelSample>(
        _ bytes: [UInt8], name: String, as: Sample.Type, choice: ColorSpaceChoice
    ) throws(BackdropError) -> (image: RGBAImage<Sample>, space: PictureColorSpace) {
        guard choice == .keep else { return (try decode(bytes, name: name, as: Sample.self), .sRGB) }
        let space = PNGColorRule.keptSpace(bytes, name: name)
        if let common = try decodeCommonCase(bytes, name: name, as: Sample.self, encoding: .sRGB) {
            return (common, space)
        }
        return (try decodeWithLibPNG(bytes, name: name, as: Sample.self, encoding: .sRGB), space)
    }

    /// How many bytes of a file ``checkDeclaredSize(_:name:)`` reads: the signature and the IHDR up to its height.
    public static let declaredSizeBytes = 24

    /// Refuses a PNG from its first ``declaredSizeBytes`` bytes when its IHDR declares more pixels than the limit:
    /// what a reader of a stream (an upload) can check before the rest arrives. Whether it is a PNG at all is
    /// ``decode(_:name:as:)``'s to say; a prefix that is not a PNG's passes.
    public func checkDeclaredSize(_ prefix: ArraySlice<UInt8>, name: String) throws(BackdropError) {
        guard let (width, height) = Self.declaredSize(prefix) else { return }
        if pixelCount(width, height) == nil { throw Self.overLimit(name, width, height, maxPixels) }
    }

    /// The width and height a PNG's IHDR declares, from its first ``declaredSizeBytes`` bytes; nil when they are
    /// not a PNG's. Unchecked: a header may declare anything up to 2³² − 1.
    public static func declaredSize(_ prefix: ArraySlice<UInt8>) -> (width: Int, height: Int)? {
        guard prefix.count >= declaredSizeBytes,
            prefix.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        else { return nil }
        let start = prefix.startIndex
        let bigEndian = { (offset: Int) in
            prefix[(start + offset)..<(start + offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        }
        return (bigEndian(16), bigEndian(20))
    }

    /// The fast path's decode, or nil when the file is not its case.
    public func decodeCommonCase<Sample: PixelSample>(_ bytes: [UInt8], name: String, as: Sample.Type)
        throws(BackdropError) -> RGBAImage<Sample>?
    {
        try decodeCommonCase(bytes, name: name, as: Sample.self, encoding: nil)
    }

    /// The fast path's decode with the samples' `encoding`, or the header's sRGB and gAMA when nil.
    func decodeCommonCase<Sample: PixelSample>(
        _ bytes: [UInt8], name: String, as: Sample.Type, encoding override: SampleEncoding?
    ) throws(BackdropError) -> RGBAImage<Sample>? {
        let result: Result<RGBAImage<Sample>?, BackdropError> = bytes.withUnsafeBufferPointer { buffer in
            var header = bd_png_header()
            guard let base = buffer.baseAddress, bd_fast_png_header(base, buffer.count, &header) == 1 else {
                return .success(nil)
            }
            let width = Int(header.width), height = Int(header.height)
            guard let pixels = pixelCount(width, height) else {
                return .failure(Self.overLimit(name, width, height, appliedLimit))
            }
            // A little more than the picture: the rows are inflated into the buffer's end and expanded in place.
            let capacity = bd_fast_png_decode_capacity(header.width, header.height)
            guard capacity > 0 else { return .success(nil) }
            do throws(BackdropError) {
                try Self.checkMemory(rawBytes: capacity, pixels: pixels, rawSample: UInt8.self, as: Sample.self, name)
            } catch { return .failure(error) }
            var decoded = true
            let raw = [UInt8](unsafeUninitializedCapacity: capacity) { storage, initialized in
                decoded = bd_fast_png_decode(base, buffer.count, storage.baseAddress!, capacity) == 1
                initialized = pixels * 4
            }
            guard decoded else { return .success(nil) }
            let encoding =
                override
                ?? SampleEncoding(
                    hasSRGBChunk: header.has_srgb != 0, fileGamma: header.has_gamma != 0 ? header.gamma : nil)
            return .success(
                RGBAImage(
                    width: width, height: height,
                    samples: Self.convert(raw, from: UInt8.self, encoding: encoding, to: Sample.self)))
        }
        return try result.get()
    }

    /// The limit applied: `maxPixels`, never more than ``largestMaxPixels``.
    var appliedLimit: Int { min(maxPixels, Self.largestMaxPixels) }

    /// width × height when it is within `maxPixels` (checked before any pixel is allocated), nil otherwise.
    func pixelCount(_ width: Int, _ height: Int) -> Int? {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow || pixels > appliedLimit ? nil : pixels
    }

    static func overLimit(_ name: String, _ width: Int, _ height: Int, _ maxPixels: Int) -> BackdropError {
        BackdropError(
            .badInput, "\(name): the image is \(width)×\(height) pixels, over the limit of \(maxPixels) pixels")
    }

    /// Every colour type, depth, interlace, tRNS and gamma case, by libpng.
    public func decodeWithLibPNG<Sample: PixelSample>(_ bytes: [UInt8], name: String, as: Sample.Type)
        throws(BackdropError) -> RGBAImage<Sample>
    {
        try decodeWithLibPNG(bytes, name: name, as: Sample.self, encoding: nil)
    }

    /// libpng's decode with the samples' `encoding`, or the header's sRGB and gAMA when nil.
    func decodeWithLibPNG<Sample: PixelSample>(
        _ bytes: [UInt8], name: String, as: Sample.Type, encoding override: SampleEncoding?
    ) throws(BackdropError) -> RGBAImage<Sample> {
        let result: Result<RGBAImage<Sample>, BackdropError> = bytes.withUnsafeBufferPointer { buffer in
            var header = bd_png_header()
            var message = [CChar](repeating: 0, count: 512)
            guard let base = buffer.baseAddress,
                let reader = bd_png_reader_open(
                    base, buffer.count, UInt64(appliedLimit), &header, &message, message.count)
            else {
                if header.width > 0, message[0] == 0 {
                    return .failure(Self.overLimit(name, Int(header.width), Int(header.height), appliedLimit))
                }
                let text = buffer.isEmpty ? "the file is empty" : String(cMessage: message)
                return .failure(BackdropError(.badInput, "\(name): \(text)"))
            }
            defer { bd_png_reader_close(reader) }

            let width = Int(header.width), height = Int(header.height)
            guard let pixels = pixelCount(width, height) else {
                return .failure(Self.overLimit(name, width, height, appliedLimit))
            }
            let encoding =
                override
                ?? SampleEncoding(
                    hasSRGBChunk: header.has_srgb != 0, fileGamma: header.has_gamma != 0 ? header.gamma : nil)
            var failure: String?
            func read(into raw: UnsafeMutableRawPointer, rowBytes: Int) {
                if bd_png_reader_read(
                    reader, raw.assumingMemoryBound(to: UInt8.self), rowBytes, &message, message.count) != 0
                {
                    failure = String(cMessage: message)
                }
            }
            let count = pixels * 4
            do throws(BackdropError) {
                if header.bit_depth == 8 {
                    try Self.checkMemory(rawBytes: count, pixels: pixels, rawSample: UInt8.self, as: Sample.self, name)
                } else {
                    try Self.checkMemory(
                        rawBytes: count * 2, pixels: pixels, rawSample: UInt16.self, as: Sample.self, name)
                }
            } catch { return .failure(error) }
            let image: RGBAImage<Sample>
            if header.bit_depth == 8 {
                let raw = [UInt8](unsafeUninitializedCapacity: count) { storage, initialized in
                    read(into: storage.baseAddress!, rowBytes: width * 4)
                    initialized = count
                }
                image = RGBAImage(
                    width: width, height: height,
                    samples: Self.convert(raw, from: UInt8.self, encoding: encoding, to: Sample.self))
            } else {
                let raw = [UInt16](unsafeUninitializedCapacity: count) { storage, initialized in
                    read(into: storage.baseAddress!, rowBytes: width * 8)
                    initialized = count
                }
                image = RGBAImage(
                    width: width, height: height,
                    samples: Self.convert(raw, from: UInt16.self, encoding: encoding, to: Sample.self))
            }
            if let failure { return .failure(BackdropError(.badInput, "\(name): \(failure)")) }
            return .success(image)
        }
        return try result.get()
    }

    /// Refuses a picture whose decoding buffers (`rawBytes` as the file's samples, and the converted `Sample`s when
    /// they are of another type) this process could not allocate: before either is allocated.
    static func checkMemory<Raw: PixelSample, Sample: PixelSample>(
        rawBytes: Int, pixels: Int, rawSample: Raw.Type, as: Sample.Type, _ name: String
    ) throws(BackdropError) {
        let converted = Raw.self == Sample.self ? 0 : pixels * 4 * MemoryLayout<Sample>.stride
        try ProcessMemory.check(rawBytes + converted, for: name, what: "decoding the picture")
    }

    /// Converts raw expanded samples to `Target`, applying the colour rule to R, G and B only.
    /// Uses one lookup table per colour encoding (256 or 65536 entries).
    static func convert<Source: PixelSample, Target: PixelSample>(
        _ raw: [Source], from: Source.Type, encoding: SampleEncoding, to: Target.Type
    ) -> [Target] {
        if Source.self == Target.self, encoding == .sRGB { return unsafeBitCast(raw, to: [Target].self) }
        let levels = Int(Source.maximumValue) + 1
        let color: [Target] = (0..<levels).map { v in
            let encoded = encoding.sRGBValue(Double(v) / Double(Source.maximumValue))
            return Target(clamping: Int((encoded * Double(Target.maximumValue)).rounded()))
        }
        let alpha: [Target] = (0..<levels).map { v in
            if Source.self == UInt16.self, Target.self == UInt8.self { return Target(UInt8(reducing16: UInt16(v))) }
            if Source.self == UInt8.self, Target.self == UInt16.self { return Target(widening8: UInt8(v)) }
            return Target(v)
        }
        return [Target](unsafeUninitializedCapacity: raw.count) { out, initialized in
            raw.withUnsafeBufferPointer { input in
                var index = 0
                while index < raw.count {
                    out[index] = color[Int(input[index])]
                    out[index + 1] = color[Int(input[index + 1])]
                    out[index + 2] = color[Int(input[index + 2])]
                    out[index + 3] = alpha[Int(input[index + 3])]
                    index += 4
                }
            }
            initialized = raw.count
        }
    }

    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
            let code = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return String(cString: strerror(code.rawValue))
        }
        if ns.domain == NSCocoaErrorDomain, ns.code == NSFileReadNoSuchFileError { return "no such file" }
        return ns.localizedDescription
    }
}
