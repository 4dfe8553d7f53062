import Backdrop
import BackdropTestSupport
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("Golden-image comparison")
struct GoldenComparisonTests {
    let photo = Fixtures.path("photos/coffee.png")

    @Test func theToleranceAcceptsExactlyWhatItsLimitsAllow() {
        let base = noiseImage(width: 32, height: 32)
        var changed = base
        changed.samples[0] = changed.samples[0] &+ 3  // one channel, 3 levels
        let difference = ImageDifference(base, changed)
        #expect(!Tolerance().accepts(difference))  // default: identical only
        #expect(Tolerance().accepts(ImageDifference(base, base)))
        #expect(Tolerance(maximumDifference: 3).accepts(difference))
        #expect(!Tolerance(maximumDifference: 2).accepts(difference))
        #expect(Tolerance(minimumPSNR: difference.psnr).accepts(difference))
        #expect(!Tolerance(minimumPSNR: difference.psnr + 0.01).accepts(difference))
        #expect(!Tolerance(minimumPSNR: 10, maximumDifference: 2).accepts(difference))
    }

    @Test func picturesOfDifferentSizesFailWithoutFigures() throws {
        let comparison = try GoldenComparison(
            expected: noiseImage(width: 4, height: 4), actual: noiseImage(width: 4, height: 5),
            tolerance: Tolerance(minimumPSNR: 0))
        #expect(!comparison.passed && comparison.difference == nil)
        #expect(comparison.summary.contains("sizes differ: expected 4×4, actual 4×5"))
    }

    @Test func theDiffPictureIsRedExactlyWhereThePicturesDiffer() {
        let base = noiseImage(width: 16, height: 8)
        var changed = base
        changed[5, 3] = changed[5, 3] &+ SIMD4(1, 0, 0, 0)  // one level: visible
        changed[9, 6] = changed[9, 6] &+ SIMD4(0, 40, 0, 0)  // many levels: full red
        let picture = DiffPicture.make(expected: base, actual: changed)
        for y in 0..<8 {
            for x in 0..<16 {
                let p = picture[x, y]
                let isRed = p.x >= 128 && p.x > p.y
                #expect(isRed == ((x, y) == (5, 3) || (x, y) == (9, 6)), "(\(x), \(y)): \(p)")
                #expect(p.w == 255)
            }
        }
        #expect(picture[5, 3].x == 128 && picture[9, 6].x == 255)
    }

    func writeRender(_ arguments: [String], to name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        let result = try runCLI(["render", photo, "-o", path] + arguments)
        #expect(result.status == 0, "\(result.standardError)")
        return path
    }

    @Test func compareExitsZeroWithinTheToleranceAndOneOutsideIt() throws {
        let directory = try Fixtures.temporaryDirectory()
        let fast = try writeRender(["--style", "light"], to: "fast.png", in: directory)
        let exact = try writeRender(["--style", "light", "--exact"], to: "exact.png", in: directory)
        let within = try runCLI(["compare", exact, fast, "--min-psnr", "40"])
        #expect(within.status == 0 && within.standardOutput.hasPrefix("ok"), "\(within.standardOutput)")
        let outside = try runCLI([
            "compare", exact, fast, "--max-diff", "0", "--diff", directory.appendingPathComponent("d.png").path,
        ])
        #expect(outside.status == 1 && outside.standardOutput.hasPrefix("FAIL"), "\(outside.standardOutput)")
        let diff = try PNGDecoder().decodeFile(directory.appendingPathComponent("d.png").path)
        #expect(diff.size == PixelSize(width: 600, height: 400))
        let json = try runCLI(["compare", exact, exact, "--format", "json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["passed"] as? Bool == true && object["maxDifference"] as? Int == 0)
    }

    @Test func compareReportsDifferentSizesAsAFailureAndUnreadableInputAsUsage() throws {
        let sizes = try runCLI(["compare", photo, Fixtures.path("photos/astronaut.png")])
        #expect(sizes.status == 1 && sizes.standardOutput.contains("sizes differ"), "\(sizes.standardOutput)")
        let missing = try runCLI(["compare", photo, "/nonexistent/x.png"])
        #expect(missing.status == 2 && missing.standardError.contains("/nonexistent/x.png"), "\(missing.standardError)")
        let region = try runCLI(["compare", photo, photo, "--frame", "500,300,200,200"])
        #expect(region.status == 2 && region.standardError.contains("not inside"), "\(region.standardError)")
    }

    /// A manifest of three cases over the coffee photograph in a fresh folder; returns the folder and the manifest.
    func threeCaseManifest() throws -> (URL, URL) {
        let directory = try Fixtures.temporaryDirectory()
        let manifest = directory.appendingPathComponent("manifest.json")
        // A manifest's files lie inside its folder: the inputs are copied in.
        let inputs = directory.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: photo, toPath: inputs.appendingPathComponent("coffee.png").path)
        try FileManager.default.copyItem(
            atPath: Fixtures.path("photos/glyphs-alpha.png"),
            toPath: inputs.appendingPathComponent("glyphs-alpha.png").path)
        try Data(
            """
            { "tolerance": { "minimumPSNR": 50 },
              "cases": [
                { "name": "light", "input": "in/coffee.png", "golden": "golden/light.png", "style": "light", "frame": "50,100,500,200" },
                { "name": "ipad3", "input": "in/coffee.png", "golden": "golden/ipad3.png", "style": "dark", "device": "ipad-3" },
                { "name": "vibrant", "input": "in/coffee.png", "golden": "golden/vibrant.png", "style": "extraLight",
                  "vibrancy": "in/glyphs-alpha.png", "at": "60,120", "tolerance": { "maximumDifference": 0 } }
              ] }
            """.utf8
        ).write(to: manifest)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("golden"), withIntermediateDirectories: true)
        return (directory, manifest)
    }

