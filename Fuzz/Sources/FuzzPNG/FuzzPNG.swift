// Fuzzes the PNG decoder: any bytes must give a picture or a BackdropError, never a crash, a hang or an
// allocation beyond the pixel limit (4 megapixels here, so that a forged header cannot make the fuzzer run out
// of memory).
import Backdrop
import FuzzDriver

@_cdecl("FuzzPNG_main")
public func fuzzPNGMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        let decoder = PNGDecoder(maxPixels: 4_000_000)
        do throws(BackdropError) {
            let image: RGBAImage<UInt8> = try decoder.decode(bytes, name: "fuzz", as: UInt8.self)
            precondition(image.samples.count == image.width * image.height * 4)
            let wide: RGBAImage<UInt16> = try decoder.decode(bytes, name: "fuzz", as: UInt16.self)
            precondition(wide.size == image.size)
        } catch {
            precondition(!error.message.isEmpty && !error.message.contains("\n"), "an error must be one line")
        }
        return 0
    }
}
