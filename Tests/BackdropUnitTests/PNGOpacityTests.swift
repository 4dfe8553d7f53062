import CLibPNG
import Testing

/// `bd_rgba_is_opaque`, which decides whether a PNG is written as RGB: it tests the alphas of 4096 pixels at a time
/// (two pixels a 64-bit word), so one translucent pixel must be found wherever it lies against those blocks and
/// words, in pictures of odd and even pixel counts, and colour bytes of 0 must never count as alpha.
@Suite("PNG opacity test")
struct PNGOpacityTests {
    static func picture(pixels: Int, translucentAt: Int?, alpha: UInt8 = 254) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: pixels * 4)
        for index in 0..<pixels { bytes[4 * index + 3] = 255 }  // black, opaque: colour bytes all 0
        if let translucentAt { bytes[4 * translucentAt + 3] = alpha }
        return bytes
    }

    static func isOpaque(_ bytes: [UInt8], pixels: Int) -> Bool {
        bytes.withUnsafeBufferPointer { bd_rgba_is_opaque($0.baseAddress, pixels, 8) == 1 }
    }

    @Test("one translucent pixel anywhere, in any count of pixels, makes the picture not opaque")
    func oneTranslucentPixelIsFound() {
        for pixels in [1, 2, 3, 4095, 4096, 4097, 8191, 8193, 12_289] {
            #expect(Self.isOpaque(Self.picture(pixels: pixels, translucentAt: nil), pixels: pixels), "\(pixels)")
            let places = Set(
                [0, 1, pixels / 2, 4095, 4096, 4097, pixels - 2, pixels - 1].filter { 0 <= $0 && $0 < pixels })
            for place in places {
                for alpha: UInt8 in [0, 127, 254] {
                    let bytes = Self.picture(pixels: pixels, translucentAt: place, alpha: alpha)
                    #expect(!Self.isOpaque(bytes, pixels: pixels), "\(pixels) pixels, alpha \(alpha) at \(place)")
                }
            }
        }
    }

    @Test("the pixels past the count are not read as part of the picture")
    func onlyTheCountedPixelsCount() {
        var bytes = Self.picture(pixels: 9, translucentAt: 8)  // the ninth pixel translucent
        #expect(Self.isOpaque(bytes, pixels: 8))
        #expect(!Self.isOpaque(bytes, pixels: 9))
        bytes[3] = 0
        #expect(!Self.isOpaque(bytes, pixels: 1))
    }
}
