import CLibPNG
import Foundation

/// The stages of the common-case PNG decoder and of the encoder, one at a time, for `Benchmarks/Codec`: decoding is
/// gathering the IDAT chunks, inflating, unfiltering and expanding to RGBA8; encoding is packing and filtering the
/// rows, then deflating. ``PNGDecoder`` and ``PNGEncoder`` run the same C functions (`backdrop_fastpng.h`), the
/// decoder in place in the picture's buffer, a step of rows at a time through unfiltering and expanding. Not API: inputs are trusted (a file the fast
/// path accepts), and a failure traps (but `decode(_:threads:)`'s, nil).
@_spi(CodecStages)
public enum PNGCodecStages {
    /// An 8-bit RGB or RGBA file's size and channels (3 or 4), from its IHDR.
    public static func header(_ file: [UInt8]) -> (width: UInt32, height: UInt32, channels: Int32) {
        var header = bd_png_header()
        precondition(bd_fast_png_header(file, file.count, &header) == 1, "not a file the fast path decodes")
        return (header.width, header.height, file[25] == 6 ? 4 : 3)
    }

    /// The whole common-case decode to RGBA8 on `threads` threads (`bd_fast_png_decode_kernels`): 1 inflates (by
    /// libdeflate), then unfilters and expands, on the calling thread; 2 inflates on a second thread (by ISA-L) while
    /// the calling thread unfilters and expands; 0 chooses as `PNGDecoder` does. nil when the fast path refuses the
    /// file or it does not decode. `vectorKernels` false runs the portable loops where the AVX2 ones would
    /// (`bd_fast_png_decode_kernels`).
    public static func decode(_ file: [UInt8], threads: Int32, vectorKernels: Bool = true) -> [UInt8]? {
        var header = bd_png_header()
        guard bd_fast_png_header(file, file.count, &header) == 1 else { return nil }
        let capacity = bd_fast_png_decode_capacity(header.width, header.height)
        let count = Int(header.width) * Int(header.height) * 4
        var decoded = false
        let pixels = [UInt8](unsafeUninitializedCapacity: capacity) { storage, initialized in
            decoded =
                bd_fast_png_decode_kernels(
                    file, file.count, storage.baseAddress!, capacity, threads, vectorKernels ? 1 : 0) == 1
            initialized = decoded ? count : 0
        }
        return decoded ? pixels : nil
    }

    /// The IDAT chunks' payload: the zlib stream.
    public static func idat(_ file: [UInt8]) -> [UInt8] {
        var pointer: UnsafeMutablePointer<UInt8>?
        let size = bd_fast_png_idat(file, file.count, &pointer)
        defer { bd_png_free(pointer) }
        return Array(UnsafeBufferPointer(start: pointer, count: size))
    }

    /// The inflated, still filtered rows (padded by 4 bytes, as the unfiltering reads them).
    public static func inflate(_ idat: [UInt8], width: UInt32, height: UInt32, channels: Int32) -> [UInt8] {
        let size = bd_fast_png_raw_size(width, height, channels)
        var raw = [UInt8](repeating: 0, count: size + 4)
        precondition(bd_fast_png_inflate(idat, idat.count, &raw, size) == 1, "the stream does not inflate")
        return raw
    }

    /// Undoes every row's filter in place.
    public static func unfilter(_ raw: inout [UInt8], width: UInt32, height: UInt32, channels: Int32) {
        precondition(bd_fast_png_unfilter(&raw, width, height, channels) == 1, "an unknown filter type")
    }

    /// Unfiltered rows to straight RGBA8: the working format.
    public static func expand(_ raw: [UInt8], width: UInt32, height: UInt32, channels: Int32) -> [UInt8] {
        var rgba = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
        bd_fast_png_expand(raw, width, height, channels, &rgba, Int(width) * 4)
        return rgba
    }

    /// The rows packed as the file stores them (RGB when `image` is opaque) and filtered with "up".
    public static func filter<Sample: PixelSample>(_ image: RGBAImage<Sample>) -> [UInt8] {
        let opaque = PNGEncoder.isOpaque(image)
        let bytesPerPixel = (opaque ? 3 : 4) * MemoryLayout<Sample>.size
        var filtered = [UInt8](repeating: 0, count: image.height * (1 + image.width * bytesPerPixel))
        image.samples.withUnsafeBytes { raw in
            precondition(
                bd_fast_png_filter(
                    raw.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(image.width), UInt32(image.height),
                    Int32(Sample.bitDepth), image.width * 4 * MemoryLayout<Sample>.size, opaque ? 1 : 0, &filtered)
                    == 1)
        }
        return filtered
    }

    /// The file `PNGEncoder(threads: threads)` writes for an 8-bit picture (its own encoder, at `default` and `fast`,
    /// on `threads` threads), with its vector kernels or, when `vectorKernels` is false, its portable loops.
    public static func encodeOwn(_ image: RGBAImage<UInt8>, threads: Int, vectorKernels: Bool = true) -> [UInt8] {
        let encoder = PNGEncoder(threads: threads)
        do {
            return try encoder.fastFile(image, opaque: PNGEncoder.isOpaque(image), vectorKernels: vectorKernels)
        } catch { preconditionFailure("\(error)") }
    }

    /// One zlib stream of the filtered rows at a compression's level, as the encoder makes it: in strips on `threads`
    /// threads from `ZlibStrips`'s threshold on.
    public static func deflate(
        _ filtered: [UInt8], compression: PNGEncoder.Compression,
        threads: Int = ProcessInfo.processInfo.activeProcessorCount
    ) -> [UInt8] {
        if filtered.count >= ZlibStrips.threshold {
            let stream = filtered.withUnsafeBytes {
                ZlibStrips.compress($0, level: compression.level, threads: threads)
            }
            precondition(stream != nil, "out of memory")
            return stream!
        }
        var pointer: UnsafeMutablePointer<UInt8>?
        let size = bd_fast_png_deflate(filtered, filtered.count, compression.level, &pointer)
        defer { bd_png_free(pointer) }
        precondition(size > 0, "out of memory")
        return Array(UnsafeBufferPointer(start: pointer, count: size))
    }
}
