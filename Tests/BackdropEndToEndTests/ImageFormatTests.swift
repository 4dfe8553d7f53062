import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// JPEG and WebP in (by content), JPEG and WebP out (by extension), against Pillow's independent decode.
@Suite("JPEG and WebP inputs and outputs")
struct ImageFormatTests {
    /// Writes the fixtures with Pillow into `directory`: a JPEG with EXIF orientation 6, a lossless and a lossy WebP,
    /// a CMYK JPEG, and beside each Pillow's own decode (`NAME.reference.png`, the JPEG turned upright by
    /// `ImageOps.exif_transpose`).
    static func makeFixtures(in directory: URL) throws {
        let script = """
            import sys
            from PIL import Image, ImageOps
            d = sys.argv[2]
            source = Image.open(sys.argv[1]).convert('RGB').crop((100, 60, 300, 180))
            exif = Image.Exif(); exif[0x0112] = 6
            source.save(d + '/turned.jpg', quality=92, exif=exif.tobytes())
            source.save(d + '/lossless.webp', lossless=True)
            source.save(d + '/lossy.webp', quality=80)
            source.convert('CMYK').save(d + '/cmyk.jpg', quality=95)
            source.save(d + '/progressive.jpg', quality=80, progressive=True)
            for name in ['turned.jpg', 'lossless.webp', 'lossy.webp', 'cmyk.jpg']:
                ImageOps.exif_transpose(Image.open(d + '/' + name)).convert('RGBA').save(d + '/' + name + '.reference.png', icc_profile=None)
            """
        let photo = Fixtures.path("photos/coffee.png")
        let result = try runProcess("/usr/bin/env", ["python3", "-c", script, photo, directory.path])
        #expect(result.status == 0, "Pillow is missing or failed (scripts/install-deps --test): \(result.output)")
    }

    /// The largest difference of any sample between two pictures of the same size.
    static func largestDifference(_ a: RGBAImage<UInt8>, _ b: RGBAImage<UInt8>) -> Int {
        zip(a.samples, b.samples).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// Tolerances (largest sample difference from Pillow): 0 for lossless WebP (the same samples); 0 for lossy WebP
    /// (both are libwebp's decoder); 2 for JPEG (Pillow's libjpeg-turbo may be another build; both use the islow
    /// IDCT and fancy upsampling); 3 for CMYK (both convert C·K/255, rounding differs).
    @Test func decodesLikePillowWithOrientationApplied() throws {
        let directory = try Fixtures.temporaryDirectory()
        try Self.makeFixtures(in: directory)
        for (name, tolerance) in [("turned.jpg", 2), ("lossless.webp", 0), ("lossy.webp", 0), ("cmyk.jpg", 3)] {
            let ours = try ImageDecoder().decodeFile(directory.appendingPathComponent(name).path)
            let pillow = try PNGDecoder().decodeFile(directory.appendingPathComponent(name + ".reference.png").path)
            #expect(ours.size == pillow.size, "\(name)")
            let difference = Self.largestDifference(ours, pillow)
            print("\(name): largest difference from Pillow \(difference)")
            #expect(ours.size == pillow.size && difference <= tolerance, "\(name): \(difference) > \(tolerance)")
        }
        // Orientation 6: the 200×120 picture stands 120×200.
        #expect(
            try ImageDecoder().decodeFile(directory.appendingPathComponent("turned.jpg").path).size
                == PixelSize(width: 120, height: 200))
    }

