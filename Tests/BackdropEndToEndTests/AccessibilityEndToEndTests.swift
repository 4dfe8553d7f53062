import Backdrop
import BackdropTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reduce Transparency and Increase Contrast through every front end: the command line, a golden manifest's case and
/// the preview draw the same pixels for the same request, and what does not apply is a one-line error.
@Suite("Accessibility settings: the CLI, a manifest and the preview")
struct AccessibilityEndToEndTests {
    /// Requests as command-line options, manifest fields and a preview query (nil: the preview needs an upload).
    static let requests: [(arguments: [String], fields: String, query: String?)] = [
        (
            ["--style", "dark", "--frame", "100,50,300,200", "--reduce-transparency"],
            #""style": "dark", "frame": "100,50,300,200", "reduce-transparency": true"#,
            "style=dark&frame=100,50,300,200&reduce-transparency=1"
        ),
        (
            ["--style", "systemChromeMaterialDark", "--reduce-transparency"],
            #""style": "systemChromeMaterialDark", "reduce-transparency": true"#,
            "style=systemChromeMaterialDark&reduce-transparency=1"
        ),
        (
            [
                "--style", "systemMaterial", "--vibrancy", "CONTENT", "--at", "60,40", "--vibrancy-style",
                "tertiaryLabel", "--increase-contrast",
            ],
            #""style": "systemMaterial", "vibrancy": "content.png", "at": "60,40", "vibrancy-style": "tertiaryLabel", "increase-contrast": true"#,
            nil
        ),
        // Liquid Glass under Reduce Transparency: its face over the backdrop's average colour.
        (
            ["--style", "glass", "--frame", "100,50,300,120", "--corner-radius", "20", "--reduce-transparency"],
            #""style": "glass", "frame": "100,50,300,120", "corner-radius": 20, "reduce-transparency": true"#,
            "style=glass&frame=100,50,300,120&corner-radius=20&reduce-transparency=1"
        ),
        // A vibrancy level over dark clear glass (derived levels), raised by Increase Contrast.
        (
            [
                "--style", "clearGlass", "--appearance", "dark", "--frame", "40,30,400,160", "--vibrancy", "CONTENT",
                "--at", "60,40", "--vibrancy-style", "secondaryLabel", "--increase-contrast",
            ],
            #""style": "clearGlass", "appearance": "dark", "frame": "40,30,400,160", "vibrancy": "content.png", "at": "60,40", "vibrancy-style": "secondaryLabel", "increase-contrast": true"#,
            nil
        ),
    ]

    @Test func theCLIAManifestCaseAndThePreviewDrawTheSameBytes() async throws {
        let input = Fixtures.path("photos/coffee.png")
        let glyphs = Fixtures.path("photos/glyphs-alpha.png")
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(atPath: input, toPath: directory.appendingPathComponent("in.png").path)
        try FileManager.default.copyItem(atPath: glyphs, toPath: directory.appendingPathComponent("content.png").path)
        let server = try PreviewProcess([input])
        defer { server.stop() }
        // The preview's scene price refuses what every front end refuses, in its keys' words.
        let (refusal, refused) = try await URLSession.shared.data(
            from: URL(
                string: server.address
                    + "scene.json?scene=navbar-tabbar-blur&device=iphone-5&reduce-transparency=1&path=blur")!)
        #expect(
            (refused as! HTTPURLResponse).statusCode == 400
                && String(decoding: refusal, as: UTF8.self).contains(
                    "reduce-transparency draws no blur: it contradicts path blur"),
            "\(String(decoding: refusal, as: UTF8.self))")
        var cases: [String] = []
        for (index, request) in Self.requests.enumerated() {
            let output = directory.appendingPathComponent("g\(index).png").path
            let arguments = request.arguments.map { $0 == "CONTENT" ? glyphs : $0 }
            let cli = try runCLI(["render", "picture", input, "-o", output] + arguments)
            #expect(cli.status == 0, "\(arguments): \(cli.standardError)")
            // The setting changes the picture: the same request without it draws other pixels.
            let plain = directory.appendingPathComponent("plain\(index).png").path
            let without = arguments.filter { $0 != "--reduce-transparency" && $0 != "--increase-contrast" }
            #expect(try runCLI(["render", "picture", input, "-o", plain] + without).status == 0)
            #expect(try PNGDecoder().decodeFile(plain) != PNGDecoder().decodeFile(output), "\(arguments)")
            cases.append(#"{ "golden": "g\#(index).png", "input": "in.png", \#(request.fields) }"#)
            if let query = request.query {
                let (data, response) = try await URLSession.shared.data(
                    from: URL(string: server.address + "render.png?" + query)!)
                try #require((response as! HTTPURLResponse).statusCode == 200, "\(query)")
                #expect(
                    try PNGDecoder().decode([UInt8](data)) == PNGDecoder().decodeFile(output),
                    "the preview's \(query) is not the CLI's picture")
            }
        }
        // The manifest's cases check against the CLI's pictures at the default tolerance: identical pixels.
        let manifest = directory.appendingPathComponent("manifest.json").path
        try Data(#"{ "cases": [ \#(cases.joined(separator: ", ")) ] }"#.utf8).write(to: URL(fileURLWithPath: manifest))
        let check = try runCLI(["check", manifest])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
    }

