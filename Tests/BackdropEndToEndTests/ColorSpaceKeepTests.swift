import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// `--color-space keep`: the picture drawn in the input's own colour space (nothing converted) and the input's
/// profile written into the output (PNG iCCP or cICP, JPEG APP2, WebP ICCP), read back by Pillow and by our decoder.
/// The fixtures are Tests/Fixtures/png-color's (scripts/make-png-color-fixtures) and heif's.
@Suite("--color-space keep")
struct ColorSpaceKeepTests {
    static func fixture(_ name: String) -> String { Fixtures.path("png-color/\(name)") }

    /// The chunk types of a PNG file, in order.
    static func chunkTypes(_ path: String) throws -> [String] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var types: [String] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self))
            offset += length + 12
        }
        return types
    }

    /// The ICC profile Pillow reads from each file, hex-encoded ("" for none), one a line.
    static func pillowProfiles(_ paths: [String]) throws -> [String] {
        let script = """
            import sys
            from PIL import Image
            for path in sys.argv[1:]:
                print((Image.open(path).info.get('icc_profile') or b'').hex())
            """
        let result = try runProcess("/usr/bin/env", ["python3", "-c", script] + paths)
        #expect(result.status == 0, "Pillow is missing or failed: \(result.output)")
        return result.output.split(separator: "\n", omittingEmptySubsequences: false).prefix(paths.count).map(
            String.init)
    }

    func render(_ input: String, _ output: String, _ options: [String] = []) throws -> CLIResult {
        let result = try runCLI(["render", input, "-o", output, "--style", "dark"] + options)
        #expect(result.status == 0, "\(result.standardError)")
        return result
    }

    /// A Display P3 screenshot (iCCP) rendered with keep: its pixels are the render of its stored samples with no
    /// conversion (the same samples saved by Pillow without a profile, rendered by default), bit for bit, and its
    /// iCCP profile is the input's, byte for byte (Pillow reads both). The default render differs (it converts).
    @Test func aDisplayP3PNGRendersUnconvertedAndKeepsItsProfile() throws {
        let directory = try Fixtures.temporaryDirectory()
        let stored = directory.appendingPathComponent("stored.png").path
        let strip = "import sys\nfrom PIL import Image\nImage.open(sys.argv[1]).save(sys.argv[2], icc_profile=None)"
        #expect(
            try runProcess("/usr/bin/env", ["python3", "-c", strip, Self.fixture("p3-iccp.png"), stored]).status == 0)
        let kept = directory.appendingPathComponent("kept.png").path
        let plain = directory.appendingPathComponent("plain.png").path
        let converted = directory.appendingPathComponent("converted.png").path
        _ = try render(Self.fixture("p3-iccp.png"), kept, ["--color-space", "keep"])
        _ = try render(stored, plain)
        _ = try render(Self.fixture("p3-iccp.png"), converted)
        let keptPicture = try ImageDecoder().decodeFileKeepingColorSpace(kept)
        #expect(keptPicture.image == (try PNGDecoder().decodeFile(plain)))
        let fromDefault = ImageFormatTests.largestDifference(keptPicture.image, try PNGDecoder().decodeFile(converted))
        print("kept against the default render: largest difference \(fromDefault)")
        #expect(fromDefault > 5)
        let profiles = try Self.pillowProfiles([Self.fixture("p3-iccp.png"), kept])
        #expect(profiles.count == 2 && profiles[0].count > 1000 && profiles[0] == profiles[1])
        let input = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("heif/display-p3.icc"))))
        #expect(keptPicture.space == .profile(input))
        #expect(try Self.chunkTypes(kept) == ["IHDR", "iCCP", "IDAT", "IEND"])
    }

    /// The README's screenshot line: the synthetic P3 home screen's wallpaper pixel (146, 2), P3 254,90,41, is sRGB's
    /// 255,72,0 by default (clipped) and stays 254,90,41 with keep, the dock under the frame drawn in both.
    @Test func theReadmeScreenshotsFigures() throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = Self.fixture("screenshot-p3.png")
        var pixels: [SIMD4<UInt8>] = []
        for options in [[], ["--color-space", "keep"]] {
            let output = directory.appendingPathComponent("shot\(pixels.count).png").path
            let result = try runCLI(
                ["render", "picture", input, "-o", output, "--style", "light", "--frame", "0,540,293,94"] + options)
            #expect(result.status == 0, "\(result.standardError)")
            pixels.append(try ImageDecoder().decodeFileKeepingColorSpace(output).image[146, 2])
        }
        #expect(try ImageDecoder().decodeFileKeepingColorSpace(input).image[146, 2] == SIMD4(254, 90, 41, 255))
        #expect(pixels == [SIMD4(255, 72, 0, 255), SIMD4(254, 90, 41, 255)])
    }

    /// A cICP-only input keeps its cICP (12/13: Display P3 with the sRGB curve) and nothing else; a HEIF's nclx box
    /// is written as the same cICP; a cHRM with gAMA input gets an iCCP of the profile made of them.
    @Test func codePointsStayCodePointsAndChromaticitiesBecomeAProfile() throws {
        let directory = try Fixtures.temporaryDirectory()
        for (input, name) in [
            (Self.fixture("p3-cicp.png"), "cicp"), (Fixtures.path("heif/p3-nclx.heic"), "nclx"),
        ] {
            let output = directory.appendingPathComponent("\(name).png").path
            _ = try render(input, output, ["--color-space", "keep"])
            #expect(try Self.chunkTypes(output) == ["IHDR", "cICP", "IDAT", "IEND"], "\(name)")
            guard case .codes(12, 13, let profile?) = try ImageDecoder().decodeFileKeepingColorSpace(output).space
            else {
                Issue.record("\(name): not cICP 12/13")
                continue
            }
            #expect(!profile.isEmpty)
        }
        let output = directory.appendingPathComponent("chrm.png").path
        _ = try render(Self.fixture("p3-chrm.png"), output, ["--color-space", "keep"])
        #expect(try Self.chunkTypes(output) == ["IHDR", "iCCP", "IDAT", "IEND"])
    }

    /// JPEG and WebP outputs carry the input's profile (Pillow reads the same bytes back), and our decoder converts
    /// them to sRGB as it converts the kept PNG: the lossless WebP to the same samples exactly, the JPEG (quality
    /// 100, 4:2:0) within 8 levels (7 measured); its stored samples tagged as a PNG convert to the same samples.
    @Test func jpegAndWebPOutputsCarryTheProfile() throws {
        let directory = try Fixtures.temporaryDirectory()
        let png = directory.appendingPathComponent("kept.png").path
        let jpeg = directory.appendingPathComponent("kept.jpg").path
        let webP = directory.appendingPathComponent("kept.webp").path
        for output in [png, jpeg, webP] {
            _ = try render(
                Self.fixture("p3-iccp.png"), output,
                ["--color-space", "keep"] + (output == png ? [] : ["--quality", "100"]))
        }
        let profiles = try Self.pillowProfiles([Self.fixture("p3-iccp.png"), jpeg, webP])
        #expect(
            profiles.count == 3 && profiles[0].count > 1000 && profiles[1] == profiles[0] && profiles[2] == profiles[0])
        let decoder = ImageDecoder()
        #expect(try decoder.decodeFile(webP) == decoder.decodeFile(png))
        #expect(try decoder.decodeFileKeepingColorSpace(webP).image == decoder.decodeFileKeepingColorSpace(png).image)
        let jpegDifference = ImageFormatTests.largestDifference(
            try decoder.decodeFile(jpeg), try decoder.decodeFile(png))
        let storedDifference = ImageFormatTests.largestDifference(
            try decoder.decodeFile(jpeg), try decoder.decodeFileKeepingColorSpace(jpeg).image)
        print(
            "JPEG: largest difference from the kept PNG, both converted, \(jpegDifference); converted against stored \(storedDifference)"
        )
        #expect(jpegDifference <= 8 && storedDifference > 20)
        // The JPEG's stored samples in a PNG tagged with the space the JPEG was read with convert to its samples.
        let stored = try decoder.decodeFileKeepingColorSpace(jpeg)
        let tagged = try PNGEncoder(colorSpace: stored.space).encode(stored.image)
        #expect(try decoder.decode(tagged) == decoder.decodeFile(jpeg))
    }

    /// Without the option, and with `--color-space srgb`, the output's bytes are the same.
    @Test func srgbIsTheDefault() throws {
        let directory = try Fixtures.temporaryDirectory()
        let first = directory.appendingPathComponent("a.png").path
        let second = directory.appendingPathComponent("b.png").path
        _ = try render(Self.fixture("p3-iccp.png"), first)
        _ = try render(Self.fixture("p3-iccp.png"), second, ["--color-space", "srgb"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)))
        #expect(try Self.chunkTypes(first) == ["IHDR", "sRGB", "gAMA", "cHRM", "IDAT", "IEND"])
    }

    /// A profile that does not inflate, or that Little CMS cannot read, with keep: one warning line, the output
    /// written untagged (no colour chunk), its pixels those of the default render (the samples taken as they are).
    @Test func aBrokenProfileWarnsOnceAndIsWrittenUntagged() throws {
        let directory = try Fixtures.temporaryDirectory()
        let unreadable = directory.appendingPathComponent("unreadable.png").path
        let make = """
            import sys
            from PIL import Image
            Image.open(sys.argv[1]).save(sys.argv[2], icc_profile=b'not a profile ' * 20)
            """
        #expect(
            try runProcess("/usr/bin/env", ["python3", "-c", make, Self.fixture("p3-iccp.png"), unreadable]).status == 0
        )
        for (input, words) in [(Self.fixture("broken-iccp.png"), "does not inflate"), (unreadable, "unreadable")] {
            let kept = directory.appendingPathComponent("kept.png").path
            let plain = directory.appendingPathComponent("plain.png").path
            let result = try render(input, kept, ["--color-space", "keep"])
            let lines = result.standardError.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains(words) && lines[0].contains("written untagged"), "\(lines)")
            #expect(try Self.chunkTypes(kept) == ["IHDR", "IDAT", "IEND"])
            _ = try render(input, plain)
            #expect(try PNGDecoder().decodeFile(kept) == PNGDecoder().decodeFile(plain))
        }
    }

    /// A cHRM chunk no profile can be made of (a white point's x of 0) warns in one line saying what is done under
    /// each choice: by default the colours are taken as sRGB (the output tagged sRGB), with keep the output is written
    /// untagged (no colour chunk); the pixels are the same.
    @Test func anUnusableCHRMSaysWhatEachChoiceDoes() throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = directory.appendingPathComponent("bad-chrm.png").path
        let make = """
            import struct, sys, zlib
            data = open(sys.argv[1], 'rb').read()
            out, at = bytearray(data[:8]), 8
            while at < len(data):
                (length,) = struct.unpack('>I', data[at:at + 4])
                kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
                if kind == b'cHRM':
                    body = struct.pack('>8I', 0, *struct.unpack('>8I', body)[1:])
                out += struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body))
                at += 12 + length
            open(sys.argv[2], 'wb').write(out)
            """
        #expect(
            try runProcess("/usr/bin/env", ["python3", "-c", make, Self.fixture("p3-chrm.png"), input]).status == 0)
        let kept = directory.appendingPathComponent("kept.png").path
        let converted = directory.appendingPathComponent("converted.png").path
        for (output, options, words, chunks) in [
            (converted, [], "colours taken as sRGB", ["IHDR", "sRGB", "gAMA", "cHRM", "IDAT", "IEND"]),
            (kept, ["--color-space", "keep"], "written untagged", ["IHDR", "IDAT", "IEND"]),
        ] {
            let lines = try render(input, output, options).standardError.split(separator: "\n")
            #expect(
                lines == ["backdrop: warning: \(input): its cHRM chunk is unusable; \(words)"[...]],
                "\(options): \(lines)")
            #expect(try Self.chunkTypes(output) == chunks)
        }
        #expect(try PNGDecoder().decodeFile(kept) == PNGDecoder().decodeFile(converted))
    }

    /// A profile made here (from a PNG's cHRM and gAMA, kept into the output) is dated 2000-01-01 00:00:00 in its
    /// header, not with the time of the run: the output's bytes do not depend on when it was made.
    /// Issue 70 item 5: cICP codes H.273 reserves (255/255) or leaves unspecified (0/0 is reserved too) name no
    /// space: kept, they are not copied into the output, which is written untagged with one warning line.
    @Test(arguments: [(255, 255), (0, 0), (2, 2)])
    func reservedColourCodesAreNotKept(primaries: Int, transfer: Int) throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = directory.appendingPathComponent("codes.png").path
        let make = """
            import struct, sys, zlib
            data = open(sys.argv[1], 'rb').read()
            body = bytes([int(sys.argv[3]), int(sys.argv[4]), 0, 1])
            cicp = struct.pack('>I', 4) + b'cICP' + body + struct.pack('>I', zlib.crc32(b'cICP' + body))
            open(sys.argv[2], 'wb').write(data[:33] + cicp + data[33:])
            """
        let made = try runProcess(
            "/usr/bin/env",
            ["python3", "-c", make, Self.fixture("p3-chrm.png"), input, String(primaries), String(transfer)])
        try #require(made.status == 0, "\(made.output)")
        let kept = directory.appendingPathComponent("kept.png").path
        let lines = try render(input, kept, ["--color-space", "keep"]).standardError.split(separator: "\n")
        #expect(
            lines == [
                "backdrop: warning: \(input): its colour codes (primaries \(primaries), transfer \(transfer)) are reserved or unspecified in H.273; written untagged"[
                    ...]
            ], "\(lines)")
        #expect(try Self.chunkTypes(kept) == ["IHDR", "IDAT", "IEND"])
    }

    /// Issue 70 item 5: a JPEG's ICC profile larger than a PNG's iCCP chunk is read back with (8 MiB here) is not
    /// kept: one warning line, the output untagged, so nothing is written that does not read back.
    @Test func aProfileTooLargeToReadBackIsNotKept() throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = directory.appendingPathComponent("large-profile.jpg").path
        let make = """
            import sys
            from PIL import Image
            profile = open(sys.argv[1], 'rb').read()
            Image.open(sys.argv[2]).convert('RGB').crop((0, 0, 64, 48)).save(
                sys.argv[3], quality=80, icc_profile=profile + bytes(9 * 1024 * 1024))
            """
        let made = try runProcess(
            "/usr/bin/env",
            ["python3", "-c", make, Fixtures.path("heif/display-p3.icc"), Fixtures.path("photos/coffee.png"), input])
        try #require(made.status == 0, "\(made.output)")
        let kept = directory.appendingPathComponent("kept.png").path
        let result = try render(input, kept, ["--color-space", "keep"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n")
        #expect(
            lines.count == 1 && lines[0].contains("over the 8388608 bytes a kept profile may have; written untagged"),
            "\(lines)")
        #expect(try !Self.chunkTypes(kept).contains("iCCP"))
    }

    @Test func aMadeProfileIsDatedTheSameAtAnyTime() throws {
        let directory = try Fixtures.temporaryDirectory()
        let kept = directory.appendingPathComponent("kept.png").path
        _ = try render(Self.fixture("p3-chrm.png"), kept, ["--color-space", "keep"])
        guard case .profile(let profile) = try ImageDecoder().decodeFileKeepingColorSpace(kept).space else {
            Issue.record("the cHRM input's output carries no profile")
            return
        }
        #expect(Array(profile[24..<36]) == [0x07, 0xD0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0])
    }

    /// The encoder writes a kept space's chunks itself, on each of its paths (one stream or strips, RGB or RGBA, the
    /// picture kept or filtered in place): the chunks right after IHDR, the same bytes on every path, and the file
    /// read back in the space it was written in.
    @Test func theEncoderWritesTheKeptChunksOnEveryPath() throws {
        let p3 = try ImageDecoder().decodeFileKeepingColorSpace(Self.fixture("p3-iccp.png")).space
        let spaces: [(PictureColorSpace, [String])] = [
            (.sRGB, ["IHDR", "sRGB", "gAMA", "cHRM", "IDAT", "IEND"]), (p3, ["IHDR", "iCCP", "IDAT", "IEND"]),
            (.codes(primaries: 12, transfer: 16, profile: nil), ["IHDR", "cICP", "IDAT", "IEND"]),
            (.untagged, ["IHDR", "IDAT", "IEND"]),
        ]
        let directory = try Fixtures.temporaryDirectory()
        for (width, height) in [(64, 48), (1500, 1200)] {
            for alpha in [false, true] {
                let image = noiseImage(width: width, height: height, seed: 3, alpha: alpha)
                for (space, chunks) in spaces {
                    let encoder = PNGEncoder(threads: 2, colorSpace: space)
                    let bytes = try encoder.encode(image)
                    var destroyed = image
                    #expect(try encoder.encode(destroying: &destroyed) == bytes, "\(width)×\(height) \(space)")
                    let path = directory.appendingPathComponent("o.png").path
                    try Data(bytes).write(to: URL(fileURLWithPath: path))
                    #expect(try Self.chunkTypes(path) == chunks)
                    let read = try ImageDecoder().decodeFileKeepingColorSpace(path)
                    #expect(read.image == image)
                    if case .codes = space { continue }  // PQ has no profile to compare: the codes are checked above
                    // A file without colour chunks reads as sRGB, as any untagged PNG.
                    #expect(read.space == (space == .untagged ? .sRGB : space), "\(space)")
                }
            }
        }
    }

    /// A bad value is one line and exit 2; a scene has no input picture and refuses the field through the conflict
    /// table (the earlier spelling's `--scene`, and the key); `render scene` does not list the option at all.
    @Test func aBadValueAndASceneAreRefused() throws {
        let directory = try Fixtures.temporaryDirectory()
        let output = directory.appendingPathComponent("o.png").path
        let bad = try runCLI(["render", Self.fixture("p3-iccp.png"), "-o", output, "--color-space", "p3"])
        #expect(
            bad.status == 2 && bad.standardError == "backdrop: error: unknown --color-space 'p3' (known: srgb, keep)\n")
        let scene = try runCLI(
            ["render", "--scene", "navbar-tabbar-blur", "--device", "iphone-5", "-o", output, "--color-space", "keep"])
        #expect(
            scene.status == 2
                && scene.standardError
                    == "backdrop: error: --scene draws the scene's own layers and effect views: leave out --color-space\n",
            "\(scene.standardError)")
        // `render scene` has no such option (CommandModesTests checks every mode's list).
        let mode = try runCLI(
            ["render", "scene", "navbar-tabbar-blur", "--device", "iphone-5", "-o", output, "--color-space", "keep"])
        #expect(mode.status == 2 && mode.standardError.contains("color-space"), "\(mode.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
        var request = RenderRequest()
        (request.scene, request.device, request.colorSpace) = ("navbar-tabbar-blur", "iphone-5", "keep")
        #expect(throws: BackdropError.self) { try request.validate(spelling: .key) }
        do { _ = try request.validate(spelling: .key) } catch {
            #expect(error.message.hasSuffix("leave out color-space"), "\(error.message)")
        }
    }

    /// A manifest's `color-space: keep` draws the golden `render --color-space keep` draws (the input unconverted).
    @Test func aManifestTakesTheKeyAsRenderTakesTheOption() throws {
        let directory = try Fixtures.temporaryDirectory()
        try FileManager.default.copyItem(
            atPath: Self.fixture("p3-iccp.png"), toPath: directory.appendingPathComponent("p3.png").path)
        let manifest = directory.appendingPathComponent("manifest.json")
        try Data(
            """
            { "cases": [ { "name": "kept", "input": "p3.png", "golden": "golden/kept.png", "style": "dark",
                           "color-space": "keep" } ] }
            """.utf8
        ).write(to: manifest)
        let record = try runCLI(["check", manifest.path, "--update", "missing"])
        #expect(record.status == 0 && record.standardOutput.contains("1 recorded"), "\(record.standardOutput)")
        let rendered = directory.appendingPathComponent("render.png").path
        _ = try render(directory.appendingPathComponent("p3.png").path, rendered, ["--color-space", "keep"])
        let golden = try PNGDecoder().decodeFile(directory.appendingPathComponent("golden/kept.png").path)
        #expect(golden == (try ImageDecoder().decodeFileKeepingColorSpace(rendered).image))
    }
}

extension ImageDecoder {
    /// The file at `path` decoded unconverted, with its colour space.
    func decodeFileKeepingColorSpace(_ path: String) throws -> (image: RGBAImage<UInt8>, space: PictureColorSpace) {
        try decodeFile(path, choice: .keep)
    }
}