    @Test func renderTakesJPEGAndWebPAndBatchesNameWhatTheySkip() throws {
        let directory = try Fixtures.temporaryDirectory()
        try Self.makeFixtures(in: directory)
        let output = directory.appendingPathComponent("out.png").path
        let one = try runCLI(["render", directory.appendingPathComponent("turned.jpg").path, "-o", output])
        #expect(one.status == 0, "\(one.standardError)")
        #expect(try PNGDecoder().decodeFile(output).size == PixelSize(width: 120, height: 200))

        let folder = directory.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["turned.jpg", "lossy.webp"] {
            try FileManager.default.copyItem(
                at: directory.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        // A PNG named .txt is taken (content decides); a text file named .png is skipped and named.
        try FileManager.default.copyItem(
            at: directory.appendingPathComponent("lossless.webp.reference.png"),
            to: folder.appendingPathComponent("picture.txt"))
        try Data("not a picture".utf8).write(to: folder.appendingPathComponent("notes.png"))
        let out = directory.appendingPathComponent("out")
        let batch = try runCLI(["render", folder.path, "--output-dir", out.path])
        #expect(batch.status == 0, "\(batch.standardError)")
        #expect(batch.standardError.contains("skipped 1 file") && batch.standardError.contains("notes.png"))
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(written == ["lossy.png", "picture.png", "turned.png"])
    }

    /// A manifest's inputs are read as `render` reads them: by content, so a JPEG or WebP input draws the golden
    /// `render` draws from the same file.
    @Test func aManifestTakesJPEGAndWebPInputsAsRenderDoes() throws {
        let directory = try Fixtures.temporaryDirectory()
        try Self.makeFixtures(in: directory)
        let manifest = directory.appendingPathComponent("manifest.json")
        try Data(
            """
            { "cases": [
                { "name": "jpeg", "input": "turned.jpg", "golden": "golden/jpeg.png", "style": "dark" },
                { "name": "webp", "input": "lossy.webp", "golden": "golden/webp.png", "style": "light" }
            ] }
            """.utf8
        ).write(to: manifest)
        let record = try runCLI(["check", manifest.path, "--update", "missing"])
        #expect(record.status == 0 && record.standardOutput.contains("2 recorded"), "\(record.standardOutput)")
        for (name, input, style) in [("jpeg", "turned.jpg", "dark"), ("webp", "lossy.webp", "light")] {
            let rendered = directory.appendingPathComponent("\(name)-render.png").path
            let render = try runCLI([
                "render", directory.appendingPathComponent(input).path, "-o", rendered, "--style", style,
            ])
            #expect(render.status == 0, "\(render.standardError)")
            let golden = try Data(contentsOf: directory.appendingPathComponent("golden/\(name).png"))
            #expect(golden == (try Data(contentsOf: URL(fileURLWithPath: rendered))), "\(name)")
        }
    }

    @Test func writesJPEGAndWebPByExtensionAndRefusesAnUnknownOne() throws {
        let directory = try Fixtures.temporaryDirectory()
        let photo = Fixtures.path("photos/coffee.png")
        for (name, format) in [("o.jpg", "JPEG"), ("o.JPEG", "JPEG"), ("o.webp", "WEBP")] {
            let path = directory.appendingPathComponent(name).path
            let result = try runCLI(["render", photo, "-o", path, "--quality", "80"])
            #expect(result.status == 0, "\(name): \(result.standardError)")
            let check = try runProcess(
                "/usr/bin/env",
                ["python3", "-c", "import sys; from PIL import Image; print(Image.open(sys.argv[1]).format)", path])
            #expect(check.output.trimmingCharacters(in: .whitespacesAndNewlines) == format, "\(name): \(check.output)")
            // What we wrote reads back close to the PNG render (lossy: a mean difference under 3 levels).
            let png = directory.appendingPathComponent(name + ".png").path
            #expect(try runCLI(["render", photo, "-o", png]).status == 0)
            let (ours, reference) = (try ImageDecoder().decodeFile(path), try PNGDecoder().decodeFile(png))
            let mean =
                Double(zip(ours.samples, reference.samples).map { abs(Int($0) - Int($1)) }.reduce(0, +))
                / Double(reference.samples.count)
            #expect(mean < 3, "\(name): mean difference \(mean)")
        }
        for (arguments, message) in [
            (["-o", directory.appendingPathComponent("o.gif").path], "unknown output format"),
            (["-o", directory.appendingPathComponent("o.jpg").path, "--quality", "0"], "--quality 0 is out of range"),
            (["-o", directory.appendingPathComponent("q.png").path, "--quality", "50"], "--quality is for"),
            (["-o", directory.appendingPathComponent("d.jpg").path, "--depth", "16"], "--depth 16 is for PNG outputs"),
            (
                ["-o", directory.appendingPathComponent("d.webp").path, "--depth", "16"],
                "--depth 16 is for PNG outputs"
            ),
        ] {
            let result = try runCLI(["render", photo] + arguments)
            #expect(
                result.status != 0 && result.standardError.contains(message), "\(arguments): \(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("o.gif").path))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("q.png").path))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("d.jpg").path))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("d.webp").path))
    }

    /// A truncated JPEG, a header that lies about the size (over the limit, and within it with no data behind it),
    /// a corrupt WebP and a file of no known format: one line naming the file, a non-zero exit.
    @Test func hostileJPEGAndWebPAreOneLineErrors() throws {
        let directory = try Fixtures.temporaryDirectory()
        try Self.makeFixtures(in: directory)
        let jpeg = [UInt8](try Data(contentsOf: directory.appendingPathComponent("turned.jpg")))
        let webp = [UInt8](try Data(contentsOf: directory.appendingPathComponent("lossy.webp")))
        // The SOF0 marker's height and width (big-endian, 3 and 5 bytes after its length).
        func lying(width: Int, height: Int) -> [UInt8] {
            var bytes = jpeg
            let sof = (0..<(bytes.count - 1)).first {
                bytes[$0] == 0xFF && (bytes[$0 + 1] == 0xC0 || bytes[$0 + 1] == 0xC2)
            }!
            bytes[sof + 5] = UInt8(height >> 8)
            bytes[sof + 6] = UInt8(height & 0xFF)
            bytes[sof + 7] = UInt8(width >> 8)
            bytes[sof + 8] = UInt8(width & 0xFF)
            return bytes
        }
        let cases: [(String, [UInt8], String)] = [
            ("truncated.jpg", Array(jpeg.prefix(jpeg.count / 2)), "truncated"),
            ("huge.jpg", lying(width: 65000, height: 65000), "over the limit"),
            ("lying.jpg", lying(width: 9000, height: 9000), "truncated"),
            ("broken.webp", Array(webp.prefix(40)), "WebP"),
            ("header.jpg", [0xFF, 0xD8, 0xFF], "truncated"),
            ("words.png", Array("GIF89a not really".utf8), "not a PNG, JPEG, WebP or HEIF file"),
        ]
        for (name, bytes, message) in cases {
            let path = directory.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let result = try runCLI(["render", path, "-o", directory.appendingPathComponent("o.png").path])
            let lines = result.standardError.split(separator: "\n")
            #expect(result.status != 0, "\(name)")
            #expect(lines.count == 1 && lines[0].contains(path), "\(name): \(result.standardError)")
            #expect(result.standardError.contains(message), "\(name): \(result.standardError)")
        }
    }

    /// Issue 70, item 7: a progressive JPEG of 999 scans took 9 s. A scan visits every block of its components however
    /// little it carries, so the scans' work is budgeted in passes over the picture's blocks (64), checked as each
    /// scan starts: a file whose first scan (DC, every component) is repeated 100 times is refused, one repeated 10
    /// times (libjpeg warns and decodes) still draws.
    @Test func aJPEGWhoseScansRedoThePictureTooOftenIsRefused() throws {
        let directory = try Fixtures.temporaryDirectory()
        try Self.makeFixtures(in: directory)
        let jpeg = [UInt8](try Data(contentsOf: directory.appendingPathComponent("progressive.jpg")))
        // The first scan: its SOS marker up to the next marker that is not a stuffed byte or a restart.
        let sos = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
        let end = try #require(
            ((sos + 2)..<(jpeg.count - 1)).first {
                jpeg[$0] == 0xFF && jpeg[$0 + 1] != 0x00 && !(0xD0...0xD7).contains(jpeg[$0 + 1])
            })
        func repeatingTheFirstScan(_ times: Int) -> [UInt8] {
            Array(jpeg[..<sos]) + Array(repeating: Array(jpeg[sos..<end]), count: times).flatMap { $0 }
                + Array(jpeg[end...])
        }
        let output = directory.appendingPathComponent("o.png").path
        let few = directory.appendingPathComponent("few.jpg").path
        try Data(repeatingTheFirstScan(10)).write(to: URL(fileURLWithPath: few))
        let drawn = try runCLI(["render", few, "-o", output])
        #expect(drawn.status == 0, "\(drawn.standardError)")
        let many = directory.appendingPathComponent("many.jpg").path
        try Data(repeatingTheFirstScan(100)).write(to: URL(fileURLWithPath: many))
        let refused = try runCLI(["render", many, "-o", output, "--force"])
        #expect(refused.status != 0 && refused.standardError.split(separator: "\n").count == 1)
        #expect(refused.standardError.contains("more than 64 times over"), "\(refused.standardError)")
    }

    /// A Display P3 ICC v4 profile (matrix and sRGB curves; the colorants of Apple's Display P3, adapted to D50),
    /// written by the script, since Debian ships none.
    static let displayP3Profile = """
        import struct
        def s15(v): return struct.pack('>i', int(round(v * 65536)))
        def xyz(x, y, z): return b'XYZ ' + b'\\0' * 4 + s15(x) + s15(y) + s15(z)
        def text(t):
            u = t.encode('utf-16-be')
            return b'mluc' + b'\\0' * 4 + struct.pack('>II', 1, 12) + b'enUS' + struct.pack('>II', len(u), 28) + u
        curve = b'para' + b'\\0' * 4 + struct.pack('>HH', 3, 0) + b''.join(
            s15(v) for v in (2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045))
        tags = [(b'desc', text('Display P3 (test)')), (b'cprt', text('none')), (b'wtpt', xyz(0.9642, 1.0, 0.8249)),
                (b'rXYZ', xyz(0.51512, 0.24120, -0.00105)), (b'gXYZ', xyz(0.29198, 0.69225, 0.04189)),
                (b'bXYZ', xyz(0.15710, 0.06657, 0.78407)), (b'rTRC', curve), (b'gTRC', curve), (b'bTRC', curve)]
        offset = 128 + 4 + 12 * len(tags)
        table, data = b'', b''
        for signature, body in tags:
            body += b'\\0' * (-len(body) % 4)
            table += signature + struct.pack('>II', offset + len(data), len(body))
            data += body
        size = offset + len(data)
        header = (struct.pack('>I', size) + b'\\0' * 4 + struct.pack('>I', 0x04300000) + b'mntrRGB XYZ ' + b'\\0' * 12
                  + b'acsp' + b'\\0' * 24 + struct.pack('>I', 0) + s15(0.9642) + s15(1.0) + s15(0.8249) + b'\\0' * 48)
        p3 = header + struct.pack('>I', len(tags)) + table + data
        """

    /// Display P3 pictures (a JPEG and a lossless WebP with the profile embedded) come out with the colours Pillow's
    /// ImageCms gives (relative colorimetric to sRGB) within 2 levels a sample (Pillow's Little CMS is its own
    /// build); the conversion moves saturated colours by more than 20 levels, so skipping it fails. A broken
    /// profile is one warning line and the picture as sRGB.
    @Test func displayP3PicturesAreConvertedToSRGBLikeImageCms() throws {
        let directory = try Fixtures.temporaryDirectory()
        let script =
            Self.displayP3Profile + "\n" + """
                import sys, io
                from PIL import Image, ImageCms
                d = sys.argv[1]
                picture = Image.new('RGB', (96, 64))
                picture.putdata([(255 * (x // 32 == 0), 255 * (x // 32 == 1), 255 * (x // 32 == 2) + (y * 3) % 64)
                                 if y < 32 else (x * 2 % 256, (y * 5) % 256, 255 - x * 2 % 256)
                                 for y in range(64) for x in range(96)])
                picture.save(d + '/p3.jpg', quality=95, icc_profile=p3)
                picture.save(d + '/p3.webp', lossless=True, icc_profile=p3)
                picture.save(d + '/broken.jpg', quality=95, icc_profile=b'not a profile' * 20)
                picture.save(d + '/plain.jpg', quality=95)
                srgb = ImageCms.createProfile('sRGB')
                for name in ['p3.jpg', 'p3.webp']:
                    stored = Image.open(d + '/' + name).convert('RGB')
                    ImageCms.profileToProfile(stored, ImageCms.ImageCmsProfile(io.BytesIO(p3)), srgb,
                                              renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC
                                              ).convert('RGBA').save(d + '/' + name + '.reference.png', icc_profile=None)
                    stored.convert('RGBA').save(d + '/' + name + '.unconverted.png', icc_profile=None)
                """
        let result = try runProcess("/usr/bin/env", ["python3", "-c", script, directory.path])
        #expect(result.status == 0, "Pillow is missing or failed: \(result.output)")
        for name in ["p3.jpg", "p3.webp"] {
            let ours = try ImageDecoder().decodeFile(directory.appendingPathComponent(name).path)
            let pillow = try PNGDecoder().decodeFile(directory.appendingPathComponent(name + ".reference.png").path)
            let stored = try PNGDecoder().decodeFile(directory.appendingPathComponent(name + ".unconverted.png").path)
            let difference = Self.largestDifference(ours, pillow)
            print("\(name): largest difference from ImageCms \(difference)")
            #expect(ours.size == pillow.size && difference <= 2, "\(name): \(difference)")
            #expect(Self.largestDifference(stored, pillow) > 20, "\(name): the profile should move its colours")
        }
        let output = directory.appendingPathComponent("o.png").path
        let broken = try runCLI(["render", directory.appendingPathComponent("broken.jpg").path, "-o", output])
        #expect(broken.status == 0)
        let warnings = broken.standardError.split(separator: "\n")
        #expect(warnings.count == 1 && warnings[0].contains("ICC profile is unreadable"), "\(broken.standardError)")
        #expect(
            try ImageDecoder().decodeFile(directory.appendingPathComponent("broken.jpg").path)
                == (try ImageDecoder().decodeFile(directory.appendingPathComponent("plain.jpg").path)))
    }
}
