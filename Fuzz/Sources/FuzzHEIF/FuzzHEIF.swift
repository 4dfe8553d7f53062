// Fuzzes the HEIF decoder (libheif and libde265 through CHEIF, irot/imir, alpha, colr): any bytes must give
// a picture or a one-line BackdropError, never a crash, a hang or an allocation beyond the pixel limit (4 megapixels
// here). Seeds are HEIF files, so mutations mostly keep the ftyp box and reach this decoder.
import Backdrop
import FuzzDriver

@_cdecl("FuzzHEIF_main")
public func fuzzHEIFMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
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
