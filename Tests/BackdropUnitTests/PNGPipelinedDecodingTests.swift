@_spi(CodecStages) import Backdrop
import BackdropTestSupport
import CLibPNG
import Foundation
import Testing

/// Issue 49, item 4: the common-case PNG decoder inflates large pictures on a second thread (ISA-L) while the calling
/// thread unfilters and expands the rows already inflated (`bd_fast_png_decode_threads`); small ones on one thread
/// (libdeflate, the whole stream, then the rows). On one thread and on two it gives the same pixels, the picture's
/// own, whatever the rows' size against the inflater's 128 KiB steps and 32 KiB window and however the stream is cut
/// into IDAT chunks, with the AVX2 loops of Paeth's inverse and RGB's expansion and without; and every bad stream is a
/// failure on both, never a crash, a hang or other pixels.
@Suite("PNG decoding on two threads")
struct PNGPipelinedDecodingTests {
    /// A picture's rows as a PNG stores them (RGB or RGBA, 8-bit), pseudo-random patches (one in `noiseEvery`) among
    /// ramps with `grain` random low bits, so that the stream holds literals and matches at every distance.
    static func rows(width: Int, height: Int, channels: Int, seed: UInt64, noiseEvery: Int = 3, grain: UInt64 = 2)
        -> [UInt8]
    {
        var generator = SplitMix64(seed: seed)
        var rows = [UInt8](repeating: 0, count: width * height * channels)
        for y in 0..<height {
            for x in 0..<width {
                let noisy = (x / 48 + y / 20) % noiseEvery == 0
                for channel in 0..<channels {
                    let ramp = (x * 3 + y * 5 + channel * 70) & 255
                    let value = noisy ? Int(generator.next() >> 56) : ramp + Int(generator.next() >> (64 - grain))
                    rows[(y * width + x) * channels + channel] = UInt8(truncatingIfNeeded: value)
                }
            }
        }
        return rows
    }

