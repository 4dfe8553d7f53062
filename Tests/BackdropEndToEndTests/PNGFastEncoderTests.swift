@_spi(CodecStages) import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// The 8-bit encoder of `--compression default` and `fast` (`CLibPNG/backdrop_png_fast_encoder.c`): its files read as
/// written by libpng, our decoder and pngcheck; the same bytes for any thread count and without the vector kernels.
@Suite("PNG fast encoder")
struct PNGFastEncoderTests {
    /// A picture of smooth ramps with a little noise, flat patches (zero runs longer than a match) and, when `alpha`,
    /// an alpha that varies: the kinds of rows each filter and the runs handle.
    static func mixedImage(width: Int, height: Int, seed: UInt64, alpha: Bool) -> RGBAImage<UInt8> {
        var random = SplitMix64(seed: seed)
        var samples = [UInt8](repeating: 0, count: width * height * 4)
        let flat = (
            x: Int.random(in: 0..<max(1, width), using: &random), y: Int.random(in: 0..<max(1, height), using: &random)
        )
        for y in 0..<height {
            for x in 0..<width {
                let at = 4 * (y * width + x)
                let inFlat = x >= flat.x && y >= flat.y && (x - flat.x) < width / 2 + 1 && (y - flat.y) < height / 2 + 1
                let noise = Int.random(in: 0..<8, using: &random) == 0 ? Int.random(in: -3...3, using: &random) : 0
                samples[at] = inFlat ? 40 : UInt8(truncatingIfNeeded: x * 3 + y + noise)
                samples[at + 1] = inFlat ? 40 : UInt8(truncatingIfNeeded: x + y * 2)
                samples[at + 2] = inFlat ? 40 : UInt8(truncatingIfNeeded: (x ^ y) & 0xF0)
                samples[at + 3] = alpha ? UInt8(truncatingIfNeeded: x * 5 + y * 7) : 255
            }
        }
        return RGBAImage(width: width, height: height, samples: samples)
    }

    /// The sizes PngSuite's pictures have (1 × 1, odd widths, one row, one column, tall), a picture wider than a
    /// strip's worth of rows, noise that does not compress, and both colour types.
    static var pictures: [(String, RGBAImage<UInt8>)] {
        var pictures: [(String, RGBAImage<UInt8>)] = [
            ("1×1 opaque", RGBAImage(width: 1, height: 1, fill: (9, 8, 7, 255))),
            ("1×1 translucent", RGBAImage(width: 1, height: 1, fill: (9, 8, 7, 100))),
            ("one row", noiseImage(width: 1000, height: 1)),
            ("one column", noiseImage(width: 1, height: 300, alpha: true)),
            ("solid", RGBAImage(width: 700, height: 90, fill: (200, 10, 0, 255))),
            ("zeros", RGBAImage(width: 333, height: 3, fill: (0, 0, 0, 0))),
            ("noise", noiseImage(width: 61, height: 37)),
            ("noise with alpha", noiseImage(width: 64, height: 33, alpha: true)),
            // Two strips whose codes outgrow the buffer a strip starts with (half its filtered bytes).
            ("noise, two strips", noiseImage(width: 600, height: 400)),
        ]
        for (width, height) in [(3, 5), (31, 2), (32, 7), (33, 17), (97, 200), (2, 1500), (1200, 260)] {
            for alpha in [false, true] {
                let seed = UInt64(width * 10_000 + height) * (alpha ? 2 : 1)
                pictures.append(
                    (
                        "\(width)×\(height)\(alpha ? " alpha" : "")",
                        mixedImage(width: width, height: height, seed: seed, alpha: alpha)
                    ))
            }
        }
        return pictures
    }

    @Test func everyPictureReadsAsWrittenByLibPNGOurDecoderAndPngcheck() throws {
        let directory = try Fixtures.temporaryDirectory()
        for (name, picture) in Self.pictures {
            let bytes = try PNGEncoder().encode(picture)
            try expectReadable(bytes, picture, name, directory)
            #expect(try PNGEncoder(compression: .fast).encode(picture) == bytes, "\(name): fast writes default's bytes")
        }
    }

