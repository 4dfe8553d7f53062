import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// Rough edges, each as a newcomer met it.
@Suite("Rough edges a newcomer met")
struct RoughEdgeTests {
    let photo = Fixtures.path("photos/coffee.png")

    @Test func aDeviceRendersWhatIOS7ShippedOnItAndTheModelsDecisionElsewhere() throws {
        let directory = try Fixtures.temporaryDirectory()
        let source = try Fixtures.image("photos/coffee.png")
        // Seed B4: the iPad 2 shipped tint-only, though the cost model alone would blur it; the 3GS never ran iOS 7.
        for (id, path, scale) in [
            ("ipad-2", Effect.Path.tintOnly, 1.0), ("ipad-mini", .blur, 1), ("iphone-4", .tintOnly, 2),
            ("iphone-3gs", Estimator().decision(for: try Device.lookup("iphone-3gs")).path, 1),
        ] {
            let output = directory.appendingPathComponent("\(id).png").path
            let result = try runCLI(["render", photo, "-o", output, "--device", id])
            #expect(result.status == 0, "\(result.standardError)")
            let expected = try Renderer().render(source, effect: Effect(style: .light, scale: scale, path: path))
            #expect(try PNGDecoder().decodeFile(output) == expected, "\(id)")
            if id == "ipad-2" {
                #expect(result.standardOutput.contains("as Apple's iOS 7 shipped it (seed B4)"))
                #expect(result.standardOutput.contains("the cost model alone would choose blur"))
            }
        }
    }

    @Test func unknownDevicesStylesAndOptionsAreAnsweredWithTheNameMeant() throws {
        for (arguments, suggestion) in [
            (["render", photo, "-o", "/tmp/never.png", "--device", "iphone5"], "did you mean 'iphone-5'?"),
            (["estimate", "--device", "iPad_Air", "--style", "light"], "did you mean 'ipad-air'?"),
            (["render", photo, "-o", "/tmp/never.png", "--style", "drak"], "did you mean 'dark'?"),
            // Options too (ArgumentParser's own suggestion, kept on one line by the CLI's error printer).
            (["render", photo, "-o", "/tmp/never.png", "--sclae", "2"], "Did you mean '--scale'?"),
            (["estimate", "--devcie", "iphone-5"], "Did you mean '--device'?"),
        ] {
            let result = try runCLI(arguments)
            #expect(result.status == 2 && result.standardError.contains(suggestion), "\(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1)
        }
        #expect(Suggestion.nearest(to: "wallpaper", in: Device.all.map(\.id)) == nil)
    }

    @Test func everyFormatAListingsHelpNamesWorks() throws {
        for command in ["styles", "devices"] {
            let help = try runCLI([command, "--help"])
            #expect(help.standardOutput.contains("text, json") && !help.standardOutput.contains("svg"), "\(command)")
            for format in ["text", "json"] {
                #expect(try runCLI([command, "--format", format]).status == 0, "\(command) --format \(format)")
            }
            #expect(try runCLI([command, "--format", "svg"]).status == 2)
        }
    }

    /// Every example of every help page fits on its line at 80 columns (ArgumentParser's width when piped), so that
    /// it can be pasted whole: `--scale 2` used to wrap onto a line of its own.
    @Test(arguments: [
        "", "render", "estimate", "compare", "check", "report", "demo", "styles", "devices", "scenes", "import",
    ])
    func helpExamplesSurviveWrapping(_ command: String) throws {
        let help = try runCLI(["help"] + (command.isEmpty ? [] : [command])).standardOutput
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        let examples = lines.indices.filter { lines[$0].hasPrefix("  backdrop ") }
        #expect(!examples.isEmpty, "\(command): no examples")
        for index in examples where index + 1 < lines.count {
            let next = lines[index + 1]
            #expect(next.isEmpty || next.hasPrefix(" "), "\(command): '\(lines[index])' wraps onto '\(next)'")
        }
    }

    /// Long work shows what it is doing. Run under `script` (util-linux), standard error is a terminal and
    /// the stages show, then the line is cleared before the result; into a pipe, standard error says nothing.
    @Test func aRenderOnATerminalShowsItsStagesAndAPipeGetsNone() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = Fixtures.path("photos/coffee.png"),
            output = directory.appendingPathComponent("o.png")
        let command = [Fixtures.cli, "render", input, "-o", output.path, "--exact"].map { "'\($0)'" }
            .joined(separator: " ")
        let onTerminal = try runProcess("/usr/bin/script", ["-qec", command, "/dev/null"])
        #expect(onTerminal.status == 0, "\(onTerminal.output)")
        for stage in ["decoding \(input)", "rendering 600×400, exact", "encoding \(output.path)"] {
            #expect(onTerminal.output.contains("backdrop: \(stage) …"), "\(onTerminal.output)")
        }
        #expect(onTerminal.output.contains("\r\u{1B}[Kwrote \(output.path)"), "cleared before the result")
        let piped = try runCLI(["render", input, "-o", output.path, "--exact"])
        #expect(piped.status == 0 && piped.standardError.isEmpty, "\(piped.standardError)")
    }

    @Test func aJSONSyntaxErrorNamesItsLineAndColumn() throws {
        let directory = try Fixtures.temporaryDirectory()
        let scene = directory.appendingPathComponent("scene.json")
        try Data("{\n  \"name\": \"x\",\n  \"layers\" [ { \"frame\": [0, 0, 1, 1] } ]\n}\n".utf8).write(to: scene)
        let result = try runCLI(["estimate", "--scene", scene.path, "--device", "ipad-3"])
        #expect(result.status == 1 && result.standardError.contains("not valid JSON (line 3, column 12"))
        let manifest = directory.appendingPathComponent("manifest.json")
        try Data("{\"cases\": [\n {\"input\": \"a.png\" \"golden\": \"b.png\"}]}".utf8).write(to: manifest)
        let check = try runCLI(["check", manifest.path])
        #expect(check.status == 2 && check.standardError.contains("line 2, column 20"), "\(check.standardError)")
    }

    /// A static scene at rest redraws nothing, so its steady frame is all zeros; its table rows show its first frame
    /// instead (the JSON keeps both: the steady frame's figures and `firstFrameMs`).
    @Test func aStaticScenesTableRowsShowItsFirstFrame() throws {
        let text = try runCLI(["estimate", "--scene", "control-center", "--all-devices"])
        try #require(text.status == 0, "\(text.standardError)")
        let json = try runCLI(["estimate", "--scene", "control-center", "--all-devices", "--format", "json"])
        let rows = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(rows.count == Device.all.count)
        for row in rows {
            let device = try #require(row["device"] as? String), first = try #require(row["firstFrameMs"] as? Double)
            #expect(row["redraw"] as? String == "static" && first > 0, "\(device)")
            // The text row's total ms is the first frame's, to two decimals.
            let line = try #require(text.standardOutput.split(separator: "\n").first { $0.hasPrefix(device + " ") })
            #expect(line.contains(String(format: " %.2f ", first)), "\(device): \(line) lacks \(first)")
        }
    }
}
