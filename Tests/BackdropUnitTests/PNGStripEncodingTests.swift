import Backdrop
import BackdropTestSupport
import CLibPNG
import Foundation
import Testing

/// Issue 49, item 4: filtered rows of 4 MiB or more are deflated in strips of at most 1 MiB (a multiple of 4 of them)
/// on several threads and joined into one zlib stream. The bytes do not depend on the thread count, and zlib (through
/// libpng) and libdeflate (through the fast path) both read the stream back to the same pixels.
@Suite("PNG encoding in strips")
struct PNGStripEncodingTests {
    /// 1500 × 1200 RGB: 5.4 MB of filtered rows, eight strips; noise and flat areas, so that the strips hold stored,
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

    /// The matches lost at each strip's start cost little: the picture in strips is within 1 % of the same rows
    /// written as four pictures of one stream each (each quarter under the threshold). At 16 bits, which libdeflate
    /// deflates at `default` (8-bit pictures go to the encoder's own, PNGFastEncoderTests).
    @Test func stripsCostWellUnderOnePercent() throws {
        let image = Self.picture(alpha: false).widenedTo16()
        let strips = try PNGEncoder(compression: .default, threads: 2).encode(image)
        let quarter = image.samples.count / 4
        let quarters = try (0..<4).map { index in
            let rows = Array(image.samples[(index * quarter)..<((index + 1) * quarter)])
            return try PNGEncoder().encode(RGBAImage(width: 1500, height: 300, samples: rows)).count
        }
        let halves = quarters.reduce(0, +)
        #expect(Double(strips.count) <= 1.01 * Double(halves), "\(strips.count) against \(halves)")
    }

