// Fuzzes the decoders `ImageDecoder` chooses by content besides PNG's (libjpeg-turbo with EXIF orientation and the
// APP2 ICC profile; libwebp; libheif with its orientation, `colr` profiles and size checks): any bytes must give a
// picture or a one-line BackdropError, never a crash, a hang or an allocation beyond the pixel limit (4 megapixels
// here). scripts/fuzz runs it once per format, each time from that format's seeds, so that mutations mostly keep
// the format's signature and reach its decoder.
import Backdrop
import FuzzDriver

@_cdecl("FuzzPictures_main")
public func fuzzPicturesMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
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
