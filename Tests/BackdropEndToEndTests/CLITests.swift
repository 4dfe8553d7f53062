import Backdrop
import BackdropTestSupport
import Foundation
import Testing

@Suite("The backdrop command")
struct CLITests {
    let photo = Fixtures.path("photos/coffee.png")

    /// Every failure is one line on standard error, no backtrace, and the documented exit code.
    func expectOneLineError(
        _ result: CLIResult, status: Int32, mentioning text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            result.status == status, "exit \(result.status): \(result.standardError)", sourceLocation: sourceLocation)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardError.contains(text), "stderr: \(result.standardError)", sourceLocation: sourceLocation)
    }

    @Test func renderWritesTheStyledPNG() throws {
        let directory = try Fixtures.temporaryDirectory()
        let output = directory.appendingPathComponent("out.png").path
        let result = try runCLI(["render", photo, "-o", output, "--style", "dark", "--frame", "50,100,500,200"])
        #expect(result.status == 0, "\(result.standardError)")
        let written = try PNGDecoder().decodeFile(output)
        let expected = try Renderer().render(
            try Fixtures.image("photos/coffee.png"),
            effect: Effect(style: .dark, frame: PixelRect(x: 50, y: 100, width: 500, height: 200)))
        #expect(written == expected)
    }

    @Test func sixteenBitOutputIsWrittenOnRequest() throws {
        let directory = try Fixtures.temporaryDirectory()
        let output = directory.appendingPathComponent("out16.png").path
        let result = try runCLI(["render", photo, "-o", output, "--depth", "16", "--exact"])
        #expect(result.status == 0, "\(result.standardError)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(bytes[24] == 16)  // IHDR bit depth
    }

    @Test func aCustomStyleRenders() throws {
        let directory = try Fixtures.temporaryDirectory()
        let output = directory.appendingPathComponent("custom.png").path
        let result = try runCLI([
            "render", photo, "-o", output, "--style", "custom", "--sigma", "8",
            "--saturation", "1.2", "--tint", "1,0.5,0", "--tint-alpha", "0.25",
        ])
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test func anUnknownStyleIsAUsageError() throws {
        expectOneLineError(
            try runCLI(["render", photo, "-o", "/tmp/x.png", "--style", "frosted"]),
            status: 2, mentioning: "unknown style 'frosted'")
    }

    @Test func aFrameWhollyOutsideThePictureIsAUsageError() throws {
        expectOneLineError(
            try runCLI(["render", photo, "-o", "/tmp/x.png", "--frame", "600,300,200,200"]),
            status: 2, mentioning: "lies wholly outside the 600×400 picture")
    }

    @Test func aMalformedFrameIsAUsageError() throws {
        expectOneLineError(
            try runCLI(["render", photo, "-o", "/tmp/x.png", "--frame", "1,2,3"]),
            status: 2, mentioning: "--frame '1,2,3' is not x,y,w,h")
    }

    @Test func aMissingOptionIsAUsageError() throws {
        expectOneLineError(
            try runCLI(["render", photo]), status: 2,
            mentioning: "give -o PATH, or --output-dir DIR")
    }

    @Test func anUnknownCommandOrOptionIsAUsageError() throws {
        expectOneLineError(try runCLI(["blur", photo]), status: 2, mentioning: "unexpected arguments: 'blur'")
        expectOneLineError(
            try runCLI(["render", photo, "-o", "/tmp/x.png", "--radius", "3"]), status: 2,
            mentioning: "Unknown option '--radius'")
        expectOneLineError(
            try runCLI(["render", photo, "-o", "/tmp/x.png", "--scale", "two"]), status: 2,
            mentioning: "two")
    }

    @Test func aCorruptPNGIsABadInputErrorNamingTheFile() throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = directory.appendingPathComponent("corrupt.png").path
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: photo)))
        bytes = Array(bytes.prefix(bytes.count / 3))
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        expectOneLineError(
            try runCLI(["render", input, "-o", directory.appendingPathComponent("o.png").path]),
            status: 1, mentioning: "\(input): file is truncated")
    }

    @Test func aTextFileIsABadInputError() throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = directory.appendingPathComponent("notes.png").path
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: input))
        expectOneLineError(
            try runCLI(["render", input, "-o", directory.appendingPathComponent("o.png").path]),
            status: 1, mentioning: "\(input): not a PNG, JPEG, WebP or HEIF file")
    }

    @Test func aMissingInputIsABadInputError() throws {
        expectOneLineError(
            try runCLI(["render", "/nonexistent/in.png", "-o", "/tmp/o.png"]),
            status: 1, mentioning: "/nonexistent/in.png: cannot read the file (no such file)")
    }

    @Test func anInputOverThePixelLimitIsRefused() throws {
        expectOneLineError(
            try runCLI(["render", photo, "-o", "/tmp/o.png", "--max-pixels", "1000"]),
            status: 1, mentioning: "600×400 pixels, over the limit of 1000 pixels")
    }

    @Test func anOutputInAMissingDirectoryIsAnError() throws {
        expectOneLineError(
            try runCLI(["render", photo, "-o", "/nonexistent/dir/out.png"]),
            status: 1, mentioning: "/nonexistent/dir/out.png: the directory /nonexistent/dir does not exist")
    }

    @Test func anExistingOutputIsLeftWholeWhenRenderingFails() throws {
        let directory = try Fixtures.temporaryDirectory()
        let output = directory.appendingPathComponent("keep.png").path
        try Data("previous contents".utf8).write(to: URL(fileURLWithPath: output))
        let result = try runCLI(["render", photo, "-o", output, "--frame", "9999,0,10,1"])
        #expect(result.status == 2)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "previous contents")
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["keep.png"])
    }

    @Test func theInputIsNotOverwrittenWithoutForce() throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = directory.appendingPathComponent("in.png").path
        try FileManager.default.copyItem(atPath: photo, toPath: input)
        expectOneLineError(try runCLI(["render", input, "-o", input]), status: 2, mentioning: "is the input file")
        #expect(try runCLI(["render", input, "-o", input, "--force"]).status == 0)
    }

    @Test func stylesListsEveryStyleOfTheCatalogue() throws {
        let result = try runCLI(["styles"])
        #expect(result.status == 0)
        for entry in StyleCatalogue.all {
            #expect(result.standardOutput.contains(entry.name))
            #expect(result.standardOutput.contains("\(entry.name): \(entry.source)"))
        }
        for recipe in MaterialRecipe.all { #expect(result.standardOutput.contains(recipe.name)) }
        let json = try runCLI(["styles", "--format", "json"])
        let decoded = try JSONDecoder().decode([StyleCatalogue.Entry].self, from: Data(json.standardOutput.utf8))
        #expect(decoded == StyleCatalogue.all)
        #expect(decoded.prefix(3).map(\.light) == BlurStyle.builtIn)
        // Which styles take --appearance: the JSON says it of each.
        let objects = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(objects.map { $0["adaptive"] as? Bool } == StyleCatalogue.all.map(\.isAdaptive))
        #expect(StyleCatalogue.all.contains(where: \.isAdaptive) && StyleCatalogue.all.contains { !$0.isAdaptive })
        #expect(!result.standardOutput.contains("derived: derived:"))
    }

    /// `--vibrancy-style` draws the level's matrix over a material (the library's picture), and is a one-line error
    /// (exit 2) on a style without levels, without content, or misspelt.
    @Test func aVibrancyLevelRendersOverAMaterialAndIsRefusedElsewhere() throws {
        let glyphs = Fixtures.path("photos/glyphs-alpha.png")
        let output = try Fixtures.temporaryDirectory().appendingPathComponent("v.png").path
        let result = try runCLI([
            "render", photo, "-o", output, "--style", "systemThinMaterialDark", "--vibrancy", glyphs, "--at", "20,30",
            "--vibrancy-style", "secondaryLabel",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let content = try Fixtures.image("photos/glyphs-alpha.png")
        let expected = try Renderer().render(
            try Fixtures.image("photos/coffee.png"),
            effect: Effect(
                style: try StyleCatalogue.style(named: "systemThinMaterialDark", appearance: nil),
                vibrancy: Vibrancy(x: 20, y: 30, contentSize: content.size, level: .secondaryLabel)),
            vibrantContent: content)
        #expect(try PNGDecoder().decodeFile(output) == expected)
        expectOneLineError(
            try runCLI([
                "render", photo, "-o", output, "--style", "light", "--vibrancy", glyphs, "--vibrancy-style", "fill",
            ]), status: 2, mentioning: "--vibrancy-style fill goes with a system material")
        expectOneLineError(
            try runCLI(["render", photo, "-o", output, "--style", "systemMaterial", "--vibrancy-style", "fill"]),
            status: 2, mentioning: "--vibrancy-style goes with --vibrancy")
        expectOneLineError(
            try runCLI([
                "render", photo, "-o", output, "--style", "systemMaterial", "--vibrancy", glyphs, "--vibrancy-style",
                "loud",
            ]), status: 2, mentioning: "unknown --vibrancy-style 'loud'")
        let listing = try runCLI(["styles"]).standardOutput
        #expect(listing.contains("vibrancy levels") && listing.contains("StrokeThinDarkSecondary"))
    }

    /// Vibrant content over glass, with and without a level: the library's picture; the listing shows glass's
    /// derived levels (text and JSON); a misspelt level or a level without content over glass stays a one-line error.
    @Test func vibrantContentOverGlassRendersAndIsListed() throws {
        let glyphs = Fixtures.path("photos/glyphs-alpha.png")
        let output = try Fixtures.temporaryDirectory().appendingPathComponent("g.png").path
        let content = try Fixtures.image("photos/glyphs-alpha.png")
        for (appearance, level) in [("light", nil), ("dark", VibrancyLevel.tertiaryLabel)] as [(String, VibrancyLevel?)]
        {
            let result = try runCLI(
                [
                    "render", photo, "-o", output, "--style", "glass", "--appearance", appearance, "--frame",
                    "40,60,500,220", "--corner-radius", "30", "--vibrancy", glyphs, "--at", "60,80",
                ] + (level.map { ["--vibrancy-style", $0.rawValue] } ?? []))
            #expect(result.status == 0, "\(result.standardError)")
            let style = try StyleChoice(name: "glass", appearance: appearance, cornerRadius: 30).resolve()
            let expected = try Renderer().render(
                try Fixtures.image("photos/coffee.png"),
                effect: Effect(
                    style: style, frame: PixelRect(x: 40, y: 60, width: 500, height: 220),
                    vibrancy: Vibrancy(x: 60, y: 80, contentSize: content.size, level: level)),
                vibrantContent: content)
            #expect(try PNGDecoder().decodeFile(output) == expected, "\(appearance)")
        }
        expectOneLineError(
            try runCLI([
                "render", photo, "-o", output, "--style", "clearGlass", "--vibrancy", glyphs, "--vibrancy-style",
                "loud",
            ]), status: 2, mentioning: "unknown --vibrancy-style 'loud'")
        expectOneLineError(
            try runCLI(["render", photo, "-o", output, "--style", "glass", "--vibrancy-style", "label"]),
            status: 2, mentioning: "--vibrancy-style goes with --vibrancy")
        let listing = try runCLI(["styles"]).standardOutput
        #expect(listing.contains("clearGlass dark (derived)") && listing.contains("glass's levels: derived"))
        let json = try runCLI(["styles", "--format", "json"]).standardOutput
        let entries = try #require(
            try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        let glass = try #require(entries.first { $0["name"] as? String == "glass" })
        #expect(glass["vibrancyLevelEvidence"] as? String == "derived")
        #expect((glass["vibrancyLevels"] as? [[String: Any]])?.count == 8)
    }

    @Test func aMaterialRendersByItsUIKitNameAndBadStyleOptionsAreOneLineErrors() throws {
        let input = Fixtures.path("photos/coffee.png")
        let output = try Fixtures.temporaryDirectory().appendingPathComponent("m.png").path
        let result = try runCLI([
            "render", input, "-o", output, "--style", "systemMaterial", "--appearance", "dark", "--device", "ipad-air",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("systemMaterial"))
        #expect(result.standardOutput.contains("never ran iOS 13"))
        expectOneLineError(
            try runCLI(["render", input, "-o", output, "--style", "systemThinMaterialDrak"]), status: 2,
            mentioning: "did you mean 'systemThinMaterialDark'?")
        expectOneLineError(
            try runCLI(["render", input, "-o", output, "--style", "systemThinMaterialDark", "--appearance", "light"]),
            status: 2, mentioning: "--appearance goes with an adaptive style")
        // A material's tint-only look is Reduce Transparency's (docs/accessibility.md).
        let flat = try runCLI(["render", input, "-o", output, "--style", "systemMaterial", "--path", "tint-only"])
        #expect(flat.status == 0 && flat.standardOutput.contains("tint-only"), "\(flat.standardError)")
    }

    @Test func demoWritesEveryStyleOverTheBuiltInPicture() throws {
        let directory = try Fixtures.temporaryDirectory().path
        let result = try runCLI(["demo", "--output", directory])
        #expect(result.status == 0, "\(result.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        // The input and the content, then blur, vibrancy and tint-only for every style, an adaptive one twice.
        let drawn = StyleCatalogue.all.map { $0.isAdaptive ? 2 : 1 }.reduce(0, +)
        #expect(drawn >= StyleCatalogue.all.count && StyleCatalogue.all.count > 20)
        #expect(files.count == 2 + 3 * drawn, "\(files)")
        for entry in StyleCatalogue.all { #expect(files.contains("demo-\(entry.name)-tint-only.png")) }
        for file in files {
            #expect(result.standardOutput.contains(file))
            _ = try PNGDecoder().decodeFile(directory + "/" + file)
        }
    }

    @Test(arguments: [
        ["--help"], ["render", "--help"], ["styles", "--help"], ["demo", "--help"], ["estimate", "--help"],
        ["devices", "--help"], ["compare", "--help"], ["check", "--help"], ["report", "--help"],
        ["preview", "--help"], ["scenes", "--help"], ["import", "--help"],
    ])
    func helpExplainsEachCommandWithAnExample(_ arguments: [String]) throws {
        let result = try runCLI(arguments)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("Example"))
    }
}

@Suite("backdrop render --vibrancy")
struct VibrancyCLITests {
    let photo = Fixtures.path("photos/coffee.png")
    let glyphs = Fixtures.path("photos/glyphs-alpha.png")

    @Test func vibrantContentPartlyOutsideTheFrameIsClipped() throws {
        let directory = try Fixtures.temporaryDirectory()
        let output = directory.appendingPathComponent("vibrant.png").path
        let result = try runCLI([
            "render", photo, "-o", output, "--style", "light", "--frame", "50,100,500,200",
            "--vibrancy", glyphs, "--at", "400,250",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let content = try Fixtures.image("photos/glyphs-alpha.png")
        let frame = PixelRect(x: 50, y: 100, width: 500, height: 200)
        let effect = Effect(style: .light, frame: frame, vibrancy: Vibrancy(x: 400, y: 250, contentSize: content.size))
        let expected = try Renderer().render(
            try Fixtures.image("photos/coffee.png"), effect: effect,
            vibrantContent: content)
        #expect(try PNGDecoder().decodeFile(output) == expected)
    }

    @Test func vibrantContentWhollyOutsideTheFrameIsAUsageError() throws {
        let result = try runCLI([
            "render", photo, "-o", "/tmp/x.png", "--frame", "50,100,500,200",
            "--vibrancy", glyphs, "--at", "560,0",
        ])
        #expect(result.status == 2)
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(
            result.standardError.contains("lies wholly outside the frame 50,100,500,200"), "\(result.standardError)")
    }

    @Test func aMalformedPositionOrAPositionWithoutContentIsAUsageError() throws {
        let malformed = try runCLI(["render", photo, "-o", "/tmp/x.png", "--vibrancy", glyphs, "--at", "1;2"])
        #expect(
            malformed.status == 2 && malformed.standardError.contains("--at '1;2' is not x,y"),
            "\(malformed.standardError)")
        let alone = try runCLI(["render", photo, "-o", "/tmp/x.png", "--at", "1,2"])
        #expect(
            alone.status == 2 && alone.standardError.contains("--at goes with --vibrancy"), "\(alone.standardError)")
    }

    @Test func unreadableContentIsABadInputErrorNamingTheFile() throws {
        let directory = try Fixtures.temporaryDirectory()
        let bogus = directory.appendingPathComponent("content.png").path
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: bogus))
        let result = try runCLI([
            "render", photo, "-o", directory.appendingPathComponent("o.png").path,
            "--vibrancy", bogus,
        ])
        #expect(result.status == 1)
        #expect(result.standardError.contains("content.png"), "\(result.standardError)")
    }
}

@Suite("One-line errors")
struct OneLineErrorTests {
    /// Found by Fuzz/FuzzOptions: an option value with a line break made a two-line error.
    @Test func controlCharactersInAnOptionOrFileNameAreEscaped() throws {
        let error = BackdropError(.badOption, "unknown style 'a\r\nb\u{1B}'")
        #expect(error.message == "unknown style 'a\\r\\nb\\u{1B}'")
        let result = try runCLI(["render", "in.png", "-o", "out.png", "--style", "fro\nsted"])
        #expect(result.status == 2 && result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardError.contains("unknown style 'fro\\nsted'"))
    }
}

@Suite("Help text")
struct HelpTextTests {
    /// `backdrop scenes --help`, verbatim: the one-sentence abstract, the discussion with examples, the typed
    /// options. A change to the help is a change to this test.
    @Test func theScenesCommandsHelpIsExactlyThis() throws {
        let result = try runCLI(["scenes", "--help"])
        #expect(result.status == 0)
        #expect(
            result.standardOutput == """
                OVERVIEW: List the built-in scenes that 'backdrop estimate --scene' prices, or
                print one as JSON.

                The scenes are the seed talks' case studies (tables with shadows, masks and
                their fixes) and two screens with blur. Their geometry is Backdrop's
                assumption; print one with --json to start a scene file of your own.

                Examples:
                  backdrop scenes
                  backdrop scenes --json photos-table-shadows > my-screen.json

                USAGE: backdrop scenes [--json <name>]

                OPTIONS:
                  --json <name>           Print this built-in scene's JSON.
                  --version               Show the version.
                  -h, --help              Show help information.


                """)
    }

    @Test func enumOptionsListTheirValuesAndRefuseOthersInOneLine() throws {
        // ArgumentParser wraps the help at 80 columns: compare it with its line breaks folded.
        let help = try runCLI(["estimate", "view", "--help"]).standardOutput.split(whereSeparator: \.isWhitespace)
            .joined(separator: " ")
        #expect(help.contains("(values: auto, blur, tint-only; default: auto)"))
        #expect(help.contains("(values: text, json, svg; default: text)"))
        let render = try runCLI(["render", "picture", "--help"]).standardOutput.split(whereSeparator: \.isWhitespace)
            .joined(
                separator: " ")
        #expect(render.contains("(values: openmp, dispatch; default: openmp)"))
        #expect(render.contains("(values: fast, default, small; default: default)"))
        let bad = try runCLI(["render", "in.png", "-o", "out.png", "--scheduler", "fast"])
        #expect(bad.status == 2 && bad.standardError.split(separator: "\n").count == 1)
        #expect(bad.standardError.contains("The value 'fast' is invalid for '--scheduler <name>'"))
    }
}
