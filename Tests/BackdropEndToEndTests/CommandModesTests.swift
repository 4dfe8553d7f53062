import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// `backdrop render` and `backdrop estimate` as one subcommand per mode: each mode's help lists exactly the options it
/// takes and the parser refuses every other mode's; earlier versions' spellings (the mode chosen by options) still
/// run and give the same bytes as the new ones.
@Suite("render and estimate modes as subcommands")
struct CommandModesTests {
    let photo = Fixtures.path("photos/coffee.png")
    let glyphs = Fixtures.path("photos/glyphs-alpha.png")

    static let style = [
        "style", "appearance", "sigma", "saturation", "tint", "tint-alpha", "fallback-alpha", "vibrancy-blend",
        "corner-radius", "capsule",
    ]
    static let encoding = ["compression", "quality", "max-pixels", "force", "threads", "scheduler"]
    static let blur =
        style + [
            "frame", "scale", "device", "path", "exact", "tint-only", "vibrancy", "at", "vibrancy-style", "depth",
            "color-space",
            "reduce-transparency", "increase-contrast",
        ]
    static let imageEffects = [
        "style", "sigma", "saturation", "tint", "tint-alpha", "frame", "scale", "device", "mask", "color-space",
    ]
    static let priced = ["device", "all-devices", "devices", "path", "format", "output"]

    /// Each mode, the arguments it needs, and the long options its help lists, no more, no fewer (`--help` and
    /// `--version` aside).
    static let modes: [(command: [String], needs: [String], options: [String])] = [
        (["render", "picture"], ["in.png", "-o", "o.png"], ["output"] + blur + ["time"] + encoding),
        (["render", "image-effects"], ["in.png", "-o", "o.png"], ["output"] + imageEffects + ["time"] + encoding),
        (
            ["render", "scene"], ["s.json", "--device", "iphone-5", "-o", "o.png"],
            ["device", "path", "show", "steady", "reduce-transparency", "scroll-offset", "output"] + encoding
        ),
        (
            ["render", "batch", "picture"], ["in.png", "--output-dir", "d"],
            ["output-dir", "output-format", "jobs"] + blur + encoding
        ),
        (
            ["render", "batch", "image-effects"], ["in.png", "--output-dir", "d"],
            ["output-dir", "output-format", "jobs"] + imageEffects + encoding
        ),
        (["estimate", "view"], [], priced + style + ["vibrancy", "view", "reduce-transparency"]),
        (["estimate", "scene"], ["s.json"], priced + ["reduce-transparency"]),
        (["estimate", "explain"], ["s.json"], priced),
        (["estimate", "run"], ["s.json", "--duration", "1"], priced + ["duration", "scroll"]),
        (["estimate", "find"], ["s.json", "a.shadow.radius"], priced + ["fps"]),
        (["estimate", "model"], [], ["refit", "format", "output"]),
    ]

    /// The long options a help text lists: its lines that start, after two spaces, with an option (`-o, --output
    /// <path>`), up to the value's name or the description.
    static func listedOptions(_ help: String) -> Set<String> {
        var names: Set<String> = []
        for line in help.split(separator: "\n") where line.hasPrefix("  -") {
            var head = String(line.dropFirst(2))
            if let end = head.range(of: "  ") { head = String(head[..<end.lowerBound]) }
            if let end = head.firstIndex(of: "<") { head = String(head[..<end]) }
            for part in head.split(separator: ",") {
                let name = part.trimmingCharacters(in: .whitespaces)
                if name.hasPrefix("--") { names.insert(String(name.dropFirst(2))) }
            }
        }
        return names.subtracting(["help", "version"])
    }

