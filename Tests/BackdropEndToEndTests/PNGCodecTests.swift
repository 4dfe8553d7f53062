@_spi(CodecStages) import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// The fast path for PNG's common cases against libpng, and the encoder's files against other decoders.
@Suite("PNG fast path and encoder")
struct PNGCodecTests {
    /// Every test picture of Tests/Fixtures and of the report, as bytes with a name.
    static func corpus() throws -> [(name: String, bytes: [UInt8])] {
        var files: [String] = []
        for folder in ["png/pngsuite", "png/testpngs", "photos"] {
            files += try Fixtures.files(in: folder).filter { $0.hasSuffix(".png") }.map {
                Fixtures.path("\(folder)/\($0)")
            }
        }
        let images = Fixtures.packageRoot.appendingPathComponent("Reports/images").path
        files += (try FileManager.default.contentsOfDirectory(atPath: images)).filter { $0.hasSuffix(".png") }.sorted()
            .map { images + "/" + $0 }
        return try files.map { ($0, try [UInt8](Data(contentsOf: URL(fileURLWithPath: $0)))) }
    }

    /// The stages the codec benchmark times one at a time compose to what the decoder and the encoder make.
    @Test(arguments: ["wallpaper-2048x1536.png", "coffee.png", "glyphs-alpha.png"])
    func theCodecStagesComposeToTheDecoderAndTheEncoder(_ name: String) throws {
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("photos/" + name))))
        let (width, height, channels) = PNGCodecStages.header(file)
        var raw = PNGCodecStages.inflate(PNGCodecStages.idat(file), width: width, height: height, channels: channels)
        PNGCodecStages.unfilter(&raw, width: width, height: height, channels: channels)
        let image = try PNGDecoder().decode(file, name: name)
        #expect(PNGCodecStages.expand(raw, width: width, height: height, channels: channels) == image.samples)
        // The whole decode on one thread and on two (the inflate beside the unfiltering).
        for threads: Int32 in [1, 2] {
            let same = PNGCodecStages.decode(file, threads: threads) == image.samples
            #expect(same, "\(name), \(threads) threads")
        }
        // libdeflate's stages are the encoder's at `small` (and for 16-bit pictures); 8-bit pictures at `default` and
        // `fast` go to its own encoder (PNGFastEncoderTests).
        let stream = PNGCodecStages.deflate(PNGCodecStages.filter(image), compression: .small)
        #expect(stream == PNGCodecStages.idat(try PNGEncoder(compression: .small).encode(image)), "\(name)")
        let portable = PNGCodecStages.encodeOwn(image, threads: 1, vectorKernels: false)
        #expect(portable == (try PNGEncoder(threads: 2).encode(image)), "\(name): the encoder's file")
    }

    /// Encoding in the picture's own buffer writes the same bytes as encoding from it, and leaves the picture empty.
    @Test(arguments: ["wallpaper-2048x1536.png", "glyphs-alpha.png", "coffee.png"])
    func encodingInPlaceWritesTheSameBytes(_ name: String) throws {
        let image = try Fixtures.image("photos/" + name)
        for compression in PNGEncoder.Compression.allCases {
            let encoder = PNGEncoder(compression: compression)
            var consumed = image
            #expect(try encoder.encode(destroying: &consumed) == (try encoder.encode(image)), "\(name)")
            #expect(consumed.samples.isEmpty)
        }
        var wide = image.widenedTo16()
        #expect(try PNGEncoder().encode(destroying: &wide) == (try PNGEncoder().encode(image.widenedTo16())))
        var single = RGBAImage<UInt8>(width: 1, height: 1, fill: (9, 8, 7, 255))
        #expect(
            try PNGEncoder().encode(destroying: &single)
                == (try PNGEncoder().encode(RGBAImage<UInt8>(width: 1, height: 1, fill: (9, 8, 7, 255)))))
    }

    @Test func theFastPathDecodesEveryFileItTakesAsLibPNGDoes() throws {
        var fast: [String] = []
        for (name, bytes) in try Self.corpus() {
            guard let common = try PNGDecoder().decodeCommonCase(bytes, name: name, as: UInt8.self) else { continue }
            fast.append(URL(fileURLWithPath: name).lastPathComponent)
            #expect(common == (try PNGDecoder().decodeWithLibPNG(bytes, name: name, as: UInt8.self)), "\(name)")
            let wide = try #require(try PNGDecoder().decodeCommonCase(bytes, name: name, as: UInt16.self))
            #expect(
                wide == (try PNGDecoder().decodeWithLibPNG(bytes, name: name, as: UInt16.self)), "\(name) as 16-bit")
        }
        // PngSuite's 8-bit RGB and RGBA files, every row filter among them, the photographs and the report's pictures.
        print("the fast path decoded \(fast.count) files: \(fast.joined(separator: " "))")
        for name in [
            "basn2c08.png", "basn6a08.png", "coffee.png", "wallpaper-2048x1536.png", "logo-alpha.png", "input.png",
        ] {
            #expect(fast.contains(name), "\(name) did not take the fast path")
        }
    }

    /// Files with every row filter, written by Python's zlib (PngSuite's filter files are not in Tests/Fixtures): RGB and
    /// RGBA, each filter on every row, and the five mixed row by row; odd widths, so that the left edge and the
    /// four-pixel groups of the Paeth wavefront meet every case.
    @Test func everyRowFilterIsUndoneAsLibPNGUndoesIt() throws {
        let directory = try Fixtures.temporaryDirectory()
        let script = #"""
            import random, struct, sys, zlib
            def paeth(a, b, c):
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                return a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
            random.seed(19)
            for (w, h), channels, color in ((size, c, t) for size in ((23, 11), (1, 1), (1, 6), (6, 1)) for c, t in ((3, 2), (4, 6))):
                for mode in ('0', '1', '2', '3', '4', 'mixed'):
                    rows = [bytes(random.randrange(256) if random.random() < 0.5 else (x * 7 + y * 3) % 256 for x in range(w * channels)) for y in range(h)]
                    out = b''
                    for y, row in enumerate(rows):
                        f = (y % 5) if mode == 'mixed' else int(mode)
                        prior = rows[y - 1] if y else bytes(len(row))
                        line = bytearray()
                        for i, v in enumerate(row):
                            a = row[i - channels] if i >= channels else 0
                            b = prior[i]; c = prior[i - channels] if i >= channels else 0
                            pred = (0, a, b, (a + b) // 2, paeth(a, b, c))[f]
                            line.append((v - pred) % 256)
                        out += bytes([f]) + bytes(line)
                    png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, color, 0, 0, 0))
                    png += chunk(b'IDAT', zlib.compress(out)) + chunk(b'IEND', b'')
                    open(f'{sys.argv[1]}/filter-{mode}-{channels}-{w}x{h}.png', 'wb').write(png)
            """#
        let result = try runProcess("/usr/bin/env", ["python3", "-c", script, directory.path])
        #expect(result.status == 0, "\(result.output)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".png") }
            .sorted()
        #expect(names.count == 48)
        // The decode works in place in one buffer (the filtered rows at its end): the edge sizes too.
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
            let common = try #require(
                try PNGDecoder().decodeCommonCase(bytes, name: name, as: UInt8.self), "\(name) left the fast path")
            #expect(common == (try PNGDecoder().decodeWithLibPNG(bytes, name: name, as: UInt8.self)), "\(name)")
        }
    }

    @Test func aDamagedCommonFileFallsBackToLibPNGAndIsAOneLineError() throws {
        let bytes = try [UInt8](
            Data(contentsOf: URL(fileURLWithPath: Fixtures.path("photos/coffee.png"))))
        #expect(try PNGDecoder().decodeCommonCase(bytes, name: "coffee.png", as: UInt8.self) != nil)
        var flipped = bytes
        flipped[flipped.count / 2] ^= 0x5A
        #expect(try PNGDecoder().decodeCommonCase(flipped, name: "coffee.png", as: UInt8.self) == nil)  // the CRC
        for damaged in [flipped, Array(bytes.prefix(bytes.count - 20))] {
            do {
                _ = try PNGDecoder().decode(damaged, name: "coffee.png")
                Issue.record("a damaged file decoded")
            } catch {
                #expect(
                    error.kind == .badInput && error.message.hasPrefix("coffee.png: ") && !error.message.contains("\n"),
                    "\(error)")
            }
        }
        // The pixel limit comes before any pixel, on the fast path too.
        #expect(throws: BackdropError.self) { try PNGDecoder(maxPixels: 1000).decode(bytes, name: "coffee.png") }
    }

    /// Pictures the encoder must round-trip: opaque and not, 8 and 16 bits, one pixel wide, odd sizes.
    static var pictures: [(String, RGBAImage<UInt8>)] {
        [
            ("opaque noise", noiseImage(width: 61, height: 37)),
            ("noise with alpha", noiseImage(width: 64, height: 33, alpha: true)),
            ("one column", noiseImage(width: 1, height: 9, alpha: true)), ("one row", noiseImage(width: 17, height: 1)),
        ]
    }

    @Test(arguments: PNGEncoder.Compression.allCases)
    func everyFileWrittenDecodesToItsPixelsOpaqueOnesAsRGB(_ compression: PNGEncoder.Compression) throws {
        for (name, picture) in Self.pictures {
            let bytes = try PNGEncoder(compression: compression).encode(picture)
            #expect(try PNGDecoder().decodeWithLibPNG(bytes, name: name, as: UInt8.self) == picture, "\(name)")
            #expect(try PNGDecoder().decode(bytes, name: name) == picture, "\(name)")
            let opaque = picture.samples.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 }
            #expect(bytes[25] == (opaque ? 2 : 6), "\(name): colour type \(bytes[25])")
            #expect(try PNGEncoder(compression: compression).encode(picture) == bytes, "\(name): not deterministic")
            let wide = RGBAImage<UInt16>(
                width: picture.width, height: picture.height,
                samples: picture.samples.enumerated().map { UInt16($0.element) &* 257 &+ UInt16($0.offset % 7) })
            let wideBytes = try PNGEncoder(compression: compression).encode(wide)
            #expect(try PNGDecoder().decode(wideBytes, name: name, as: UInt16.self) == wide, "\(name) at 16 bits")
        }
    }

    /// The written files pass pngcheck, and vips and Pillow decode them to the same pixels.
    @Test func pngcheckVipsAndPillowReadTheFilesAsWritten() throws {
        let directory = try Fixtures.temporaryDirectory()
        for (name, picture) in Self.pictures {
            let path = directory.appendingPathComponent(name.replacingOccurrences(of: " ", with: "-") + ".png").path
            try PNGEncoder().write(picture, to: path)
            let check = try runProcess("/usr/bin/pngcheck", [path])
            #expect(check.status == 0 && check.output.hasPrefix("OK"), "pngcheck: \(check.output)")
            // vips writes what it read with its own encoder; that file decodes to the same pixels.
            let copy = path + ".vips.png"
            #expect(try runProcess("/usr/bin/vips", ["copy", path, copy]).status == 0)
            #expect(try PNGDecoder().decodeFile(copy) == picture, "vips: \(name)")
            // Pillow, as RGBA bytes in hex.
            let script =
                "import sys; from PIL import Image; print(Image.open(sys.argv[1]).convert('RGBA').tobytes().hex())"
            let pillow = try runProcess("/usr/bin/env", ["python3", "-c", script, path])
            #expect(
                pillow.status == 0,
                "Pillow is missing or failed (scripts/install-deps --test installs it): \(pillow.output)")
            #expect(
                pillow.output.trimmingCharacters(in: .whitespacesAndNewlines)
                    == picture.samples.map { String(format: "%02x", $0) }.joined(), "Pillow: \(name)")
        }
    }

    @Test func theWallpaperRenderIsNoLargerThanBeforeAndTheSameForAnyThreadCount() throws {
        let input = Fixtures.path("photos/wallpaper-2048x1536.png")
        let directory = try Fixtures.temporaryDirectory()
        var outputs: [Data] = []
        for threads in ["1", "2", "8"] {
            let output = directory.appendingPathComponent("out-\(threads).png").path
            let result = try runCLI(["render", input, "-o", output, "--scale", "2", "--threads", threads])
            #expect(result.status == 0, "\(result.standardError)")
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: output)))
        }
        #expect(outputs.allSatisfy { $0 == outputs[0] }, "the bytes depend on the thread count")
        // No larger than 1.05 × the 1,069,456 bytes libpng's zlib level 6 wrote.
        #expect(outputs[0].count <= 1_122_928, "\(outputs[0].count) bytes")
        let bad = try runCLI([
            "render", input, "-o", directory.appendingPathComponent("x.png").path, "--compression", "tiny",
        ])
        #expect(bad.status == 2 && bad.standardError.contains("tiny"), "\(bad.standardError)")
    }
}
