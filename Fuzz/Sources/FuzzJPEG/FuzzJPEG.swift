// Fuzzes the JPEG decoder (libjpeg-turbo through CJPEG, EXIF orientation, the APP2 ICC profile): any bytes must give
// a picture or a one-line BackdropError, never a crash, a hang or an allocation beyond the pixel limit (4 megapixels
// here). Seeds are JPEGs, so mutations mostly keep the SOI marker and reach this decoder.
import Backdrop
import FuzzDriver

@_cdecl("FuzzJPEG_main")
public func fuzzJPEGMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        do throws(BackdropError) {
            let image = try ImageDecoder(maxPixels: 4_000_000).decode(bytes, name: "fuzz")
            precondition(image.samples.count == image.width * image.height * 4)
        } catch {
            precondition(!error.message.isEmpty && !error.message.contains("\n"), "an error must be one line")
        }
        return 0
    }
}
