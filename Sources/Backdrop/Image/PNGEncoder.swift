import CLibPNG
import Foundation

/// Encodes straight RGBA at 8 or 16 bits per sample as a PNG (colour type 6, non-interlaced, with an sRGB chunk).
///
/// The output is deterministic: the same pixels and level give the same bytes (no time stamps).
/// `PNGDecoder().decode(PNGEncoder().encode(x))` returns `x`.
public struct PNGEncoder: Sendable {
    /// zlib level 0–9; 6 is zlib's default balance of size and speed.
    public var compressionLevel: Int

    /// An encoder at zlib level `compressionLevel`.
    public init(compressionLevel: Int = 6) {
        self.compressionLevel = compressionLevel
    }

    /// The PNG file's bytes.
    public func encode<Sample: PixelSample>(_ image: RGBAImage<Sample>) throws(BackdropError) -> [UInt8] {
        let result: Result<[UInt8], BackdropError> = image.samples.withUnsafeBytes { raw in
            var out: UnsafeMutablePointer<UInt8>?
            var size = 0
            var message = [CChar](repeating: 0, count: 512)
            let status = bd_png_encode(raw.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                       UInt32(image.width), UInt32(image.height), Int32(Sample.bitDepth),
                                       image.width * 4 * MemoryLayout<Sample>.size, Int32(compressionLevel),
                                       &out, &size, &message, message.count)
            guard status == 0, let out else {
                return .failure(BackdropError(.output, "cannot encode PNG: \(String(cMessage: message))"))
            }
            defer { bd_png_free(out) }
            return .success(Array(UnsafeBufferPointer(start: out, count: size)))
        }
        return try result.get()
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
