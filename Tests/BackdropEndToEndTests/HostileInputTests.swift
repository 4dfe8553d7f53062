import Backdrop
import BackdropTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 32, defect 1: one number from outside — an option, a manifest field, a query parameter — must never trap
/// in rectangle arithmetic or a Double → Int conversion. Each case was a SIGILL and a backtrace before the
/// coordinates were bounded where they are read (``PixelRect/coordinateLimit``); now each is a one-line error and
/// an ordinary exit (or a 400 from the preview, which goes on serving).
@Suite("Hostile input: numbers that overflow pixel arithmetic")
struct OverflowingNumberTests {
    static let huge = "9223372036854775807"
    static let hugeNegative = "-9223372036854775808"

    /// Each command line, with IN for a real picture and OUT for an output path.
    static let commandLines: [[String]] = [
        ["render", "IN", "-o", "OUT", "--frame", "1,0,\(huge),10"],
        ["render", "IN", "-o", "OUT", "--frame=\(hugeNegative),0,10,10"],
        ["render", "IN", "-o", "OUT", "--frame", "2147483648,0,10,10"],
        ["render", "IN", "-o", "OUT", "--frame", "2147483647,2147483647,2147483647,2147483647"],
        ["render", "IN", "-o", "OUT", "--vibrancy", "IN", "--at", "\(huge),0"],
        ["render", "IN", "-o", "OUT", "--vibrancy", "IN", "--at=\(hugeNegative),\(hugeNegative)"],
        ["render", "IN", "-o", "OUT", "--vibrancy", "IN", "--at", "2147483648,0"],
        ["render", "IN", "-o", "OUT", "--max-pixels", huge],
        ["estimate", "--view", "1e308x1e308", "--device", "iphone-5"],
        ["estimate", "--view", "1e308x1e308", "--all-devices"],
        ["estimate", "--view", "1e-300x1", "--device", "ipad-air"],
        ["compare", "IN", "IN", "--ignore", "1,0,\(huge),10"],
        ["compare", "IN", "IN", "--frame", "1,0,\(huge),10"],
    ]