    /// `bytes`, the file of `picture`, read as written by libpng, our decoder and pngcheck, in the colour type its
    /// alpha calls for.
    func expectReadable(_ bytes: [UInt8], _ picture: RGBAImage<UInt8>, _ name: String, _ directory: URL) throws {
        #expect(try PNGDecoder().decodeWithLibPNG(bytes, name: name, as: UInt8.self) == picture, "libpng: \(name)")
        #expect(try PNGDecoder().decode(bytes, name: name) == picture, "\(name)")
        let opaque = picture.samples.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 }
        #expect(bytes[25] == (opaque ? 2 : 6), "\(name): colour type \(bytes[25])")
        let path = directory.appendingPathComponent("picture.png").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let check = try runProcess("/usr/bin/pngcheck", [path])
        #expect(check.status == 0 && check.output.hasPrefix("OK"), "pngcheck, \(name): \(check.output)")
    }

    @Test func theBytesAreTheSameOnOneTwoAndThreeThreadsAndWithoutTheVectorKernels() throws {
        let wallpaper = try Fixtures.image("photos/wallpaper-2048x1536.png")
        var pictures = Self.pictures.filter { $0.1.width * $0.1.height > 10_000 }
        pictures.append(("wallpaper", wallpaper))
        for (name, picture) in pictures {
            let file = PNGCodecStages.encodeOwn(picture, threads: 1)
            for threads in [1, 2, 3] {
                for vectorKernels in [true, false] where threads > 1 || !vectorKernels {
                    let same = PNGCodecStages.encodeOwn(picture, threads: threads, vectorKernels: vectorKernels) == file
                    #expect(same, "\(name), \(threads) threads, vector kernels \(vectorKernels)")
                }
            }
            #expect(try PNGEncoder(threads: 2).encode(picture) == file, "\(name): the encoder's")
        }
    }

    /// The command's file is the same on 1 and 2 threads and with the vector kernels turned off in the environment
    /// (BACKDROP_VECTOR_KERNELS=off, as VectorKernelTests turns them off).
    @Test func theRenderIsTheSameOnAnyThreadCountAndWithoutTheVectorKernels() throws {
        let input = Fixtures.path("photos/coffee.png")
        let directory = try Fixtures.temporaryDirectory()
        var outputs: [Data] = []
        for (threads, environment) in [("1", [:]), ("2", [:]), ("2", ["BACKDROP_VECTOR_KERNELS": "off"])] {
            let output = directory.appendingPathComponent("out.png").path
            let result = try runCLI(
                ["render", input, "-o", output, "--threads", threads],
                environment: environment)
            try #require(result.status == 0, "\(result.standardError)")
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: output)))
        }
        #expect(outputs[1] == outputs[0] && outputs[2] == outputs[0])
    }

    /// Pictures up to `PNGEncoder.ownEncoderWidth` (65,536) pixels wide go to the own encoder, a strip of their rows
    /// on each thread; wider ones to libdeflate, whose file is the rows filtered "up" and deflated at the level.
    @Test func theOwnEncoderTakesPicturesUpTo65536PixelsWide() throws {
        let within = noiseImage(width: PNGEncoder.ownEncoderWidth, height: 3)
        let file = try PNGEncoder(threads: 2).encode(within)
        #expect(file == PNGCodecStages.encodeOwn(within, threads: 1, vectorKernels: false))
        #expect(try PNGDecoder().decodeWithLibPNG(file, name: "within", as: UInt8.self) == within)
        #expect(file[25] == 2)
        let wider = noiseImage(width: PNGEncoder.ownEncoderWidth + 1, height: 2)
        let wide = try PNGEncoder(threads: 2).encode(wider)
        let deflated = PNGCodecStages.deflate(PNGCodecStages.filter(wider), compression: .default)
        #expect(PNGCodecStages.idat(wide) == deflated)
        #expect(try PNGDecoder().decodeWithLibPNG(wide, name: "wider", as: UInt8.self) == wider)
    }

    /// Random sizes and contents, each encoded on a random thread count, read back by libpng; the portable loops
    /// write the same file.
    @Test func randomPicturesRoundTrip() throws {
        var random = SplitMix64(seed: 0xFA57)
        for round in 0..<60 {
            let width = Int.random(in: 1...260, using: &random), height = Int.random(in: 1...140, using: &random)
            let alpha = Bool.random(using: &random)
            let picture: RGBAImage<UInt8> =
                switch round % 3 {
                case 0: noiseImage(width: width, height: height, seed: UInt64(round + 1), alpha: alpha)
                case 1: Self.mixedImage(width: width, height: height, seed: UInt64(round), alpha: alpha)
                default:
                    RGBAImage(
                        width: width, height: height,
                        samples: (0..<(width * height * 4)).map { index in
                            index % 4 == 3 && !alpha ? 255 : Int.random(in: 0..<10, using: &random) == 0 ? 1 : 0
                        })
                }
            let threads = Int.random(in: 1...3, using: &random)
            let file = PNGCodecStages.encodeOwn(picture, threads: threads)
            let name = "round \(round): \(width)×\(height)"
            #expect(try PNGDecoder().decodeWithLibPNG(file, name: name, as: UInt8.self) == picture, "\(name)")
            #expect(PNGCodecStages.encodeOwn(picture, threads: 1, vectorKernels: false) == file, "\(name)")
        }
    }

    /// The wallpaper's render (`render wallpaper-2048x1536.png --scale 2`): the pixels libdeflate's file had, in at
    /// most 1,122,929 bytes (issue 49's bound: 1.05 × the 1,069,456 bytes before it), and `--compression fast` writes
    /// the same bytes; pngcheck reads it.
    @Test func theWallpaperRenderKeepsItsPixelsWithinIssue49sBoundAndFastWritesTheSameBytes() throws {
        let input = Fixtures.path("photos/wallpaper-2048x1536.png")
        let directory = try Fixtures.temporaryDirectory()
        let paths = ["default", "fast", "small"].map { directory.appendingPathComponent("\($0).png").path }
        for (path, extra) in zip(paths, [[], ["--compression", "fast"], ["--compression", "small"]]) {
            let result = try runCLI(["render", input, "-o", path, "--scale", "2"] + extra)
            #expect(result.status == 0, "\(result.standardError)")
        }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: paths[0])))
        #expect(bytes.count <= 1_122_929, "\(bytes.count) bytes")
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: paths[1]))) == bytes)
        // `small` is libdeflate's (level 12): the same pixels from the other encoder.
        #expect(try PNGDecoder().decodeFile(paths[0]) == (try PNGDecoder().decodeFile(paths[2])))
        let check = try runProcess("/usr/bin/pngcheck", [paths[0]])
        #expect(check.status == 0 && check.output.hasPrefix("OK"), "pngcheck: \(check.output)")
    }
}