    /// What does not apply: one line, exit 2.
    @Test(arguments: [
        (
            ["picture", "IN", "--style", "glass", "--reduce-transparency", "--path", "blur"],
            "--reduce-transparency draws no blur: it contradicts --path blur"
        ),
        (
            ["picture", "IN", "--reduce-transparency", "--exact"],
            "--reduce-transparency draws no blur: leave out --exact"
        ),
        (
            ["picture", "IN", "--style", "dark", "--increase-contrast"],
            "--increase-contrast goes with --vibrancy-style"
        ),
        (
            ["scene", "navbar-tabbar-blur", "--device", "iphone-5", "--reduce-transparency", "--path", "blur"],
            "--reduce-transparency draws no blur: it contradicts --path blur"
        ),
    ])
    func whatDoesNotApplyIsAOneLineError(_ arguments: [String], _ message: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = Fixtures.path("photos/coffee.png")
        let result = try runCLI(
            ["render"] + arguments.map { $0 == "IN" ? input : $0 } + [
                "-o", directory.appendingPathComponent("o.png").path,
            ])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(
            result.standardError.hasPrefix("backdrop: error: ") && result.standardError.contains(message)
                && result.standardError.filter { $0 == "\n" }.count == 1, "\(result.standardError)")
    }

    /// `estimate view` and `estimate scene` under Reduce Transparency price what `render` then draws: the view on the
    /// tint-only path with no offscreen pass, for less than its blur; `--path blur` beside it is refused in one line.
    @Test func theEstimateModesPriceReduceTransparencyWithoutBlur() throws {
        func json(_ arguments: [String]) throws -> [String: Any] {
            let result = try runCLI(["estimate"] + arguments + ["--device", "iphone-5", "--format", "json"])
            try #require(result.status == 0, "\(arguments): \(result.standardError)")
            return try #require(
                try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        }
        let view = ["view", "--style", "systemMaterial"]
        let (blurred, reduced) = (try json(view), try json(view + ["--reduce-transparency"]))
        #expect(blurred["path"] as? String == "blur" && reduced["path"] as? String == "tint-only", "\(reduced)")
        let passes = try #require(reduced["passes"] as? [[String: Any]])
        #expect(!passes.isEmpty && passes.allSatisfy { $0["offscreen"] as? Bool == false }, "\(passes)")
        let (blurredMs, reducedMs) = (
            try #require(blurred["totalMs"] as? Double), try #require(reduced["totalMs"] as? Double)
        )
        #expect(reducedMs < blurredMs, "\(reducedMs) ms under Reduce Transparency against \(blurredMs) ms blurred")
        // A material's tint-only path draws the same flat average colour, and is priced as that, not as its blur.
        let tintOnly = try json(view + ["--path", "tint-only"])
        #expect(
            tintOnly["path"] as? String == "tint-only" && tintOnly["totalMs"] as? Double == reducedMs, "\(tintOnly)")
        let scene = ["scene", "navbar-tabbar-blur"]
        let (sceneBlurred, sceneReduced) = (try json(scene), try json(scene + ["--reduce-transparency"]))
        #expect(sceneReduced["path"] as? String == "tint-only", "\(sceneReduced)")
        #expect(
            try #require(sceneReduced["firstFrameMs"] as? Double)
                < (try #require(sceneBlurred["firstFrameMs"] as? Double)))
        let refused = try runCLI(
            ["estimate"] + scene + ["--device", "iphone-5", "--reduce-transparency", "--path", "blur"])
        #expect(
            refused.status == 2
                && refused.standardError
                    == "backdrop: error: --reduce-transparency draws no blur: it contradicts --path blur\n",
            "\(refused.standardError)")
    }

    /// `render --scene` under Reduce Transparency: the summary says so, and the picture differs from the blurred one.
    @Test func aSceneUnderReduceTransparencyIsDrawnWithoutBlur() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let blurred = directory.appendingPathComponent("b.png").path,
            reduced = directory.appendingPathComponent("r.png").path
        let scene = ["render", "scene", "navbar-tabbar-blur", "--device", "iphone-5", "-o"]
        #expect(try runCLI(scene + [blurred]).status == 0)
        let result = try runCLI(scene + [reduced, "--reduce-transparency"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardOutput.contains("effect views tint-only, reduce transparency"), "\(result.standardOutput)")
        // A picture's summary under the setting carries no device's blur decision, which it does not follow.
        let picture = try runCLI([
            "render", "picture", Fixtures.path("photos/coffee.png"), "--device", "iphone-5", "--reduce-transparency",
            "-o", reduced, "--force",
        ])
        #expect(
            picture.status == 0 && picture.standardOutput.contains("tint-only")
                && !picture.standardOutput.contains("iphone-5:"), "\(picture.standardOutput)\(picture.standardError)")
        #expect(try PNGDecoder().decodeFile(blurred) != PNGDecoder().decodeFile(reduced))
    }
}