    @Test(arguments: commandLines)
    func aCommandLineWithAnOverflowingNumberIsAOneLineError(_ line: [String]) throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = Fixtures.sharedPath("testdata/photos/astronaut.png")
        guard FileManager.default.fileExists(atPath: input) else { throw FixtureMissing(path: input) }
        let output = directory.appendingPathComponent("out.png").path
        let arguments = line.map { $0 == "IN" ? input : $0 == "OUT" ? output : $0 }
        let result = try runCLI(arguments)
        #expect(result.status == 2 || result.status == 1, "\(line): status \(result.status)")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("backdrop: error: "), "\(line): \(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output), "\(line) wrote its output")
    }

    @Test func aManifestWithOverflowingNumbersFailsItsCasesAndRecordsNothing() throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = Fixtures.sharedPath("testdata/photos/astronaut.png")
        try FileManager.default.copyItem(atPath: input, toPath: directory.appendingPathComponent("in.png").path)
        let cases = [
            #"{"input": "in.png", "golden": "frame.png", "style": "light", "frame": "1,0,\#(Self.huge),10"}"#,
            #"{"input": "in.png", "golden": "at.png", "style": "light", "vibrancy": "in.png", "at": "\#(Self.huge),0"}"#,
        ]
        let manifest = directory.appendingPathComponent("manifest.json")
        try Data(#"{"cases": [\#(cases.joined(separator: ","))]}"#.utf8).write(to: manifest)
        let result = try runCLI(["check", manifest.path, "--update", "all"])
        #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("frame '1,0,\(Self.huge),10' is not x,y,w,h"))
        #expect(result.standardOutput.contains("at '\(Self.huge),0' is not x,y"))
        #expect(result.standardOutput.contains("2 could not run, 0 recorded"))

        let ignoring = directory.appendingPathComponent("ignore.json")
        try Data(
            #"{"cases": [{"input": "in.png", "golden": "in.png", "style": "light", "tolerance": {"ignore": [[1, 0, \#(Self.huge), 10]]}}]}"#
                .utf8
        ).write(to: ignoring)
        let ignored = try runCLI(["check", ignoring.path])
        #expect(ignored.status == 2 && ignored.standardError.contains("each value within ±2147483648"))
        #expect(ignored.standardError.split(separator: "\n").count == 1, "\(ignored.standardError)")
    }

    /// A header of 2³¹ − 1 × 2³¹ − 1 under the largest limit a user may set: refused from its header, on the fast
    /// path (8-bit RGBA) and through libpng (16-bit).
    @Test(arguments: [UInt8(8), 16])
    func theLargestPixelLimitStillRefusesTheLargestHeader(bitDepth: UInt8) throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = directory.appendingPathComponent("huge.png")
        try Data(headerOnlyPNG(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF, bitDepth: bitDepth)).write(to: input)
        let output = directory.appendingPathComponent("out.png").path
        let result = try runCLI([
            "render", input.path, "-o", output, "--max-pixels", String(PNGDecoder.largestMaxPixels),
        ])
        #expect(result.status == 1, "\(result.standardError)")
        #expect(
            result.standardError.contains(
                "the image is 2147483647×2147483647 pixels, over the limit of 4294967296 pixels"))
    }

    /// Issue 32, defect 7: libpng set up its rows (width × 8 bytes) before the limit was checked, so a 68-byte
    /// 16-bit file declaring 400,000,000 × 1 cost 3 GB first. Under a 600 MB address-space limit the decoder must
    /// still name the limit, not run out of memory.
    @Test(arguments: [(UInt8(16), UInt8(6)), (4, 0), (8, 0), (16, 2)])
    func aHeaderOverTheLimitIsRefusedBeforeLibPNGAllocatesItsRows(bitDepth: UInt8, colorType: UInt8) throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = directory.appendingPathComponent("wide.png")
        try Data(headerOnlyPNG(width: 400_000_000, height: 1, bitDepth: bitDepth, colorType: colorType))
            .write(to: input)
        let output = directory.appendingPathComponent("out.png").path
        let result = try runProcess(
            "/bin/bash", ["-c", #"ulimit -v 600000; exec "$0" render "$1" -o "$2""#, Fixtures.cli, input.path, output])
        #expect(result.status == 1)
        #expect(
            result.output.contains("the image is 400000000×1 pixels, over the limit of 100000000 pixels"),
            "\(result.output)")
    }

    @Test func aSceneRepeatedFarOffTheScreenIsPricedWithoutOverflow() throws {
        let directory = try Fixtures.temporaryDirectory()
        let scene = directory.appendingPathComponent("far.json")
        try Data(
            #"""
            {"name": "far", "layers": [{"name": "cell", "frame": [0, 0, 320, 100], "content": "solid",
              "repeat": {"count": 100000, "dx": 1000000, "dy": -1000000}}]}
            """#.utf8
        ).write(to: scene)
        let result = try runCLI(["estimate", "--scene", scene.path, "--device", "ipad-air", "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test func thePreviewAnswersOverflowingQueriesWith400AndGoesOn() async throws {
        let server = try PreviewProcess()
        defer { server.stop() }
        let a = server.address
        let glyphs = try Data(contentsOf: URL(fileURLWithPath: Fixtures.sharedPath("testdata/photos/glyphs-alpha.png")))
        var upload = URLRequest(url: URL(string: a + "vibrancy")!)
        upload.httpMethod = "POST"
        upload.httpBody = glyphs
        let uploaded = try await URLSession.shared.data(for: upload)
        #expect((uploaded.1 as! HTTPURLResponse).statusCode == 200)
        for query in [
            "render.png?frame=1,0,\(Self.huge),1", "render.rgba?frame=\(Self.hugeNegative),0,1,1",
            "render.png?at=\(Self.huge),0", "render.png?at=2147483647,2147483647",
            "estimate.json?device=all&frame=1,0,\(Self.huge),1", "estimate.svg?device=iphone-4&scale=1e309",
        ] {
            let (body, response) = try await URLSession.shared.data(from: URL(string: a + query)!)
            let status = (response as! HTTPURLResponse).statusCode
            let error = (try? JSONSerialization.jsonObject(with: body) as? [String: String])?["error"] ?? ""
            #expect(status == 400 && !error.isEmpty && !error.contains("\n"), "\(query): \(status) \(error)")
        }
        let (_, page) = try await URLSession.shared.data(from: URL(string: a)!)
        #expect((page as! HTTPURLResponse).statusCode == 200, "the server stopped answering")
    }
}
