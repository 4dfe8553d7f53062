import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// A PNG's colour chunks (iCCP, cICP, cHRM with gAMA) converted to sRGB before the effect, against Pillow's ImageCms.
/// The fixtures are Tests/Fixtures/png-color's, made by scripts/make-png-color-fixtures.
@Suite("PNG colour chunks")
struct PNGColorTests {
    static func fixture(_ name: String) -> String { Fixtures.path("png-color/\(name)") }

    /// Pillow's ImageCms conversion of p3-iccp.png's stored samples with its own profile (relative colorimetric, to
    /// Pillow's sRGB), and the stored samples themselves.
    static func references(in directory: URL) throws -> (converted: RGBAImage<UInt8>, stored: RGBAImage<UInt8>) {
        let script = """
            import sys, io
            from PIL import Image, ImageCms
            stored = Image.open(sys.argv[1])
            profile = ImageCms.ImageCmsProfile(io.BytesIO(stored.info['icc_profile']))
            ImageCms.profileToProfile(stored.convert('RGB'), profile, ImageCms.createProfile('sRGB'),
                                      renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC
                                      ).convert('RGBA').save(sys.argv[2] + '/converted.png', icc_profile=None)
            stored.convert('RGBA').save(sys.argv[2] + '/stored.png', icc_profile=None)
            """
        let result = try runProcess(
            "/usr/bin/env", ["python3", "-c", script, Self.fixture("p3-iccp.png"), directory.path])
        #expect(result.status == 0, "Pillow is missing or failed: \(result.output)")
        return (
            try PNGDecoder().decodeFile(directory.appendingPathComponent("converted.png").path),
            try PNGDecoder().decodeFile(directory.appendingPathComponent("stored.png").path)
        )
    }

    /// p3-chrm.png's samples converted by NumPy from the chunks' own numbers: gAMA 45455 read as the power law
    /// L = v^(1/0.45455), the RGB → XYZ matrix of cHRM's primaries and white (both D65, so no adaptation) and sRGB's
    /// inverse, then the exact sRGB curve, rounded.
    static func chromaticitiesReference(in directory: URL) throws -> RGBAImage<UInt8> {
        let script = """
            import sys
            import numpy as np
            from PIL import Image
            def matrix(xy):
                (wx, wy), primaries = xy[0], xy[1:]
                m = np.array([[x / y, 1, (1 - x - y) / y] for x, y in primaries]).T
                white = np.array([wx / wy, 1, (1 - wx - wy) / wy])
                return m * np.linalg.solve(m, white)
            p3 = matrix([(0.3127, 0.3290), (0.680, 0.320), (0.265, 0.690), (0.150, 0.060)])
            srgb = matrix([(0.3127, 0.3290), (0.64, 0.33), (0.30, 0.60), (0.15, 0.06)])
            v = np.asarray(Image.open(sys.argv[1]).convert('RGB'), dtype=np.float64) / 255
            linear = np.clip((v ** (1 / 0.45455)) @ (np.linalg.inv(srgb) @ p3).T, 0, 1)
            encoded = np.where(linear <= 0.0031308, 12.92 * linear, 1.055 * linear ** (1 / 2.4) - 0.055)
            Image.fromarray(np.round(encoded * 255).astype(np.uint8)).convert('RGBA').save(sys.argv[2])
            """
        let output = directory.appendingPathComponent("chrm-reference.png").path
        let result = try runProcess("/usr/bin/env", ["python3", "-c", script, Self.fixture("p3-chrm.png"), output])
        #expect(result.status == 0, "NumPy or Pillow is missing or failed: \(result.output)")
        return try PNGDecoder().decodeFile(output)
    }

    /// A Display P3 screenshot's iCCP, and a cICP naming Display P3, come out within 1 level of ImageCms (both are
    /// Little CMS, Pillow's its own build); the stored samples are more than 20 levels away. cHRM with P3's
    /// chromaticities and gAMA 1/2.2 within 2 levels of NumPy's conversion from the chunks' numbers (Little CMS
    /// interpolates its curves). 16-bit decoding converts too.
    @Test func displayP3PNGsConvertToSRGBLikeImageCms() throws {
        let directory = try Fixtures.temporaryDirectory()
        let (converted, stored) = try Self.references(in: directory)
        #expect(ImageFormatTests.largestDifference(stored, converted) > 20)
        let chromaticities = try Self.chromaticitiesReference(in: directory)
        for (name, reference, tolerance) in [
            ("p3-iccp.png", converted, 1), ("p3-cicp.png", converted, 1), ("p3-chrm.png", chromaticities, 2),
        ] {
            let ours = try ImageDecoder().decodeFile(Self.fixture(name))
            let difference = ImageFormatTests.largestDifference(ours, reference)
            print("\(name): largest difference from the reference \(difference)")
            #expect(ours.size == reference.size && difference <= tolerance, "\(name): \(difference)")
        }
        let wide: RGBAImage<UInt16> = try PNGDecoder().decodeFile(Self.fixture("p3-iccp.png"), as: UInt16.self)
        let narrowed = zip(wide.samples, converted.samples).map { abs(Int(UInt8(reducing16: $0)) - Int($1)) }.max()
        #expect((narrowed ?? 99) <= 1, "16-bit: \(narrowed ?? -1)")
    }

    /// The render command converts before the effect: the P3 screenshot renders as its sRGB conversion does.
    @Test func renderConvertsBeforeTheEffect() throws {
        let directory = try Fixtures.temporaryDirectory()
        let (converted, _) = try Self.references(in: directory)
        try PNGEncoder().write(converted, to: directory.appendingPathComponent("srgb.png").path)
        var rendered: [RGBAImage<UInt8>] = []
        for input in [Self.fixture("p3-iccp.png"), directory.appendingPathComponent("srgb.png").path] {
            let output = directory.appendingPathComponent("out-\(rendered.count).png").path
            let result = try runCLI(["render", input, "-o", output, "--style", "dark"])
            #expect(result.status == 0, "\(result.standardError)")
            rendered.append(try PNGDecoder().decodeFile(output))
        }
        #expect(ImageFormatTests.largestDifference(rendered[0], rendered[1]) <= 1)
    }

    /// A PNG whose iCCP is an sRGB profile (HP's sRGB IEC61966-2.1 in astronaut.png) keeps its stored samples
    /// exactly; an iCCP that does not inflate is one warning line and the stored samples.
    @Test func anSRGBProfileKeepsTheSamplesAndABrokenOneWarns() throws {
        let directory = try Fixtures.temporaryDirectory()
        let script = """
            import sys
            from PIL import Image
            Image.open(sys.argv[1]).convert('RGBA').save(sys.argv[2], icc_profile=None)
            """
        let stored = directory.appendingPathComponent("astronaut-stored.png").path
        #expect(
            try runProcess("/usr/bin/env", ["python3", "-c", script, Fixtures.path("photos/astronaut.png"), stored])
                .status == 0)
        #expect(try ImageDecoder().decodeFile(Fixtures.path("photos/astronaut.png")) == PNGDecoder().decodeFile(stored))
        let (_, plain) = try Self.references(in: directory)
        let output = directory.appendingPathComponent("o.png").path
        let result = try runCLI(["render", Self.fixture("broken-iccp.png"), "-o", output])
        let lines = result.standardError.split(separator: "\n")
        #expect(result.status == 0 && lines.count == 1 && lines[0].contains("does not inflate"), "\(lines)")
        #expect(try ImageDecoder().decodeFile(Self.fixture("broken-iccp.png")) == plain)
    }
}
