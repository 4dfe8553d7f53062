import CJPEG
import CWebP

/// Encodes 8-bit RGBA as JPEG (libjpeg-turbo: baseline, 4:2:0, optimised Huffman tables; alpha dropped, JPEG has
/// none) or WebP (libwebp: lossy at `quality` below 100, lossless at 100; alpha kept). Deterministic: the same
/// bytes for the same picture and quality. PNG stays ``PNGEncoder``'s. With an ICC `profile` (`--color-space keep`)
/// a JPEG carries it in APP2 ICC_PROFILE segments and a WebP in an ICCP chunk (an extended file).
public struct LossyEncoder: Sendable {
    public var format: OutputPictureFormat
    public var quality: Int

    /// An encoder for `format` (`.jpeg` or `.webP`) at `quality` 1–100.
    public init(format: OutputPictureFormat, quality: Int = OutputPictureFormat.defaultQuality) {
        (self.format, self.quality) = (format, quality)
    }

    /// The file's bytes, carrying `profile` when given. Errors (`.output`, one line): what the library reported, in
    /// words: a picture over the format's size (WebP 16383, JPEG 65500 pixels a side, its size named), a profile over
    /// what a JPEG's APP2 segments hold, libwebp's error code (out of memory, a partition over its size limit…).
    public func encode(_ image: RGBAImage<UInt8>, profile: [UInt8]? = nil) throws(BackdropError) -> [UInt8] {
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let width = UInt32(image.width), height = UInt32(image.height)
        let icc = profile ?? []
        let bytes: UnsafeMutablePointer<UInt8>? = image.samples.withUnsafeBufferPointer { samples in
            icc.withUnsafeBufferPointer { icc in
                let iccBytes = icc.isEmpty ? nil : icc.baseAddress
                switch format {
                case .jpeg:
                    return bd_jpeg_encode(
                        samples.baseAddress, width, height, Int32(quality), iccBytes, icc.count, &size, &message,
                        message.count)
                default:
                    return bd_webp_encode(
                        samples.baseAddress, width, height, Int32(quality), iccBytes, icc.count, &size, &message,
                        message.count)
                }
            }
        }
        guard let bytes else {
            let reason = String(cMessage: message)
            throw BackdropError(.output, "cannot encode the picture as \(format.rawValue): \(reason)")
        }
        defer { format == .jpeg ? bd_jpeg_free(bytes) : bd_webp_free(bytes) }
        return [UInt8](UnsafeBufferPointer(start: bytes, count: size))
    }

    /// Encodes `image` (carrying `profile` when given) and writes it to `path` atomically.
    public func write(_ image: RGBAImage<UInt8>, profile: [UInt8]? = nil, to path: String) throws(BackdropError) {
        try AtomicFile.write(try encode(image, profile: profile), to: path)
    }
}
