import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// `backdrop render --scene`: the picture through the command line, its effect views against `backdrop render
/// --frame`, and its bad input.
@Suite("backdrop render --scene")
struct SceneRenderCLITests {
    /// A scene file whose effect view's blur region must be, bit for bit, what `render --frame` writes over the
    /// picture of the same scene drawn without the view.
    @Test func theBlurRegionIsWhatRenderFrameWritesOverTheSceneBehindIt() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let behind = #"""
            { "name": "photo", "frame": [0, 0, 320, 568], "content": "image", "opaque": true },
            { "name": "cell", "frame": [0, 40, 320, 60], "content": "solid", "color": "#FFFFFF", "opaque": true,
              "repeat": { "count": 9, "dx": 0, "dy": 60 },
              "sublayers": [ { "name": "label", "frame": [64, 20, 240, 20], "content": "text" } ] }
            """#
        let bar = #"{ "name": "bar", "frame": [0, 0, 320, 64], "effect": { "blur": "light" } }"#
        func write(_ name: String, _ layers: String) throws -> String {
            let path = directory.appendingPathComponent(name).path
            try Data(#"{ "name": "\#(name)", "layers": [\#(layers)] }"#.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let withBar = try write("with.json", behind + ", " + bar), without = try write("without.json", behind)
        let screen = directory.appendingPathComponent("screen.png").path
        let content = directory.appendingPathComponent("content.png").path
        let rendered = directory.appendingPathComponent("rendered.png").path
        for arguments in [
            ["render", "--scene", withBar, "--device", "iphone-5", "-o", screen],
            ["render", "--scene", without, "--device", "iphone-5", "-o", content],
            ["render", content, "--frame", "0,0,640,128", "--style", "light", "--device", "iphone-5", "-o", rendered],
        ] {
            let result = try runCLI(arguments)
            try #require(result.status == 0, "\(arguments): \(result.standardError)")
        }
        let decoder = PNGDecoder()
        let picture = try decoder.decodeFile(screen), expected = try decoder.decodeFile(rendered)
        #expect(picture.size == PixelSize(width: 640, height: 1136))
        #expect(picture == expected, "the bar's pixels are render --frame's, and the rest is the scene behind it")
    }

    @Test func everyOverlayWritesAPictureOfTheScreensSize() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var pictures: [RGBAImage<UInt8>] = []
        for show in [nil] + SceneOverlay.allCases.map(\.rawValue) {
            let output = directory.appendingPathComponent("\(show ?? "plain").png").path
            let result = try runCLI(
                ["render", "--scene", "contacts-table-masks", "--device", "iphone-4s", "-o", output]
                    + (show.map { ["--show", $0] } ?? []))
            try #require(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.hasPrefix("wrote \(output) (640×960, contacts-table-masks on iphone-4s"))
            pictures.append(try PNGDecoder().decodeFile(output))
        }
        // The masks are offscreen and blended: those two overlays change the picture.
        #expect(pictures[1] != pictures[0] && pictures[2] != pictures[0])
        // Scrolled by half a cell, the table moves and the bar stays.
        let scrolled = directory.appendingPathComponent("scrolled.png").path
        let result = try runCLI([
            "render", "--scene", "contacts-table-masks", "--device", "iphone-4s", "--scroll-offset", "30", "-o",
            scrolled,
        ])
        try #require(result.status == 0, "\(result.standardError)")
        let moved = try PNGDecoder().decodeFile(scrolled)
        #expect(moved != pictures[0])
        #expect(moved[320, 40] == pictures[0][320, 40], "the navigation bar does not scroll")
    }

    @Test(arguments: [
        (["--scene", "contacts-table-masks", "--device", "iphone-5", "--show", "overdraw"], "overdraw"),
        (["--scene", "contacts-table-masks", "-o", "x.png"], "--scene needs --device"),
        (["--scene", "no-such-scene", "--device", "iphone-5", "-o", "x.png"], "unknown scene 'no-such-scene'"),
        (["--scene", "contacts-table-masks", "--device", "iphone5", "-o", "x.png"], "iphone5"),
        (
            ["in.png", "--scene", "contacts-table-masks", "--device", "iphone-5", "-o", "x.png"],
            "leave out an input PNG"
        ),
        (
            ["--scene", "contacts-table-masks", "--device", "iphone-5", "--frame", "0,0,1,1", "-o", "x.png"],
            "leave out --frame"
        ),
        (["in.png", "--show", "offscreen", "-o", "x.png"], "--show, --steady and --scroll-offset go with --scene"),
        (
            ["--scene", "control-center", "--device", "iphone-5", "--scroll-offset", "1e9", "-o", "x.png"],
            "out of range"
        ),
    ])
    func badScenesAndOptionsAreOneLineErrors(_ arguments: [String], _ message: String) throws {
        let result = try runCLI(["render"] + arguments)
        #expect(result.status != 0)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(!result.standardError.contains("Fatal error"))
    }
}

/// Golden manifests whose cases name a scene: recorded by `check --update`, checked by `check`, the same pictures
/// `render --scene` writes.
@Suite("backdrop check: scene cases")
struct SceneGoldenCaseTests {
    @Test func aSceneCaseRecordsAndPassesWithRenderScenesPicture() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scene =
            ##"{ "name": "badge", "layers": [ { "name": "ground", "frame": [0, 0, 320, 480], "content": "solid", "color": "#336699", "opaque": true }, { "name": "badge", "frame": [20, 20, 44, 44], "content": "image", "cornerRadius": 22, "masksToBounds": true } ] }"##
        try Data(scene.utf8).write(to: directory.appendingPathComponent("badge.json"))
        let manifest = #"""
            { "cases": [
              { "scene": "badge.json", "device": "iphone-4s", "golden": "golden/badge.png" },
              { "scene": "contacts-table-masks", "device": "iphone-5", "show": "offscreen", "golden": "golden/masks.png" } ] }
            """#
        let manifestPath = directory.appendingPathComponent("manifest.json").path
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: manifestPath))
        let record = try runCLI(["check", manifestPath, "--update", "missing"])
        try #require(record.status == 0, "\(record.standardError)")
        let check = try runCLI(["check", manifestPath])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        for (arguments, golden) in [
            (["--scene", directory.appendingPathComponent("badge.json").path, "--device", "iphone-4s"], "badge"),
            (["--scene", "contacts-table-masks", "--device", "iphone-5", "--show", "offscreen"], "masks"),
        ] {
            let output = directory.appendingPathComponent("\(golden)-render.png").path
            let result = try runCLI(["render"] + arguments + ["-o", output])
            try #require(result.status == 0, "\(result.standardError)")
            let recorded = try PNGDecoder().decodeFile(directory.appendingPathComponent("golden/\(golden).png").path)
            #expect(try PNGDecoder().decodeFile(output) == recorded, "\(golden)")
        }
    }

    @Test(arguments: [
        (#"{ "golden": "g.png", "style": "light" }"#, "give 'input' (with 'style') or 'scene' (with 'device')"),
        (
            #"{ "golden": "g.png", "input": "a.png", "scene": "control-center", "style": "light" }"#,
            "scene draws the scene's own layers and effect views: leave out input"
        ),
        (#"{ "golden": "g.png", "scene": "control-center" }"#, "scene needs device ID"),
        (
            #"{ "golden": "g.png", "scene": "control-center", "device": "iphone-5", "style": "light" }"#,
            "leave out style"
        ),
        (
            #"{ "golden": "g.png", "input": "a.png", "style": "light", "show": "offscreen" }"#,
            "show, steady and scroll-offset go with scene"
        ),
        (#"{ "golden": "g.png", "scene": "../outside.json", "device": "iphone-5" }"#, "leads out of the folder"),
    ])
    func aCaseOfNeitherOrBothKindsIsOneLineError(_ entry: String, _ message: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("manifest.json").path
        try Data(#"{ "cases": [ \#(entry) ] }"#.utf8).write(to: URL(fileURLWithPath: path))
        let result = try runCLI(["check", path])
        #expect(result.status == 2)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }
}

/// `backdrop estimate --scene --duration`: a run of frames as text, JSON (the keys checked below) and SVG.
@Suite("backdrop estimate --duration")
struct SceneRunCLITests {
    @Test func aRunPrintsItsFramesAsJSONTextAndAChart() throws {
        let arguments = [
            "estimate", "--scene", "photos-table-rasterized", "--device", "ipod-touch-5", "--duration", "1",
        ]
        let json = try runCLI(arguments + ["--scroll", "600", "--format", "json"])
        try #require(json.status == 0, "\(json.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        for key in ["fps", "droppedFrames", "longestFrameMs", "p95FrameMs", "frames"] {
            #expect(object[key] != nil, "no '\(key)'")
        }
        let frames = try #require(object["frames"] as? [[String: Any]])
        #expect(frames.count >= 55)
        for key in [
            "index", "startMs", "gpuMs", "presentedAtMs", "rasterCacheHits", "rasterCacheMisses", "rasterCacheBytes",
        ] {
            #expect(frames[0][key] != nil, "no frames[0].\(key)")
        }
        let text = try runCLI(arguments + ["--scroll", "600"])
        #expect(text.status == 0 && text.standardOutput.contains("fps") && text.standardOutput.contains("dropped"))
        let svg = try runCLI(arguments + ["--format", "svg"])
        #expect(svg.status == 0 && svg.standardOutput.hasPrefix("<svg") && svg.standardOutput.contains("16.67 ms"))
        let all = try runCLI(
            ["estimate", "--scene", "static-spinner", "--all-devices", "--duration", "0.5", "--format", "json"])
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(all.standardOutput.utf8)) as? [Any])
        #expect(runs.count == Device.all.count)
    }

    @Test(arguments: [
        (["--scene", "control-center", "--device", "iphone-5", "--duration", "0"], "--duration 0.0 is out of range"),
        (["--scene", "control-center", "--device", "iphone-5", "--scroll", "100"], "--scroll goes with --duration"),
        (["--device", "iphone-5", "--duration", "1"], "--duration and --scroll go with --scene"),
        (
            ["--scene", "control-center", "--device", "iphone-5", "--duration", "1", "--explain"],
            "leave out --duration"
        ),
    ])
    func badRunsAreOneLineErrors(_ arguments: [String], _ message: String) throws {
        let result = try runCLI(["estimate"] + arguments)
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }
}
