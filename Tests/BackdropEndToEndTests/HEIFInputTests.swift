import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// HEIF in (by content): orientation, alpha and colour against independent references, and hostile files.
/// The fixtures are Tests/Fixtures/heif's, made by scripts/make-heif-fixtures.
@Suite("HEIF input")
struct HEIFInputTests {
    static func fixture(_ name: String) -> String { Fixtures.path("heif/\(name)") }

    /// vips's decode of a HEIF file (its heifload keeps the stored colours and attaches the profile), as RGBA.
    static func vipsDecode(_ path: String, in directory: URL) throws -> RGBAImage<UInt8> {
        let output = directory.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent + ".vips.png").path
        let result = try runProcess("/usr/bin/vips", ["copy", path, output + "[strip]"])
        #expect(result.status == 0, "vips is missing or failed (scripts/install-deps --test): \(result.output)")
        return try PNGDecoder().decodeFile(output)
    }

    static func meanDifference(_ a: RGBAImage<UInt8>, _ b: RGBAImage<UInt8>) -> Double {
        Double(zip(a.samples, b.samples).map { abs(Int($0) - Int($1)) }.reduce(0, +)) / Double(a.samples.count)
    }

    /// The fixtures' source pictures (the coffee crop, and the logo at 160×160, as the script made them), turned as
    /// their orientation says with Pillow's EXIF transposes (6: a quarter turn clockwise; 2: a mirror), written
    /// beside the wrong turn for contrast.
    static func sourcesTransposed(in directory: URL) throws {
        let script = """
            import sys
            from PIL import Image
            photos, d = sys.argv[1], sys.argv[2]
            coffee = Image.open(photos + '/coffee.png').convert('RGB').crop((100, 60, 300, 180)).convert('RGBA')
            coffee.transpose(Image.ROTATE_270).save(d + '/turned.heic.source.png')
            coffee.transpose(Image.ROTATE_90).save(d + '/turned.heic.wrong.png')
            logo = Image.open(photos + '/logo-alpha.png').convert('RGBA').resize((160, 160), Image.LANCZOS)
            logo.transpose(Image.FLIP_LEFT_RIGHT).save(d + '/mirrored-alpha.heic.source.png')
            logo.save(d + '/mirrored-alpha.heic.wrong.png')
            """
        let result = try runProcess(
            "/usr/bin/env", ["python3", "-c", script, Fixtures.path("photos"), directory.path])
        #expect(result.status == 0, "Pillow is missing or failed: \(result.output)")
    }

    /// irot (orientation 6) and imir (orientation 2) applied, alpha kept. Against the source picture turned by Pillow:
    /// a mean difference under 3 levels (HEVC at quality 90 is lossy), and over 20 for the wrong turn. Against vips:
    /// at most 1 level a sample (vips reads HEIF through the same libheif and libde265; what differs is our
    /// boundary's handling of planes, strides, transformations and alpha).
    @Test func decodesUprightWithAlphaLikeTheSourceAndVips() throws {
        let directory = try Fixtures.temporaryDirectory()
        try Self.sourcesTransposed(in: directory)
        for (name, size) in [
            ("turned.heic", PixelSize(width: 120, height: 200)),
            ("mirrored-alpha.heic", PixelSize(width: 160, height: 160)),
        ] {
            let ours = try ImageDecoder().decodeFile(Self.fixture(name))
            #expect(ours.size == size, "\(name): \(ours.size)")
            let source = try PNGDecoder().decodeFile(directory.appendingPathComponent(name + ".source.png").path)
            let wrong = try PNGDecoder().decodeFile(directory.appendingPathComponent(name + ".wrong.png").path)
            let (mean, wrongMean) = (Self.meanDifference(ours, source), Self.meanDifference(ours, wrong))
            let vips = try Self.vipsDecode(Self.fixture(name), in: directory)
            let fromVips = zip(ours.samples, vips.samples).map { abs(Int($0) - Int($1)) }.max() ?? 0
            print(
                "\(name): mean difference from the source \(mean), from the wrong turn \(wrongMean); from vips \(fromVips)"
            )
            #expect(mean < 3 && wrongMean > 20, "\(name): \(mean), \(wrongMean)")
            #expect(vips.size == ours.size && fromVips <= 1, "\(name): \(fromVips)")
        }
        // The logo's alpha survives: over a tenth of its pixels transparent, and over a tenth opaque.
        let logo = try ImageDecoder().decodeFile(Self.fixture("mirrored-alpha.heic"))
        let alphas = stride(from: 3, to: logo.samples.count, by: 4).map { logo.samples[$0] }
        #expect(alphas.filter { $0 < 8 }.count > alphas.count / 10)
        #expect(alphas.filter { $0 > 247 }.count > alphas.count / 10)
    }

    /// A `colr` ICC profile (Display P3, Little CMS's) and an nclx box naming the same space (primaries 12, transfer
    /// 13) both come out as Pillow's ImageCms converts vips's stored samples with that profile (relative
    /// colorimetric): within 2 levels a sample; the stored samples differ by more than 20.
    @Test func colrProfilesAreConvertedToSRGBLikeImageCms() throws {
        let directory = try Fixtures.temporaryDirectory()
        for name in ["p3-icc.heic", "p3-nclx.heic"] {
            let stored = directory.appendingPathComponent(name + ".stored.png").path
            let reference = directory.appendingPathComponent(name + ".reference.png").path
            #expect(try runProcess("/usr/bin/vips", ["copy", Self.fixture(name), stored + "[strip]"]).status == 0)
            let script = """
                import sys
                from PIL import Image, ImageCms
                stored = Image.open(sys.argv[1]).convert('RGB')
                ImageCms.profileToProfile(stored, ImageCms.getOpenProfile(sys.argv[2]), ImageCms.createProfile('sRGB'),
                                          renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC
                                          ).convert('RGBA').save(sys.argv[3], icc_profile=None)
                """
            let result = try runProcess(
                "/usr/bin/env", ["python3", "-c", script, stored, Self.fixture("display-p3.icc"), reference])
            #expect(result.status == 0, "Pillow failed: \(result.output)")
            let ours = try ImageDecoder().decodeFile(Self.fixture(name))
            let pillow = try PNGDecoder().decodeFile(reference)
            let unconverted = try PNGDecoder().decodeFile(stored)
            let difference = ImageFormatTests.largestDifference(ours, pillow)
            print("\(name): largest difference from ImageCms \(difference)")
            #expect(ours.size == pillow.size && difference <= 2, "\(name): \(difference)")
            #expect(ImageFormatTests.largestDifference(unconverted, pillow) > 20, "\(name): the profile should move it")
        }
    }

    /// Read by content: a HEIF file named .jpg renders, and a batch takes it.
    @Test func renderTakesHEIFByContent() throws {
        let directory = try Fixtures.temporaryDirectory()
        let folder = directory.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Self.fixture("turned.heic"), toPath: folder.appendingPathComponent("photo.jpg").path)
        let output = directory.appendingPathComponent("out.png").path
        let one = try runCLI(["render", folder.appendingPathComponent("photo.jpg").path, "-o", output])
        #expect(one.status == 0, "\(one.standardError)")
        #expect(try PNGDecoder().decodeFile(output).size == PixelSize(width: 120, height: 200))
        let out = directory.appendingPathComponent("out")
        let batch = try runCLI(["render", folder.path, "--output-dir", out.path])
        #expect(batch.status == 0 && batch.standardError.isEmpty, "\(batch.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["photo.png"])
    }

    /// The hostile files: truncated, a corrupt HEVC stream (random bytes, a broken NAL length, zeroed slices), `ispe`
    /// boxes that lie (over the limit, larger or smaller than the stream, zero): each one line naming the file and the
    /// problem, a non-zero exit, no output; the lie over the limit refused before decoding (under 100 MB of memory).
    @Test func hostileHEIFAreOneLineErrors() throws {
        let directory = try Fixtures.temporaryDirectory()
        let heic = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.fixture("turned.heic"))))
        let mdat = (0..<(heic.count - 4)).first { heic[$0..<($0 + 4)] == [0x6D, 0x64, 0x61, 0x74] }!
        let ispe = (0..<(heic.count - 4)).first { heic[$0..<($0 + 4)] == [0x69, 0x73, 0x70, 0x65] }!
        func patched(_ offset: Int, _ bytes: [UInt8]) -> [UInt8] {
            var copy = heic
            copy.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
            return copy
        }
        func size(_ width: UInt32, _ height: UInt32) -> [UInt8] {
            [width, height].flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        }
        var random = SplitMix64(seed: 49)
        let noise = (0..<(heic.count - mdat - 4)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let cases: [(String, [UInt8], String)] = [
            ("truncated.heic", Array(heic.prefix(heic.count / 2)), "truncated"),
            ("header.heic", Array(heic.prefix(40)), "HEIF file"),
            ("noise.heic", patched(mdat + 4, noise), "HEIF image data is corrupt"),
            ("length.heic", patched(mdat + 4, [0x7F, 0xFF, 0xFF, 0xFF]), "HEIF image data is corrupt"),
            ("zeroed.heic", patched(mdat + 10, [UInt8](repeating: 0, count: 190)), "HEIF image data is corrupt"),
            ("huge.heic", patched(ispe + 8, size(60000, 60000)), "over the limit"),
            ("larger.heic", patched(ispe + 8, size(4000, 3000)), "another size than its header"),
            ("smaller.heic", patched(ispe + 8, size(16, 16)), "another size than its header"),
            ("zero.heic", patched(ispe + 8, size(0, 0)), "no image size"),
        ]
        let output = directory.appendingPathComponent("o.png").path
        for (name, bytes, message) in cases {
            let path = directory.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let result = try runCLIMeasuringPeakMemory(["render", path, "-o", output])
            let lines = result.output.split(separator: "\n")
            #expect(result.status == 1, "\(name): \(result.status)")
            #expect(lines.count == 1 && lines[0].contains(path), "\(name): \(result.output)")
            #expect(result.output.contains(message), "\(name): \(result.output)")
            #expect(result.bytes < 100_000_000, "\(name): \(result.bytes) bytes")
            #expect(!FileManager.default.fileExists(atPath: output), "\(name)")
        }
    }

    /// libheif is loaded by the first HEIF input, not at start (docs/performance.md, "Process start"): what the
    /// dynamic loader maps before `main` (LD_TRACE_LOADED_OBJECTS, the list ldd prints) names libpng16, which
    /// `backdrop` links, and neither libheif nor its HEVC codecs.
    @Test func libheifIsNotLoadedAtStart() throws {
        let loaded = try runCLI(["--version"], environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
        #expect(loaded.status == 0, "\(loaded.standardError)")
        #expect(loaded.standardOutput.contains("libpng16.so.16"), "\(loaded.standardOutput)")
        for library in ["libheif", "libde265", "libx265"] {
            #expect(!loaded.standardOutput.contains(library), "\(library) is loaded at start")
        }
    }

    /// A libheif.so.1 that cannot be loaded (a file that is no shared object, found first through LD_LIBRARY_PATH):
    /// `--version` and a PNG render run as usual; a HEIF input is one line naming the loader's reason and the Debian
    /// package, a non-zero exit and no output.
    @Test func anUnloadableLibheifFailsOnlyHEIFInputsInOneLine() throws {
        let directory = try Fixtures.temporaryDirectory()
        try Data("not a shared object\n".utf8).write(to: directory.appendingPathComponent("libheif.so.1"))
        let search = [directory.path, ProcessInfo.processInfo.environment["LD_LIBRARY_PATH"] ?? ""]
        let environment = ["LD_LIBRARY_PATH": search.filter { !$0.isEmpty }.joined(separator: ":")]
        let version = try runCLI(["--version"], environment: environment)
        #expect(version.status == 0, "\(version.standardError)")
        let png = directory.appendingPathComponent("png.png").path
        let fromPNG = try runCLI(
            ["render", Fixtures.path("photos/glyphs-alpha.png"), "-o", png], environment: environment)
        #expect(fromPNG.status == 0, "\(fromPNG.standardError)")
        let output = directory.appendingPathComponent("heic.png").path
        let path = Self.fixture("turned.heic")
        let fromHEIF = try runCLI(["render", path, "-o", output], environment: environment)
        let lines = fromHEIF.standardError.split(separator: "\n")
        #expect(fromHEIF.status == 1, "\(fromHEIF.status)")
        #expect(
            lines.count == 1 && lines[0].contains(path) && lines[0].contains("libheif.so.1")
                && lines[0].hasSuffix("install Debian's libheif1 (scripts/install-deps)"), "\(fromHEIF.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
