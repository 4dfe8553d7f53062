import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// Issue 49, item 4: filtered rows of 4 MiB or more are deflated in 1 MiB strips on several threads and joined into
/// one zlib stream. The bytes do not depend on the thread count, and zlib (through libpng) and libdeflate (through
/// the fast path) both read the stream back to the same pixels.
@Suite("PNG encoding in strips")
struct PNGStripEncodingTests {
    /// 1500 × 1200 RGB: 5.4 MB of filtered rows, six strips; noise and flat areas, so that the strips hold stored,
    /// fixed and dynamic blocks.
    static func picture(alpha: Bool) -> RGBAImage<UInt8> {
        var image = noiseImage(width: 1500, height: 1200, alpha: alpha)
        for index in stride(from: 0, to: image.samples.count / 2, by: 4) {
            image.samples[index] = UInt8(index / 4 % 1500 / 6)
            image.samples[index + 1] = 40
            image.samples[index + 2] = 200
            if !alpha { image.samples[index + 3] = 255 }
        }
        return image
    }

    @Test(arguments: [false, true], PNGEncoder.Compression.allCases)
    func theBytesDoNotDependOnTheThreadsAndDecodeBack(alpha: Bool, compression: PNGEncoder.Compression) throws {
        let image = Self.picture(alpha: alpha)
        let one = try PNGEncoder(compression: compression, threads: 1).encode(image)
        for threads in [2, 3, 8] {
            #expect(try PNGEncoder(compression: compression, threads: threads).encode(image) == one)
        }
        var destroyed = image
        #expect(try PNGEncoder(compression: compression, threads: 2).encode(destroying: &destroyed) == one)
        let decoder = PNGDecoder()
        #expect(try decoder.decodeWithLibPNG(one, name: "strips", as: UInt8.self).samples == image.samples)
        #expect(try decoder.decode(one, name: "strips").samples == image.samples)
    }

    /// The matches lost at each strip's start cost little: the picture in six strips is within 1 % of the same rows
    /// written as two pictures of one stream each (each half under the threshold).
    @Test func stripsCostWellUnderOnePercent() throws {
        let image = Self.picture(alpha: false)
        let strips = try PNGEncoder(compression: .default, threads: 2).encode(image)
        let top = RGBAImage(width: 1500, height: 600, samples: Array(image.samples[..<(1500 * 600 * 4)]))
        let bottom = RGBAImage(width: 1500, height: 600, samples: Array(image.samples[(1500 * 600 * 4)...]))
        let halves = try PNGEncoder().encode(top).count + PNGEncoder().encode(bottom).count
        #expect(Double(strips.count) <= 1.01 * Double(halves), "\(strips.count) against \(halves)")
    }
}