    /// Strips of every kind the encoder may meet, at every libdeflate level (0, stored blocks only, to 12), made
    /// joinable by the walker (`bd_deflate_strip`) and joined as `ZlibStrips` joins them: libdeflate inflates the
    /// joined stream to exactly the strips' data and finds the Adler-32 right after it, so every strip's final block
    /// was found and ended at its last code. Sizes around a stored block's 65 535 bytes; kinds: random (stored
    /// blocks), few symbols (long matches, fixed and dynamic codes), zeros, and random runs between ramps.
    @Test(arguments: 0...12)
    func theWalkerEndsEveryStripOfEveryLevel(level: Int32) throws {
        var generator = SplitMix64(seed: 0x5EED_0000 + UInt64(level))
        var strips: [[UInt8]] = []
        for size in [0, 1, 7, 1000, 65_535, 65_536, 70_000, 300_000] {
            strips.append((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
            strips.append(
                (0..<size).map { _ in Array("abcdefgh".utf8)[Int.random(in: 0..<(1 + size % 8), using: &generator)] })
            strips.append([UInt8](repeating: 0, count: size))
            strips.append(
                (0..<size).map {
                    $0 / 300 % 2 == 0 ? UInt8(truncatingIfNeeded: $0 / 7) : UInt8.random(in: 0...255, using: &generator)
                })
        }
        strips.shuffle(using: &generator)
        try Self.joinAndInflate(strips, level: level)
    }

    /// Deflates each of `strips` at `level` as the encoder does (`bd_deflate_strip`, the last one final), joins them
    /// under a zlib header and the combined Adler-32, and checks the join: every strip but the last ends with an
    /// empty stored block, the combined checksum is the whole data's, and the stream inflates back to the data.
    /// `walked` sees each joinable (walked) strip's deflated bytes.
    static func joinAndInflate(
        _ strips: [[UInt8]], level: Int32, walked: ([UInt8]) -> Void = { _ in }
    ) throws {
        var header: (UInt8, UInt8) = (0, 0)
        withUnsafeMutableBytes(of: &header) {
            bd_zlib_header(level, $0.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        var stream = [header.0, header.1], adler: UInt32 = 1
        for (index, strip) in strips.enumerated() {
            let last = index == strips.count - 1
            var out: UnsafeMutablePointer<UInt8>?
            let written = strip.withUnsafeBufferPointer {
                bd_deflate_strip($0.baseAddress, strip.count, level, last ? 1 : 0, &out)
            }
            let bytes = try #require(out.map { Array(UnsafeBufferPointer(start: $0, count: written)) })
            bd_png_free(out)
            #expect(written > 0)
            if !last {
                #expect(bytes.suffix(4) == [0, 0, 0xFF, 0xFF], "an empty stored block ends a joinable strip")
                walked(bytes)
            }
            stream += bytes
            adler = bd_adler32_combine(
                adler, strip.withUnsafeBufferPointer { bd_adler32($0.baseAddress, strip.count) }, strip.count)
        }
        let data = strips.flatMap { $0 }
        #expect(adler == data.withUnsafeBufferPointer { bd_adler32($0.baseAddress, data.count) })
        stream += [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        var inflated = [UInt8](repeating: 0, count: data.count)
        #expect(bd_fast_png_inflate(stream, stream.count, &inflated, inflated.count) == 1)
        #expect(inflated == data)
    }

    /// The longest code of the first block of the raw deflate `stream`'s literal/length and distance alphabets (0 for a
    /// stored or fixed block), read from its dynamic header as RFC 1951 section 3.2.7 lays it out, apart from the
    /// walker: what shows that a test's data reaches the walker's second-level tables (codes of 11 to 15 bits).
    static func longestCodeOfFirstBlock(_ stream: [UInt8]) -> Int {
        var position = 0
        func bits(_ count: Int) -> Int {
            var value = 0
            for bit in 0..<count where position >> 3 < stream.count {
                value |= Int(stream[position >> 3] >> (position & 7) & 1) << bit
                position += 1
            }
            return value
        }
        _ = bits(1)
        guard bits(2) == 2 else { return 0 }
        let literals = bits(5) + 257, distances = bits(5) + 1, lengthCodes = bits(4) + 4
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var codeLengths = [Int](repeating: 0, count: 19)
        for index in 0..<lengthCodes { codeLengths[order[index]] = bits(3) }
        // Canonical codes (section 3.2.2): within a length, consecutive values in symbol order, read most significant
        // bit first.
        var symbols: [Int: Int] = [:]  // (length << 16 | code) → symbol
        var code = 0
        for length in 1...7 {
            for (symbol, each) in codeLengths.enumerated() where each == length {
                symbols[length << 16 | code] = symbol
                code += 1
            }
            code <<= 1
        }
        var lengths: [Int] = []
        while lengths.count < literals + distances {
            var (value, length) = (0, 0)
            var symbol: Int?
            while symbol == nil, length < 7 {
                value = value << 1 | bits(1)
                length += 1
                symbol = symbols[length << 16 | value]
            }
            switch symbol {
            case .some(let literal) where literal < 16: lengths.append(literal)
            case 16: lengths += [Int](repeating: lengths.last ?? 0, count: 3 + bits(2))
            case 17: lengths += [Int](repeating: 0, count: 3 + bits(3))
            case 18: lengths += [Int](repeating: 0, count: 11 + bits(7))
            default: return -1
            }
        }
        return lengths.max() ?? 0
    }

    /// The walker's second-level tables (codes over 10 bits, up to deflate's 15) at every level that makes Huffman
    /// blocks: byte values of a geometric distribution over 256 symbols (each a twentieth less likely than the one
    /// before: the rarest have codes libdeflate limits to 15 bits), alone and with copies of earlier stretches of
    /// geometric lengths and distances (long-tailed length and distance codes). The first block of every strip has
    /// codes of 11 bits or more (read from its header by `longestCodeOfFirstBlock`, not by the walker), every strip
    /// ends with its empty stored block, and the joined stream inflates back to the data.
    @Test(arguments: 1...12)
    func theWalkerDecodesCodesOfElevenToFifteenBits(level: Int32) throws {
        var generator = SplitMix64(seed: 0x10C0_DE00 + UInt64(level))
        func geometric(_ ratio: Double, below limit: Int) -> Int {
            let uniform = Double.random(in: Double.ulpOfOne..<1, using: &generator)
            return min(limit - 1, Int(log(uniform) / log(ratio)))
        }
        var strips: [[UInt8]] = []
        for size in [70_000, 200_000] {
            strips.append((0..<size).map { _ in UInt8(geometric(0.95, below: 256)) })
            var copies: [UInt8] = []
            while copies.count < size {
                if copies.count > 300, Bool.random(using: &generator) {
                    let distance = 1 + geometric(0.999, below: copies.count)
                    for _ in 0..<(3 + geometric(0.9, below: 256)) { copies.append(copies[copies.count - distance]) }
                } else {
                    copies.append(UInt8(geometric(0.95, below: 256)))
                }
            }
            strips.append(copies)
        }
        strips.append([UInt8](repeating: 0, count: 1000))  // the last strip is not walked: the others all are
        var longest: [Int] = []
        try Self.joinAndInflate(strips, level: level) { longest.append(Self.longestCodeOfFirstBlock($0)) }
        #expect(longest.allSatisfy { (11...15).contains($0) }, "longest codes of the strips' first blocks: \(longest)")
    }
}
