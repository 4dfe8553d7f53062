import Backdrop
import BackdropTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(FoundationXML)
    import FoundationXML
#endif

/// One number from outside — an option, a manifest field, a query parameter — must never trap
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
        let input = Fixtures.path("photos/astronaut.png")
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
        let input = Fixtures.path("photos/astronaut.png")
        try FileManager.default.copyItem(atPath: input, toPath: directory.appendingPathComponent("in.png").path)
        let cases = [
            #"{"input": "in.png", "golden": "frame.png", "style": "light", "frame": "1,0,\#(Self.huge),10"}"#,
            #"{"input": "in.png", "golden": "at.png", "style": "light", "vibrancy": "in.png", "at": "\#(Self.huge),0"}"#,
        ]
        let manifest = directory.appendingPathComponent("manifest.json")
        try Data(#"{"cases": [\#(cases.joined(separator: ","))]}"#.utf8).write(to: manifest)
        let result = try runCLI(["check", manifest.path, "--update", "all"])
        #expect(result.status == 2, "\(result.standardOutput)\(result.standardError)")  // cases that could not run
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

    /// Memory follows the pixels, not the shape. A 1 × 2 000 000 picture must render within
    /// 220 MB of address space (it needs about 171 MB, fast or exact, about what 1414 × 1414 needs). Before, it
    /// needed 263 MB (fast: rows padded to four pixels, a tap table entry per row) and 1.35 GB (exact: a causal
    /// buffer 32 columns wide whatever the picture's width), and a 1 × 100 000 000 picture took 6.15 GB (now 1.95).
    @Test(arguments: [false, true])
    func aPictureOnePixelWideNeedsMemoryForItsPixelsOnly(exact: Bool) throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = directory.appendingPathComponent("thin.png").path
        var samples = [UInt8](repeating: 255, count: 2_000_000 * 4)
        for index in stride(from: 0, to: samples.count, by: 4) {
            samples[index] = UInt8(truncatingIfNeeded: index >> 6)
        }
        try PNGEncoder(compression: .fast).write(RGBAImage(width: 1, height: 2_000_000, samples: samples), to: input)
        let output = directory.appendingPathComponent("out.png").path
        let result = try runProcess(
            "/bin/bash",
            [
                // One thread: a second thread's malloc arena reserves 64 MB of address space, which under this limit
                // glibc cannot map, and it then serves every allocation of that thread with its own mapping.
                "-c", #"ulimit -v 220000; exec "$0" render "$1" -o "$2" --threads 1 $3"#, Fixtures.cli, input, output,
                exact ? "--exact" : "",
            ])
        #expect(result.status == 0, "\(exact ? "exact" : "fast"): \(result.output)")
    }

    /// libpng set up its rows (width × 8 bytes) before the limit was checked, so a 68-byte
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

    /// 40 000 copies: the scene work budget (``SceneWork``) counts every layer, on the screen or off it.
    @Test func aSceneRepeatedFarOffTheScreenIsPricedWithoutOverflow() throws {
        let directory = try Fixtures.temporaryDirectory()
        let scene = directory.appendingPathComponent("far.json")
        try Data(
            #"""
            {"name": "far", "layers": [{"name": "cell", "frame": [0, 0, 320, 100], "content": "solid",
              "repeat": {"count": 40000, "dx": 1000000, "dy": -1000000}}]}
            """#.utf8
        ).write(to: scene)
        let result = try runCLI(["estimate", "--scene", scene.path, "--device", "ipad-air", "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test func thePreviewAnswersOverflowingQueriesWith400AndGoesOn() async throws {
        let server = try PreviewProcess()
        defer { server.stop() }
        let a = server.address
        let glyphs = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("photos/glyphs-alpha.png")))
        var upload = URLRequest(url: URL(string: a + "vibrancy")!)
        upload.httpMethod = "POST"
        upload.setValue(String(a.dropLast()), forHTTPHeaderField: "Origin")
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

/// No file touched outside its place. Each test failed on the previous binary: the
/// device node and the FIFO were replaced by a PNG, the manifest's goldens and inputs went anywhere, a FIFO input
/// hung the command, a symbolic link bypassed the input guard, a write cut by a signal left its hidden file.
@Suite("Hostile input: files outside their place")
struct FilePlacementTests {
    let photo = Fixtures.path("photos/coffee.png")

    /// Runs `backdrop` under `timeout`, so that a hang fails the test instead of holding it.
    func runBounded(_ arguments: [String], seconds: Int = 20) throws -> (status: Int32, output: String) {
        try runProcess("/usr/bin/timeout", ["\(seconds)", Fixtures.cli] + arguments)
    }

    func fileType(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    @Test func outputOntoADeviceNodeOrAFIFOIsWrittenThroughNeverReplaced() throws {
        let directory = try Fixtures.temporaryDirectory()
        let null = directory.appendingPathComponent("null").path
        // A private copy of /dev/null, major 1, minor 3 (as the attack reproduced it): creating a device node needs root,
        // which CI has.
        #expect(mknod(null, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0, "mknod: \(String(cString: strerror(errno)))")
        let render = try runBounded(["render", photo, "-o", null])
        #expect(render.status == 0, "\(render.output)")
        #expect(fileType(null) == S_IFCHR, "the device node was replaced")

        let fifo = directory.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let unread = try runBounded(["render", photo, "-o", fifo])
        #expect(unread.status == 1 && unread.output.contains("no process reads the FIFO"), "\(unread.output)")
        #expect(fileType(fifo) == S_IFIFO)
        let copy = directory.appendingPathComponent("copy.png").path
        let reader = try runProcess(
            "/bin/bash",
            ["-c", #"cat "$0" > "$1" & sleep 0.3; "$2" render "$3" -o "$0"; wait"#, fifo, copy, Fixtures.cli, photo])
        #expect(reader.status == 0, "\(reader.output)")
        #expect(fileType(fifo) == S_IFIFO, "the FIFO was replaced")
        #expect(try PNGDecoder().decodeFile(copy).size == PixelSize(width: 600, height: 400))
    }

    @Test func aFIFOOrADeviceAsInputIsRefusedWithoutWaiting() throws {
        let directory = try Fixtures.temporaryDirectory()
        let fifo = directory.appendingPathComponent("in.png").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let out = directory.appendingPathComponent("out.png").path
        for arguments in [
            ["render", fifo, "-o", out], ["compare", fifo, photo], ["estimate", "--scene", fifo, "--device", "ipad-3"],
            ["check", fifo], ["render", "/dev/zero", "-o", out],
            ["render", directory.path, "--output-dir", directory.path + "/o"],
        ] {
            let result = try runBounded(arguments, seconds: 10)
            #expect(result.status == 1 || result.status == 2, "\(arguments): \(result.status) \(result.output)")
            #expect(result.output.contains("not a regular file"), "\(arguments): \(result.output)")
        }
    }

    @Test func aSymbolicLinkDoesNotBypassTheInputGuard() throws {
        let directory = try Fixtures.temporaryDirectory()
        let input = directory.appendingPathComponent("in.png").path
        try FileManager.default.copyItem(atPath: photo, toPath: input)
        let link = directory.appendingPathComponent("link.png").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: input)
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        for (from, to) in [(link, input), (input, link)] {
            let result = try runBounded(["render", from, "-o", to])
            #expect(result.status == 2 && result.output.contains("is the input file"), "\(result.output)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
        // A link to another file stays a link; its target is replaced.
        let other = directory.appendingPathComponent("other.png").path
        try FileManager.default.copyItem(atPath: photo, toPath: other)
        let otherLink = directory.appendingPathComponent("other-link.png").path
        try FileManager.default.createSymbolicLink(atPath: otherLink, withDestinationPath: other)
        #expect(try runBounded(["render", input, "-o", otherLink]).status == 0)
        let replaced = try Data(contentsOf: URL(fileURLWithPath: other))
        #expect(fileType(otherLink) == S_IFLNK && replaced != before)
    }

    @Test func aManifestsFilesStayInItsFolder() throws {
        let directory = try Fixtures.temporaryDirectory()
        let suite = directory.appendingPathComponent("suite"), victim = directory.appendingPathComponent("victim")
        for url in [suite, victim] {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(atPath: photo, toPath: suite.appendingPathComponent("in.png").path)
        let secret = victim.appendingPathComponent("passwd")
        try Data("secret\n".utf8).write(to: secret)
        try FileManager.default.createSymbolicLink(
            atPath: suite.appendingPathComponent("out").path, withDestinationPath: victim.path)
        let manifest = suite.appendingPathComponent("manifest.json")
        for (golden, input, problem) in [
            ("../victim/passwd", "in.png", "leads out of the folder"), (secret.path, "in.png", "is absolute"),
            ("out/passwd", "in.png", "through a symbolic link"), ("g.png", "../victim/passwd", "leads out"),
            ("g.png", photo, "is absolute"),
        ] {
            try Data(#"{"cases": [{"input": "\#(input)", "golden": "\#(golden)", "style": "light"}]}"#.utf8)
                .write(to: manifest)
            let result = try runBounded(["check", manifest.path, "--update", "all"])
            #expect(result.status == 2 && result.output.contains(problem), "\(golden) \(input): \(result.output)")
        }
        #expect(try String(contentsOf: secret, encoding: .utf8) == "secret\n")
        // Two cases writing one golden (with --jobs, at once), an unknown key, --output inside the golden tree.
        try Data(
            #"{"cases": [{"input": "in.png", "golden": "g.png", "style": "light"}, {"input": "in.png", "golden": "./g.png", "style": "dark"}]}"#
                .utf8
        ).write(to: manifest)
        let twice = try runBounded(["check", manifest.path, "--update", "all", "--jobs", "2"])
        #expect(twice.status == 2 && twice.output.contains("is also case 0's"), "\(twice.output)")
        try Data(#"{"cases": [{"input": "in.png", "golden": "g.png", "style": "light", "tolerence": {}}]}"#.utf8)
            .write(to: manifest)
        let typo = try runBounded(["check", manifest.path])
        #expect(typo.status == 2 && typo.output.contains("unknown key 'cases[0].tolerence'"), "\(typo.output)")
        try Data(#"{"cases": [{"input": "in.png", "golden": "g.png", "style": "light"}]}"#.utf8).write(to: manifest)
        for overlapping in [suite.path, suite.appendingPathComponent("report").path] {
            let result = try runBounded(["check", manifest.path, "--output", overlapping])
            #expect(result.status == 2 && result.output.contains("overlaps the goldens' folder"), "\(result.output)")
        }
    }

    @Test func compareNeverWritesItsDiffOverAPictureItComparesAndAnUnwritableDiffIsNotAVerdict() throws {
        let directory = try Fixtures.temporaryDirectory()
        let golden = directory.appendingPathComponent("golden.png").path
        try FileManager.default.copyItem(atPath: photo, toPath: golden)
        let before = try Data(contentsOf: URL(fileURLWithPath: golden))
        let astronaut = Fixtures.path("photos/astronaut.png")
        let onto = try runBounded(["compare", golden, photo, "--diff", golden])
        #expect(onto.status == 2 && onto.output.contains("is one of the pictures compared"), "\(onto.output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: golden)) == before)
        let unwritable = try runBounded(["compare", astronaut, astronaut, "--diff", golden + "/d.png"])
        #expect(unwritable.status == 2, "exit 1 means outside the tolerance: \(unwritable.output)")
    }

    @Test func aWriteCutShortBySignalLeavesNoHiddenFile() throws {
        // `ulimit -f 64` stops the write at 64 KB with SIGXFSZ; the 600×400 render is larger.
        let directory = try Fixtures.temporaryDirectory()
        let out = directory.appendingPathComponent("out.png").path
        let result = try runProcess(
            "/bin/bash",
            ["-c", #"ulimit -f 64; exec "$0" render "$1" -o "$2" --compression fast"#, Fixtures.cli, photo, out])
        #expect(result.status != 0)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left.isEmpty, "left behind: \(left)")
    }

    @Test func aMissingInputIsOneFailedFileOfTheBatch() throws {
        let directory = try Fixtures.temporaryDirectory()
        let out = directory.appendingPathComponent("out")
        let result = try runBounded([
            "render", photo, directory.appendingPathComponent("typo.png").path, "--output-dir", out.path,
        ])
        #expect(result.status == 1 && result.output.contains("rendered 1 of 2 files"), "\(result.output)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("coffee.png").path))
    }
}

/// A planted file or link under a temporary file's name is never followed or reused.
@Suite("Hostile input: planted temporary names")
struct PlantedTemporaryNameTests {
    @Test func aLinkPlantedUnderEveryTemporaryNameIsNeverFollowed() throws {
        let directory = try Fixtures.temporaryDirectory()
        let victim = directory.appendingPathComponent("victim")
        try Data("victim\n".utf8).write(to: victim)
        // This process's next temporary names for out.png.
        for number in 1...400 {
            try FileManager.default.createSymbolicLink(
                atPath: directory.appendingPathComponent(".out.png" + StaleTemporaryFiles.suffix(number: number)).path,
                withDestinationPath: victim.path)
        }
        _ = try? AtomicFile.write(Array("new".utf8), to: directory.appendingPathComponent("out.png").path)
        #expect(try String(contentsOf: victim, encoding: .utf8) == "victim\n")
    }
}

/// Work bounded before it is spent, names that cannot reach a
/// terminal or break an SVG. The old binary took 6.3 s on the shadow scene, 8.9 s on the explanation and 470 MB on the
/// long names; these tests hold the limits, not the times.
@Suite("Hostile input: scenes")
struct HostileSceneTests {
    func write(_ json: String) throws -> String {
        let file = try Fixtures.temporaryDirectory().appendingPathComponent("scene.json")
        try Data(json.utf8).write(to: file)
        return file.path
    }

    @Test func namesWithControlCharactersOrBeyondTheLimitAreRefused() throws {
        for (json, problem) in [
            (#"{"name": "a\u001b[31mred", "layers": [{"frame": [0, 0, 10, 10]}]}"#, "control character U+001B"),
            (#"{"name": "nul\u0000", "layers": [{"frame": [0, 0, 10, 10]}]}"#, "control character U+0000"),
            (
                #"{"layers": [{"name": "\#(String(repeating: "N", count: 10_000))", "frame": [0, 0, 10, 10]}]}"#,
                "layers[0].name: longer than 256 characters"
            ),
        ] {
            let result = try runCLI(["estimate", "--scene", try write(json), "--device", "ipad-3"])
            #expect(result.status == 1 && result.standardError.contains(problem), "\(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1)
        }
    }

    @Test func aTimelineOfANameWithANULIsWellFormedXML() throws {
        var layer = SceneLayer(name: "bad\u{0}name\u{1B}", frame: PointRect(x: 0, y: 0, width: 100, height: 100))
        layer.content = .solid
        layer.mask = true
        let scene = Scene(name: "nul\u{0}", layers: [layer])
        let estimate = try Estimator().estimate(scene: scene, device: try Device.lookup("ipad-3"))
        let svg = TimelineSVG.render(estimate)
        #expect(XMLParser(data: Data(svg.utf8)).parse(), "the SVG is not well-formed")
    }

    @Test func aWideShadowRepeatedAndAThousandMasksArePricedAndExplainedWithinBounds() throws {
        let shadows = try write(
            #"{"layers": [{"name": "x", "frame": [0, 0, 10, 10], "content": "solid", "shadow": {"radius": 1000, "opacity": 0.5}, "repeat": {"count": 10000, "dx": 0, "dy": 0}}]}"#
        )
        let priced = try runCLI(["estimate", "--scene", shadows, "--device", "iphone-5", "--format", "json"])
        #expect(priced.status == 0, "\(priced.standardError)")
        let layers = (0..<2000).map {
            #"{"name": "l\#($0)", "frame": [0, \#($0 % 50 * 10), 100, 10], "content": "image", "cornerRadius": 2, "masksToBounds": true}"#
        }
        let masks = try write(#"{"layers": [\#(layers.joined(separator: ","))]}"#)
        let explained = try runCLI([
            "estimate", "--scene", masks, "--device", "iphone-5", "--explain", "--format", "json",
        ])
        #expect(explained.status == 0, "\(explained.standardError)")
        let record = try JSONDecoder().decode(ExplanationRecord.self, from: Data(explained.standardOutput.utf8))
        #expect(record.items.count == SceneAdvice.maximumItems)
    }
}
