import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// Issue 50, "words for people", as the command line shows it: every column explained in `--help`, render lines in
/// words, runs on every device as one table, a frame partly outside the picture clipped with a note, vibrant content
/// that cannot show warned about.
@Suite("Words for people: the command line")
struct WordsForPeopleCLITests {
    let photo = Fixtures.path("photos/coffee.png")

    /// The header cells of every table in `text`: the line above each rule of box-drawing dashes, split where two
    /// or more spaces part the columns.
    static func headers(_ text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var cells: [String] = []
        for (index, line) in lines.enumerated() where index > 0 && line.hasPrefix("──") {
            cells += lines[index - 1].components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
        return cells
    }

    @Test func everyColumnIsExplainedInItsCommandsHelp() throws {
        let commands: [(output: [String], help: [String])] = [
            (["devices"], ["devices", "--help"]),
            (["styles"], ["styles", "--help"]),
            (["estimate", "view", "--device", "iphone-4s", "--vibrancy"], ["estimate", "view", "--help"]),
            (["estimate", "view", "--all-devices", "--style", "dark"], ["estimate", "view", "--help"]),
            (["estimate", "scene", "photos-table-shadows", "--device", "iphone-4s"], ["estimate", "scene", "--help"]),
            (["estimate", "scene", "photos-table-shadows", "--all-devices"], ["estimate", "scene", "--help"]),
            (
                ["estimate", "run", "photos-table-shadows", "--all-devices", "--duration", "1"],
                ["estimate", "run", "--help"]
            ),
        ]
        for (output, help) in commands {
            let printed = try runCLI(output)
            #expect(printed.status == 0, "\(output): \(printed.standardError)")
            let headers = Self.headers(printed.standardOutput)
            #expect(headers.count >= 8, "\(output): headers \(headers)")
            // Help text wraps at spaces: compare with every run of white space as one space.
            let helpText = try runCLI(help).standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            for header in headers {
                #expect(helpText.contains(" \(header): "), "\(output): the column '\(header)' is not in \(help)")
            }
        }
    }

    @Test func renderLinesSayHowThePictureWasDrawnInWords() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.png").path
        let cases: [([String], String)] = [
            (
                ["--style", "dark", "--frame", "0,0,200,100"],
                "(600×400, dark, blurred downsampled 4×, frame 0,0,200,100)"
            ),
            (["--exact", "--frame", "0,0,200,100"], "(600×400, light, blurred at full size, frame 0,0,200,100)"),
            (["--tint-only"], "(600×400, light, tint-only, frame 0,0,600,400)"),
            (["--algorithm", "image-effects", "--style", "dark"], "three box blurs 39 px wide"),
        ]
        for (arguments, expected) in cases {
            let run = try runCLI(["render", photo, "-o", output] + arguments)
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.standardOutput.contains(expected), "\(run.standardOutput)")
            #expect(!run.standardOutput.contains("k ="), "\(run.standardOutput)")
        }
        let scene = try runCLI(["render", "--scene", "navbar-tabbar-blur", "--device", "iphone-5", "-o", output])
        #expect(scene.standardOutput.contains("35 layers, effect views blurred"), "\(scene.standardOutput)")
    }

    @Test func runsOnEveryDeviceAreOneTable() throws {
        let run = try runCLI(["estimate", "--scene", "photos-table-shadows", "--all-devices", "--duration", "2"])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n")
        let rule = try #require(lines.firstIndex { $0.hasPrefix("──") }, "\(run.standardOutput)")
        #expect(lines.filter { $0.hasPrefix("──") }.count == 1, "more than one table: \(run.standardOutput)")
        // A row per device, in the groups of DeviceSelection, each under its title.
        let rows = lines[(rule + 1)...].prefix { !$0.hasPrefix("photos-table-shadows") }
        let titles = Set(DeviceSelection.groups(Device.all).map(\.title))
        #expect(
            rows.filter { !titles.contains(String($0)) }.map { String($0.prefix { $0 != " " }) }
                == DeviceSelection.groups(Device.all).flatMap(\.devices).map(\.id), "\(run.standardOutput)")
        #expect(lines[rule - 1].hasPrefix("device") && lines[rule - 1].contains("dropped"))
        // One device keeps its block, with its counted nouns in the right number.
        let one = try runCLI(["estimate", "run", "photos-table-shadows", "--device", "iphone-4s", "--duration", "2"])
        #expect(one.standardOutput.contains("frames:  ") && one.standardOutput.contains("0 rasterized hits, 0 misses"))
    }

    @Test func aFramePartlyOutsideThePictureIsClippedWithANoteOnStandardError() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clipped = directory.appendingPathComponent("clipped.png").path
        let inside = directory.appendingPathComponent("inside.png").path
        let run = try runCLI(["render", photo, "-o", clipped, "--style", "dark", "--frame", "500,300,200,200"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(
            run.standardError
                == "backdrop: note: the frame 500,300,200,200 (x,y,w,h) reaches past the 600×400 picture: clipped to 500,300,100,100\n"
        )
        #expect(run.standardOutput.contains("frame 500,300,100,100"), "\(run.standardOutput)")
        let reference = try runCLI(["render", photo, "-o", inside, "--style", "dark", "--frame", "500,300,100,100"])
        #expect(reference.status == 0 && reference.standardError.isEmpty, "\(reference.standardError)")
        #expect(FileManager.default.contents(atPath: clipped) == FileManager.default.contents(atPath: inside))
        // image-effects takes the same rule; a frame wholly outside stays an error.
        let imageEffects = try runCLI([
            "render", photo, "-o", clipped, "--algorithm", "image-effects", "--frame", "-20,-20,100,100",
        ])
        #expect(imageEffects.status == 0 && imageEffects.standardError.contains("clipped to 0,0,80,80"))
        let outside = try runCLI(["render", photo, "-o", clipped, "--frame", "-200,0,100,100"])
        #expect(outside.status == 2 && outside.standardError.contains("lies wholly outside the 600×400 picture"))
    }

    @Test func vibrantContentThatCannotShowIsWarnedAboutInOneLine() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let white = directory.appendingPathComponent("white.png").path
        let black = directory.appendingPathComponent("black.png").path
        try PNGEncoder().write(
            RGBAImage(width: 60, height: 20, samples: [UInt8](repeating: 255, count: 60 * 20 * 4)), to: white)
        try PNGEncoder().write(
            RGBAImage(width: 60, height: 20, samples: (0..<(60 * 20)).flatMap { _ in [UInt8(0), 0, 0, 255] }),
            to: black)
        let output = directory.appendingPathComponent("out.png").path
        for (style, content, warned) in [
            ("light", white, true), ("extraLight", white, true), ("dark", white, false), ("dark", black, true),
            ("light", black, false),
        ] {
            let run = try runCLI(["render", photo, "-o", output, "--style", style, "--vibrancy", content])
            #expect(run.status == 0, "\(run.standardError)")
            if warned {
                #expect(
                    run.standardError.hasPrefix("backdrop: warning: the vibrant content cannot show on \(style)")
                        && run.standardError.split(separator: "\n").count == 1, "\(style): \(run.standardError)")
            } else {
                #expect(run.standardError.isEmpty, "\(style): \(run.standardError)")
            }
        }
    }
}