    @Test(arguments: modes.indices)
    func eachModesHelpListsTheOptionsItTakesAndTheParserRefusesTheOthers(_ index: Int) throws {
        let (command, needs, options) = Self.modes[index]
        let help = try runCLI(command + ["--help"])
        #expect(help.status == 0, "\(help.standardError)")
        #expect(Self.listedOptions(help.standardOutput) == Set(options), "\(command): \(help.standardOutput)")
        // Every option of the other modes of the same command, and those of the earlier spelling, is unknown here.
        let family = Set(Self.modes.filter { $0.command[0] == command[0] }.flatMap(\.options))
        let others = family.union(["algorithm", "scene", "output-dir", "explain", "model", "find"]).subtracting(options)
        for option in others.sorted() {
            let result = try runCLI(command + needs + ["--" + option, "1"])
            #expect(result.status == 2, "\(command) --\(option): \(result.standardError)")
            #expect(
                result.standardError.hasPrefix("backdrop: error: Unknown option '--\(option)'")
                    && result.standardError.split(separator: "\n").count == 1,
                "\(command) --\(option): \(result.standardError)")
        }
    }

    @Test func renderAndEstimateHelpListTheModesAndHideTheOldSpelling() throws {
        let render = try runCLI(["render", "--help"])
        #expect(render.status == 0)
        for mode in ["picture", "image-effects", "scene", "batch"] {
            #expect(render.standardOutput.contains("  \(mode) "), "\(mode): \(render.standardOutput)")
        }
        let estimate = try runCLI(["estimate", "--help"])
        for mode in ["view", "scene", "explain", "run", "find", "model"] {
            #expect(estimate.standardOutput.contains("  \(mode) "), "\(mode): \(estimate.standardOutput)")
        }
        #expect(!render.standardOutput.contains("by-options") && !estimate.standardOutput.contains("by-options"))
        let batch = try runCLI(["render", "batch", "--help"])
        #expect(batch.standardOutput.contains("picture (default)"), "\(batch.standardOutput)")
        let formats = try runCLI(["estimate", "explain", "--help"]).standardOutput
        #expect(formats.contains("(values: text, json; default: text)"), "\(formats)")
    }

    /// The earlier spelling's `--help`, given after its arguments, is the help of the command that parses them (the
    /// stand-in that `render` and `estimate` default to has no help of its own): its usage under its parent's path and
    /// every mode's options; an unknown option is that command's one-line error.
    @Test func theEarlierSpellingsHelpAndErrorsAreItsCommands() throws {
        for (command, options) in [
            (["render", photo], ["output-dir", "algorithm", "scene", "style", "compression"]),
            (["estimate", "--device", "ipad-air"], ["scene", "explain", "model", "style", "all-devices"]),
        ] {
            let help = try runCLI(command + ["--help"])
            #expect(help.status == 0, "\(command): \(help.standardError)")
            #expect(
                help.standardOutput.contains("USAGE: backdrop \(command[0]) by-options "),
                "\(command): \(help.standardOutput)")
            let listed = Self.listedOptions(help.standardOutput)
            #expect(Set(options).isSubset(of: listed), "\(command): \(listed.sorted())")
            let unknown = try runCLI(command + ["--no-such-option"])
            #expect(unknown.status == 2, "\(command): \(unknown.standardError)")
            #expect(
                unknown.standardError.hasPrefix("backdrop: error: Unknown option '--no-such-option'")
                    && unknown.standardError.split(separator: "\n").count == 1,
                "\(command): \(unknown.standardError)")
        }
    }

    /// Earlier versions' spelling and the new one, writing `out.png` (or printing): the same bytes.
    static func pairs(photo: String, glyphs: String) -> [(old: [String], new: [String])] {
        [
            (
                [
                    "render", photo, "--style", "dark", "--frame", "50,100,500,200", "--vibrancy", glyphs, "--at",
                    "60,120",
                ],
                [
                    "render", "picture", photo, "--style", "dark", "--frame", "50,100,500,200", "--vibrancy", glyphs,
                    "--at", "60,120",
                ]
            ),
            (
                ["render", photo, "--algorithm", "image-effects", "--style", "tint", "--tint", "0.2,0.4,0.9"],
                ["render", "image-effects", photo, "--style", "tint", "--tint", "0.2,0.4,0.9"]
            ),
            (
                ["render", "--scene", "navbar-tabbar-blur", "--device", "iphone-5", "--show", "offscreen"],
                ["render", "scene", "navbar-tabbar-blur", "--device", "iphone-5", "--show", "offscreen"]
            ),
        ]
    }

    @Test func theOldRenderSpellingsStillRunAndDrawTheSameBytes() throws {
        let directory = try Fixtures.temporaryDirectory()
        for (index, pair) in Self.pairs(photo: photo, glyphs: glyphs).enumerated() {
            let old = directory.appendingPathComponent("old\(index).png").path
            let new = directory.appendingPathComponent("new\(index).png").path
            let oldRun = try runCLI(pair.old + ["-o", old])
            let newRun = try runCLI(pair.new + ["-o", new])
            #expect(oldRun.status == 0 && newRun.status == 0, "\(oldRun.standardError) \(newRun.standardError)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: old)) == Data(contentsOf: URL(fileURLWithPath: new)))
        }
        let oldDirectory = directory.appendingPathComponent("old-batch").path
        let newDirectory = directory.appendingPathComponent("new-batch").path
        let oldBatch = try runCLI(["render", photo, glyphs, "--output-dir", oldDirectory, "--style", "dark"])
        let newBatch = try runCLI(["render", "batch", photo, glyphs, "--output-dir", newDirectory, "--style", "dark"])
        #expect(oldBatch.status == 0 && newBatch.status == 0, "\(oldBatch.standardError) \(newBatch.standardError)")
        for name in ["coffee.png", "glyphs-alpha.png"] {
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: oldDirectory + "/" + name))
                    == Data(contentsOf: URL(fileURLWithPath: newDirectory + "/" + name)))
        }
        let timed = try runCLI(
            ["render", "picture", photo, "-o", directory.appendingPathComponent("t.png").path, "--time", "2"])
        #expect(timed.status == 0 && timed.standardOutput.contains("over 2 runs"), "\(timed.standardError)")
    }

    @Test(arguments: [
        (
            ["--device", "ipad-air", "--style", "extraLight", "--vibrancy"],
            ["view", "--device", "ipad-air", "--style", "extraLight", "--vibrancy"]
        ),
        (
            ["--all-devices", "--view", "320x64", "--format", "json"],
            ["view", "--all-devices", "--view", "320x64", "--format", "json"]
        ),
        (["--scene", "photos-table-shadows", "--all-devices"], ["scene", "photos-table-shadows", "--all-devices"]),
        (
            ["--scene", "contacts-table-masks", "--device", "iphone-4s", "--explain"],
            ["explain", "contacts-table-masks", "--device", "iphone-4s"]
        ),
        (
            ["--scene", "photos-table-shadows", "--device", "iphone-5", "--duration", "0.5", "--scroll", "-600"],
            ["run", "photos-table-shadows", "--device", "iphone-5", "--duration", "0.5", "--scroll", "-600"]
        ),
        (
            ["--scene", "photos-table-shadows", "--device", "iphone-4s", "--find", "thumbnail.shadow.radius"],
            ["find", "photos-table-shadows", "thumbnail.shadow.radius", "--device", "iphone-4s"]
        ),
        (["--model", "--format", "json"], ["model", "--format", "json"]),
    ])
    func theOldEstimateSpellingsStillRunAndPrintTheSame(_ old: [String], _ new: [String]) throws {
        let oldRun = try runCLI(["estimate"] + old)
        let newRun = try runCLI(["estimate"] + new)
        #expect(oldRun.status == 0, "\(oldRun.standardError)")
        #expect(newRun.status == 0, "\(newRun.standardError)")
        #expect(!oldRun.standardOutput.isEmpty && oldRun.standardOutput == newRun.standardOutput)
    }

    @Test func combinationsTheModesCannotSpellAreStillRefusedInTheOldSpelling() throws {
        let refused: [([String], String)] = [
            (
                ["render", photo, "-o", "/tmp/x.png", "--algorithm", "image-effects", "--vibrancy", glyphs],
                "--vibrancy is for the system algorithm, not image-effects"
            ),
            (
                ["render", "--scene", "control-center", "--device", "iphone-5", "-o", "/tmp/x.png", "--time", "3"],
                "leave out --time"
            ),
            (["estimate", "--device", "iphone-5", "--explain"], "--explain goes with --scene"),
        ]
        for (arguments, message) in refused {
            let result = try runCLI(arguments)
            #expect(result.status == 2 && result.standardError.contains(message), "\(result.standardError)")
        }
    }
}