    static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
        return pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
    }

    /// The rows filtered as PNG filters them (section 9 of the specification), row y with `filter(y)` (0–4).
    static func filtered(_ rows: [UInt8], width: Int, height: Int, channels: Int, filter: (Int) -> UInt8) -> [UInt8] {
        let stride = width * channels
        var out = [UInt8]()
        out.reserveCapacity(height * (stride + 1))
        for y in 0..<height {
            let type = filter(y)
            out.append(type)
            for i in 0..<stride {
                let a = i >= channels ? Int(rows[y * stride + i - channels]) : 0
                let b = y > 0 ? Int(rows[(y - 1) * stride + i]) : 0
                let c = y > 0 && i >= channels ? Int(rows[(y - 1) * stride + i - channels]) : 0
                let prediction = [0, a, b, (a + b) / 2, paeth(a, b, c)][Int(type)]
                out.append(UInt8(truncatingIfNeeded: Int(rows[y * stride + i]) - prediction))
            }
        }
        return out
    }

    /// One zlib stream of `data` by libdeflate.
    static func zlib(_ data: [UInt8], level: Int32 = 6) -> [UInt8] {
        var pointer: UnsafeMutablePointer<UInt8>?
        let size = bd_fast_png_deflate(data, data.count, level, &pointer)
        defer { bd_png_free(pointer) }
        return Array(UnsafeBufferPointer(start: pointer, count: size))
    }

    static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func chunk(_ type: String, _ body: ArraySlice<UInt8>) -> [UInt8] {
        let typed = Array(type.utf8) + body
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in typed { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8) }
        crc = ~crc
        let length = UInt32(body.count)
        return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + typed
            + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> $0) }
    }

    /// A PNG file (every CRC right) of `stream` in IDAT chunks of `piece` bytes (one chunk when nil).
    static func file(width: Int, height: Int, channels: Int, stream: [UInt8], piece: Int? = nil) -> [UInt8] {
        let size = [width, height].flatMap { value in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += chunk("IHDR", (size + [8, channels == 4 ? 6 : 2, 0, 0, 0])[...])
        let step = max(piece ?? stream.count, 1)
        for start in stride(from: 0, to: stream.count, by: step) {
            bytes += chunk("IDAT", stream[start..<min(start + step, stream.count)])
        }
        if stream.isEmpty { bytes += chunk("IDAT", []) }
        return bytes + chunk("IEND", [])
    }

    /// Where the CRC of each chunk of `type` in `file` starts.
    static func chunkCRCOffsets(_ file: [UInt8], type: String) -> [Int] {
        var offsets: [Int] = []
        var at = 8
        while at + 12 <= file.count {
            let length = file[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            if Array(file[at + 4..<at + 8]) == Array(type.utf8) { offsets.append(at + 8 + length) }
            at += 12 + length
        }
        return offsets
    }

    /// The rows as RGBA8 (alpha 255 for RGB): what the decoder must make of them.
    static func expanded(_ rows: [UInt8], channels: Int) -> [UInt8] {
        guard channels == 3 else { return rows }
        var out = [UInt8]()
        out.reserveCapacity(rows.count / 3 * 4)
        for index in stride(from: 0, to: rows.count, by: 3) {
            out += [rows[index], rows[index + 1], rows[index + 2], 255]
        }
        return out
    }

    /// Sizes around the inflater's steps: rows of 3004 and 3109 bytes (neither divides 128 KiB nor 32 KiB), rows of 5
    /// bytes, rows longer than a step and than the window (150 001 bytes), fewer rows than a step, one pixel; and rows of
    /// 2, 3 and 5 pixels, about the AVX2 Paeth loop's least (3 pixels, its wavefront's first and last three steps).
    static let sizes: [(width: Int, height: Int, channels: Int)] = [
        (1001, 400, 3), (777, 500, 4), (1, 3000, 4), (50000, 8, 3), (5000, 3, 3), (1, 1, 3), (1, 1, 4),
        (2, 17, 3), (3, 41, 3), (3, 40, 4), (5, 23, 3),
    ]

    @Test(arguments: sizes.indices)
    func twoThreadsDecodeWhatOneDoesThePicturesOwnPixels(_ index: Int) throws {
        let (width, height, channels) = Self.sizes[index]
        let rows = Self.rows(width: width, height: height, channels: channels, seed: UInt64(index) + 1)
        let expected = Self.expanded(rows, channels: channels)
        // Every filter, row by row in turn, and Paeth on every row but the first (the four-row wavefront).
        for filters in [{ (y: Int) in UInt8(y % 5) }, { (y: Int) in y == 0 ? 1 : 4 }] {
            let stream = Self.zlib(
                Self.filtered(rows, width: width, height: height, channels: channels, filter: filters))
            for piece in [nil, 1, 8192, 65_543] where piece != 1 || stream.count < 200_000 {
                let file = Self.file(width: width, height: height, channels: channels, stream: stream, piece: piece)
                for threads: Int32 in [1, 2, 0] {
                    for vector in [true, false] {
                        let right = PNGCodecStages.decode(file, threads: threads, vectorKernels: vector) == expected
                        #expect(
                            right,
                            "\(width)×\(height)×\(channels), IDATs of \(piece ?? stream.count), \(threads) threads, vector kernels \(vector)"
                        )
                    }
                }
            }
        }
    }

    /// The wallpaper's size in RGB and RGBA (9.4 and 12.6 MB of rows, 72 and 96 steps of the inflater), at libdeflate's
    /// fastest and strongest levels: the same pixels on one thread and on two.
    @Test(arguments: [3, 4], [1, 12] as [Int32])
    func aLargePictureIsTheSameOnOneThreadAndOnTwo(channels: Int, level: Int32) throws {
        let (width, height) = (2048, 1536)
        let rows = Self.rows(width: width, height: height, channels: channels, seed: 7)
        let filtered = Self.filtered(rows, width: width, height: height, channels: channels) { $0 == 0 ? 1 : 4 }
        let file = Self.file(
            width: width, height: height, channels: channels, stream: Self.zlib(filtered, level: level), piece: 65_536)
        let expected = Self.expanded(rows, channels: channels)
        for threads: Int32 in [1, 2] {
            for vector in [true, false] {
                let right = PNGCodecStages.decode(file, threads: threads, vectorKernels: vector) == expected
                #expect(right, "\(threads) threads, vector kernels \(vector)")
            }
        }
    }

    /// A stream cut at 64 points, a byte changed at 64 points, bytes after its end (in its last IDAT or one of their
    /// own), a wrong Adler-32, rows too few or too many for the header, an unknown filter type at the first, a middle
    /// and the last row: each fails on one thread and on two. A changed byte may leave the pixels right (the padding
    /// bits after the last code): it may never give other pixels.
    @Test func everyBadStreamFailsOnOneThreadAndOnTwo() throws {
        let (width, height, channels) = (1001, 700, 3)
        let rows = Self.rows(width: width, height: height, channels: channels, seed: 99)
        let filtered = Self.filtered(rows, width: width, height: height, channels: channels) { UInt8($0 % 5) }
        let stream = Self.zlib(filtered)
        let expected = Self.expanded(rows, channels: channels)
        func file(_ stream: [UInt8], height: Int = height, piece: Int? = 65_536) -> [UInt8] {
            Self.file(width: width, height: height, channels: channels, stream: stream, piece: piece)
        }
        var bad: [(String, [UInt8])] = []
        for point in 0..<64 {
            let cut = point == 63 ? stream.count - 1 : stream.count * point / 63
            bad.append(("cut at \(cut)", file(Array(stream.prefix(cut)))))
        }
        bad.append(("without its Adler-32", file(Array(stream.dropLast(4)))))
        bad.append(("a byte after its end", file(stream + [0])))
        bad.append(("an IDAT after its end", file(stream + [0, 0, 0], piece: stream.count)))
        var adler = stream
        adler[adler.count - 1] ^= 1
        bad.append(("a wrong Adler-32", file(adler)))
        // The zlib header: a preset dictionary, another method, a window over 32 KiB, wrong check bits.
        for (what, header) in [
            ("a preset dictionary", [0x78, 0xBB]), ("method 7", [0x77, 0x09]),
            ("a 64 KiB window", [0x88, 0x1C]), ("wrong check bits", [0x78, 0x9D]),
        ] as [(String, [UInt8])] {
            bad.append(("a zlib header with \(what)", file(header + stream.dropFirst(2))))
            bad.append(("a zlib header with \(what), a byte an IDAT", file(header + stream.dropFirst(2), piece: 1)))
        }
        bad.append(("a row too few", file(stream, height: height + 1)))
        bad.append(("a row too many", file(stream, height: height - 1)))
        for row in [0, height / 2, height - 1] {
            for type: UInt8 in [5, 255] {
                var unknown = filtered
                unknown[row * (width * channels + 1)] = type
                bad.append(("filter type \(type) on row \(row)", file(Self.zlib(unknown))))
            }
        }
        // A wrong CRC on a chunk whose bytes are right (the first IDAT's, the IHDR's, the last IDAT's): the two-thread
        // decode checks them while it inflates, and must still fail.
        let whole = file(stream)
        let idatCRCs = Self.chunkCRCOffsets(whole, type: "IDAT")
        for (what, offset) in [
            ("the first IDAT", idatCRCs.first!), ("the last IDAT", idatCRCs.last!),
            ("the IHDR", Self.chunkCRCOffsets(whole, type: "IHDR")[0]),
        ] {
            var wrong = whole
            wrong[offset] ^= 1
            bad.append(("a wrong CRC on \(what)", wrong))
        }
        for (what, bytes) in bad {
            for threads: Int32 in [1, 2] {
                let failed = PNGCodecStages.decode(bytes, threads: threads) == nil
                #expect(failed, "\(what), \(threads) threads")
            }
        }
        for point in 0..<64 {
            var changed = stream
            changed[(stream.count - 1) * point / 63] ^= 0x55
            for threads: Int32 in [1, 2] {
                let decoded = PNGCodecStages.decode(file(changed), threads: threads)
                let failedOrRight = decoded == nil || decoded == expected
                #expect(failedOrRight, "byte \(point) of 64 changed, \(threads) threads")
            }
        }
    }

    /// A picture the decoder takes two threads for (4.8 MB of rows, a stream of less than half of that) whose stream
    /// is cut short is libpng's to report: a one-line error naming it.
    @Test func aCutStreamIsAOneLineErrorThroughTheDecoder() throws {
        let (width, height, channels) = (1500, 800, 4)
        let rows = Self.rows(width: width, height: height, channels: channels, seed: 5, noiseEvery: 9, grain: 0)
        let filtered = Self.filtered(rows, width: width, height: height, channels: channels) { UInt8($0 % 5) }
        let stream = Self.zlib(filtered)
        #expect(filtered.count >= 4 << 20 && stream.count < filtered.count / 2, "\(stream.count) of \(filtered.count)")
        let whole = Self.file(width: width, height: height, channels: channels, stream: stream)
        let right = try PNGDecoder().decode(whole, name: "cut.png").samples == rows
        #expect(right)
        let cut = Self.file(
            width: width, height: height, channels: channels, stream: Array(stream.prefix(stream.count / 2)))
        do {
            _ = try PNGDecoder().decode(cut, name: "cut.png")
            Issue.record("a cut stream decoded")
        } catch {
            #expect(
                error.kind == .badInput && error.message.hasPrefix("cut.png: ") && !error.message.contains("\n"),
                "\(error)")
        }
    }
}