    @Test func checkRecordsOnlyWhatUpdateSaysAndWritesNothingElseInTheGoldenTree() throws {
        let (directory, manifest) = try threeCaseManifest()
        // A new suite: no goldens and no goldens' folder. A case without its golden could not run: exit 2 (1 is
        // for a case outside its tolerance); --update makes the folder.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("golden"))
        let missing = try runCLI(["check", manifest.path])
        #expect(
            missing.status == 2 && missing.standardOutput.contains("run with --update missing"),
            "\(missing.standardOutput)")
        let update = try runCLI(["check", manifest.path, "--update", "missing"])
        #expect(update.status == 0 && update.standardOutput.contains("3 recorded"), "\(update.standardOutput)")
        let pass = try runCLI(["check", manifest.path])
        #expect(pass.status == 0 && pass.standardOutput.contains("3 passed, 0 failed"), "\(pass.standardOutput)")
        // The iPad 3 case is the device's tint-only fallback at its scale, as `render --device` draws it.
        let ipad3 = try PNGDecoder().decodeFile(directory.appendingPathComponent("golden/ipad3.png").path)
        #expect(
            ipad3
                == (try Renderer().render(
                    try Fixtures.image("photos/coffee.png"),
                    effect: Effect(style: .dark, scale: 2, path: .tintOnly))))
        // Spoil one golden: that case fails, the others still pass, and nothing is written beside the goldens.
        let spoiled = directory.appendingPathComponent("golden/light.png").path
        try PNGEncoder().write(noiseImage(width: 600, height: 400), to: spoiled)
        let fail = try runCLI(["check", manifest.path])
        #expect(
            fail.status == 1 && fail.standardOutput.contains("FAIL      light")
                && fail.standardOutput.contains("2 passed, 1 failed"),
            "\(fail.standardOutput)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("golden").path)
                .sorted()
                == ["ipad3.png", "light.png", "vibrant.png"])
        // --update missing leaves a failing golden alone; --update failed records it.
        #expect(try runCLI(["check", manifest.path, "--update", "missing"]).status == 1)
        let fixed = try runCLI(["check", manifest.path, "--update", "failed"])
        #expect(fixed.status == 0 && fixed.standardOutput.contains("recorded  light"), "\(fixed.standardOutput)")
        #expect(
            fixed.standardOutput.contains("2 passed, 0 failed, 0 could not run, 1 recorded"), "\(fixed.standardOutput)")
        #expect(try runCLI(["check", manifest.path]).status == 0)
        #expect(try runCLI(["check", manifest.path, "--update", "sometimes"]).status == 2)
    }

    @Test func aFailingCheckWithOutputLeavesPicturesJUnitSummaryAndAPageABrowserShows() throws {
        let (directory, manifest) = try threeCaseManifest()
        #expect(try runCLI(["check", manifest.path, "--update", "all"]).status == 0)
        try PNGEncoder().write(
            noiseImage(width: 600, height: 400), to: directory.appendingPathComponent("golden/light.png").path)
        let output = directory.appendingPathComponent("results")
        let fail = try runCLI(["check", manifest.path, "--output", output.path])
        #expect(fail.status == 1, "\(fail.standardOutput)")
        let files = try FileManager.default.subpathsOfDirectory(atPath: output.path).sorted()
        #expect(
            files == [
                "001-light", "001-light/actual.png", "001-light/diff.png", "001-light/expected.png",
                "001-light/three-up.png", "index.html", "junit.xml", "review.css", "review.js", "summary.json",
                "summary.md",
            ], "\(files)")
        let threeUp = try PNGDecoder().decodeFile(output.appendingPathComponent("001-light/three-up.png").path)
        #expect(threeUp.width == 3 * 600 + 2 * 8 && threeUp.height == 400)
        // junit.xml is well-formed and says what failed.
        let junit = try XMLDocument(contentsOf: output.appendingPathComponent("junit.xml"))
        let cases = try junit.nodes(forXPath: "//testcase")
        #expect(cases.count == 3)
        let failures = try junit.nodes(forXPath: "//testcase[failure]")
        #expect(
            failures.count == 1 && (failures.first as? XMLElement)?.attribute(forName: "name")?.stringValue == "light")
        #expect((try junit.nodes(forXPath: "/testsuites/@failures")).first?.stringValue == "1")
        // The failure's three-up picture as an attachment GitLab and Jenkins show, under the folder given.
        let attachment = try junit.nodes(forXPath: "//testcase[failure]/system-out").first?.stringValue
        #expect(attachment == "[[ATTACHMENT|\(output.path)/001-light/three-up.png]]", "\(attachment ?? "none")")
        // summary.json reads back.
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("summary.json")))
                as? [String: Any])
        #expect(summary["failed"] as? Int == 1 && summary["passed"] as? Int == 2)
        // index.html in headless Chromium: its pictures load.
        let chromium = try HeadlessChromium.executable()
        let page = try runProcess(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000",
                "--dump-dom", "file://" + output.appendingPathComponent("index.html").path,
            ])
        #expect(
            page.output.contains("data-loaded=\"yes\"") && page.output.contains("data-broken=\"\""),
            "\(page.output.prefix(400))")
        // The three-up picture, and the review view's expected, actual and diff side by side.
        #expect(page.output.contains("data-images=\"4\""))
    }

    @Test func filterJobsAndTheUnusedGoldenWarning() throws {
        let (directory, manifest) = try threeCaseManifest()
        #expect(try runCLI(["check", manifest.path, "--update", "all"]).status == 0)
        let one = try runCLI(["check", manifest.path, "--jobs", "1"])
        let three = try runCLI(["check", manifest.path, "--jobs", "3"])
        // The same lines but for the times each case took.
        func withoutTimes(_ text: String) -> String {
            text.replacingOccurrences(of: #"  \[[0-9]+\.[0-9]{3} s\]"#, with: "", options: .regularExpression)
                .replacingOccurrences(
                    of: #", [0-9]+\.[0-9]{3} s of cases \(slowest: .*\)"#, with: "", options: .regularExpression)
        }
        #expect(one.status == 0 && withoutTimes(one.standardOutput) == withoutTimes(three.standardOutput))
        #expect(one.standardOutput.contains(" s]\n") && one.standardOutput.contains(" s of cases (slowest: "))
        #expect(withoutTimes(one.standardOutput) != one.standardOutput)
        let filtered = try runCLI(["check", manifest.path, "--filter", "v*"])
        #expect(filtered.standardOutput.contains("vibrant") && !filtered.standardOutput.contains("ipad3"))
        #expect(filtered.standardOutput.contains("1 case, 1 passed"))
        #expect(try runCLI(["check", manifest.path, "--filter", "nothing"]).status == 2)
        try PNGEncoder().write(
            noiseImage(width: 4, height: 4), to: directory.appendingPathComponent("golden/old.png").path)
        let warned = try runCLI(["check", manifest.path])
        #expect(
            warned.status == 0 && warned.standardError.contains("golden files no case uses")
                && warned.standardError.contains("old.png"))
    }

    /// A case takes `render`'s style options by the same names, read by the same code, so its
    /// golden is what `backdrop render` draws with those options; a custom style missing a number could not run.
    @Test func aCaseTakesTheCustomStyleAsRenderDoes() throws {
        let directory = try Fixtures.temporaryDirectory()
        try FileManager.default.copyItem(
            atPath: Fixtures.path("photos/coffee.png"),
            toPath: directory.appendingPathComponent("coffee.png").path)
        let manifest = directory.appendingPathComponent("m.json")
        try Data(
            #"""
            { "cases": [
                { "name": "custom", "input": "coffee.png", "golden": "g/custom.png", "style": "custom", "sigma": 12,
                  "saturation": 1.2, "tint": "1,0.9,0.8", "tint-alpha": 0.3, "fallback-alpha": 0.5,
                  "vibrancy-blend": "plusLighter", "path": "tint-only", "frame": "10,20,300,200" },
                { "name": "incomplete", "input": "coffee.png", "golden": "g/incomplete.png", "style": "custom",
                  "sigma": 12 } ] }
            """#.utf8
        ).write(to: manifest)
        let result = try runCLI(["check", manifest.path, "--update", "missing"])
        #expect(result.status == 2, "\(result.standardOutput)")
        #expect(
            result.standardOutput.contains("recorded  custom")
                && result.standardOutput.contains("style custom needs sigma, saturation, tint and tint-alpha"),
            "\(result.standardOutput)")
        let output = directory.appendingPathComponent("cli.png").path
        let cli = try runCLI([
            "render", directory.appendingPathComponent("coffee.png").path, "-o", output, "--style", "custom",
            "--sigma", "12", "--saturation", "1.2", "--tint", "1,0.9,0.8", "--tint-alpha", "0.3", "--fallback-alpha",
            "0.5", "--vibrancy-blend", "plusLighter", "--path", "tint-only", "--frame", "10,20,300,200",
        ])
        #expect(cli.status == 0, "\(cli.standardError)")
        #expect(
            try PNGDecoder().decodeFile(output)
                == (try PNGDecoder().decodeFile(directory.appendingPathComponent("g/custom.png").path)))
    }

    @Test func aMalformedManifestIsAUsageError() throws {
        let directory = try Fixtures.temporaryDirectory()
        let manifest = directory.appendingPathComponent("m.json")
        try Data(#"{ "cases": [ { "input": "a.png", "style": "light" } ] }"#.utf8).write(to: manifest)
        let result = try runCLI(["check", manifest.path])
        #expect(
            result.status == 2 && result.standardError.contains("a case has no 'golden'"), "\(result.standardError)")
    }
}

@Suite("backdrop render --output-dir")
struct BatchRenderTests {
    let photos = ["coffee.png", "astronaut.png", "logo-alpha.png"].map { Fixtures.path("photos/\($0)") }

    @Test func everyFileIsRenderedAsItWouldBeAloneWhateverTheJobCount() throws {
        let directory = try Fixtures.temporaryDirectory()
        for jobs in ["1", "2", "3"] {
            let out = directory.appendingPathComponent("out\(jobs)")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            let result = try runCLI(
                ["render"] + photos + ["--output-dir", out.path, "--style", "dark", "--jobs", jobs])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("rendered 3 of 3 files"), "\(result.standardOutput)")
            for photo in photos {
                let name = (photo as NSString).lastPathComponent
                let alone = try Renderer().render(try PNGDecoder().decodeFile(photo), effect: Effect(style: .dark))
                #expect(
                    try PNGDecoder().decodeFile(out.appendingPathComponent(name).path) == alone, "\(name), jobs \(jobs)"
                )
            }
        }
    }

    @Test func aBadFileIsReportedAndTheOthersStillRender() throws {
        let directory = try Fixtures.temporaryDirectory()
        let inputs = directory.appendingPathComponent("in"), out = directory.appendingPathComponent("out")
        for url in [inputs, out] { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(atPath: photos[0], toPath: inputs.appendingPathComponent("a.png").path)
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]).write(
            to: inputs.appendingPathComponent("b.png"))
        try FileManager.default.copyItem(atPath: photos[1], toPath: inputs.appendingPathComponent("c.png").path)
        let result = try runCLI(["render", inputs.path, "--output-dir", out.path])
        #expect(result.status == 1)
        #expect(
            result.standardError.contains("b.png") && result.standardError.split(separator: "\n").count == 1,
            "\(result.standardError)")
        #expect(result.standardOutput.contains("rendered 2 of 3 files") && result.standardOutput.contains("1 failed"))
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(written == ["a.png", "c.png"])
    }

    @Test func aMissingOutputFolderIsCreatedAndOneThatCannotBeIsAOneLineError() throws {
        // --output-dir creates its folder.
        let parent = try Fixtures.temporaryDirectory()
        let fresh = parent.appendingPathComponent("new/folder")
        let created = try runCLI(["render", photos[0], "--output-dir", fresh.path])
        #expect(created.status == 0, "\(created.standardError)")
        #expect(FileManager.default.fileExists(atPath: fresh.appendingPathComponent("coffee.png").path))
        let file = parent.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let impossible = try runCLI(["render", photos[0], "--output-dir", file.path + "/folder"])
        #expect(
            impossible.status == 1 && impossible.standardError.contains("cannot create the output folder"),
            "\(impossible.standardError)")
        // A folder this process may not write: a read-only one, or (as root, who may write anywhere else)
        // /proc/sys, which the kernel keeps read-only here.
        let readOnly = try Fixtures.temporaryDirectory()
        chmod(readOnly.path, 0o555)
        defer { chmod(readOnly.path, 0o755) }
        let candidates: [String] = [readOnly.path, "/proc/sys"]
        let unwritable = try #require(
            candidates.first { path in access(path, W_OK) != 0 },
            "no unwritable folder to test with")
        let result = try runCLI(["render", photos[0], "--output-dir", unwritable])
        #expect(result.status == 1 && result.standardError.contains("not writable"), "\(result.standardError)")
        let both = try runCLI(["render", photos[0], photos[1], "-o", "/tmp/x.png"])
        #expect(both.status == 2 && both.standardError.contains("2 inputs need --output-dir"), "\(both.standardError)")
    }

    /// `--output-format jpg` and `webp` name each output with the format's extension (a name that has one kept) and
    /// take `--quality`, which a PNG batch refuses; a batch refused (two inputs to one name, case aside, or `--quality`
    /// on PNGs) leaves no output folder behind.
    @Test func aBatchWritesTheFormatAskedForAndMakesNoFolderWhenRefused() throws {
        let directory = try Fixtures.temporaryDirectory()
        let kept = directory.appendingPathComponent("kept.JPEG").path
        try FileManager.default.copyItem(atPath: photos[0], toPath: kept)
        for (format, magic, names) in [
            ("jpg", [UInt8]([0xFF, 0xD8, 0xFF]), ["astronaut.jpg", "coffee.jpg", "kept.JPEG"]),
            ("webp", Array("RIFF".utf8), ["astronaut.webp", "coffee.webp", "kept.webp"]),
        ] {
            let out = directory.appendingPathComponent(format)
            let result = try runCLI(
                [
                    "render", "batch", photos[0], photos[1], kept, "--output-dir", out.path, "--output-format", format,
                    "--quality", "80",
                ])
            #expect(result.status == 0, "\(format): \(result.standardError)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == names, "\(format)")
            for name in names {
                let bytes = [UInt8](try Data(contentsOf: out.appendingPathComponent(name)))
                #expect(Array(bytes.prefix(magic.count)) == magic, "\(format): \(name)")
            }
        }
        let sameName = directory.appendingPathComponent("other/COFFEE.PNG").path  // one name where case is ignored
        try FileManager.default.createDirectory(
            atPath: (sameName as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: photos[1], toPath: sameName)
        for (arguments, message) in [
            (["--quality", "80"], "--quality with --output-dir is for 'render batch … --output-format jpg' or webp"),
            ([sameName], "would both be written to"),
        ] {
            let out = directory.appendingPathComponent("refused")
            let result = try runCLI(["render", "batch", photos[0], "--output-dir", out.path] + arguments)
            #expect(result.status == 2 && result.standardError.contains(message), "\(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: out.path), "\(arguments)")
        }
    }
}
