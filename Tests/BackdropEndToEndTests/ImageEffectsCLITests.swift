import Backdrop
import BackdropTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `--algorithm image-effects` everywhere the system blur is: `backdrop render`, golden manifests and the preview's
/// API, the same pixels in each.
@Suite("UIImage+ImageEffects: the command line, manifests and the preview")
struct ImageEffectsCLITests {
    @Test func renderManifestAndPreviewDrawTheSamePixels() async throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = Fixtures.path("photos/coffee.png")
        guard FileManager.default.fileExists(atPath: input) else { throw FixtureMissing(path: input) }
        try FileManager.default.copyItem(atPath: input, toPath: directory.appendingPathComponent("coffee.png").path)
        try PNGEncoder().write(
            noiseImage(width: 300, height: 200, seed: 5, alpha: true),
            to: directory.appendingPathComponent("mask.png").path)
        let rendered = directory.appendingPathComponent("cli.png").path
        let cli = try runCLI([
            "render", input, "--algorithm", "image-effects", "--style", "tint", "--tint", "0.2,0.4,0.9", "--frame",
            "100,50,300,200", "--mask", directory.appendingPathComponent("mask.png").path, "-o", rendered,
        ])
        try #require(cli.status == 0, "\(cli.standardError)")
        #expect(
            cli.standardOutput.contains("image-effects") && cli.standardOutput.contains("three box blurs 19 px wide"))
        let picture = try PNGDecoder().decodeFile(rendered)
        #expect(picture != (try PNGDecoder().decodeFile(input)))

        let manifest = directory.appendingPathComponent("manifest.json").path
        try Data(
            #"{ "cases": [ { "name": "tint", "input": "coffee.png", "golden": "golden/tint.png", "algorithm": "image-effects", "style": "tint", "tint": "0.2,0.4,0.9", "frame": "100,50,300,200", "mask": "mask.png" } ] }"#
                .utf8
        ).write(to: URL(fileURLWithPath: manifest))
        let record = try runCLI(["check", manifest, "--update", "missing"])
        try #require(record.status == 0, "\(record.standardOutput)\(record.standardError)")
        #expect(try PNGDecoder().decodeFile(directory.appendingPathComponent("golden/tint.png").path) == picture)
        #expect(try runCLI(["check", manifest]).status == 0)

        let server = try PreviewProcess([input])
        defer { server.stop() }
        let (data, response) = try await URLSession.shared.data(
            from: URL(string: server.address + "render.png?algorithm=image-effects&style=dark&frame=100,50,300,200")!)
        #expect((response as! HTTPURLResponse).statusCode == 200)
        let viaCLI = directory.appendingPathComponent("dark.png").path
        _ = try runCLI([
            "render", input, "--algorithm", "image-effects", "--style", "dark", "--frame", "100,50,300,200", "-o",
            viaCLI,
        ])
        #expect(try PNGDecoder().decode([UInt8](data)) == PNGDecoder().decodeFile(viaCLI))
        let (_, estimate) = try await URLSession.shared.data(
            from: URL(string: server.address + "estimate.json?algorithm=image-effects&device=iphone-5")!)
        #expect((estimate as! HTTPURLResponse).statusCode == 400)
    }

    @Test(arguments: [
        (["--algorithm", "image-effects", "--style", "tint"], "--style tint needs --tint"),
        (["--algorithm", "image-effects", "--exact"], "--exact is for the system algorithm"),
        (["--mask", "m.png"], "--mask goes with --algorithm image-effects"),
        (["--algorithm", "gaussian"], "gaussian"),
        (["--algorithm", "image-effects", "--style", "frosted"], "unknown style 'frosted' for the image-effects"),
    ])
    func badOptionsAreOneLineUsageErrors(_ options: [String], _ message: String) throws {
        let input = Fixtures.path("photos/coffee.png")
        let result = try runCLI(["render", input, "-o", "/tmp/never-written.png"] + options)
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }
}
