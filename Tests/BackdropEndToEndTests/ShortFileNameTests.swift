import BackdropTestSupport
import Foundation
import Testing

/// Manifests, scenes and outputs named with one character, relative to the working directory: each crashed in
/// Foundation's path code (signal 4, issue 70 item 1) before the paths were split by `PathComponents`.
@Suite("One-character file names")
struct ShortFileNameTests {
    static let scene = #"""
        { "name": "s", "redraw": "static", "layers": [
          { "name": "photo", "frame": [0, 0, 320, 480], "content": "image", "opaque": true },
          { "name": "card", "frame": [10, 100, 80, 80], "content": "solid", "opaque": true,
            "shadow": { "radius": 4, "offset": [0, 3], "opacity": 0.5, "path": false } } ] }
        """#

    /// A folder holding the scene `s`, the picture `p` and the manifest `m`, whose one case renders `p` into `g`.
    static func folder() throws -> String {
        let folder = try Fixtures.temporaryDirectory().path
        try scene.write(toFile: folder + "/s", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: Fixtures.path("photos/coffee.png"), toPath: folder + "/p")
        let manifest = #"{ "cases": [ { "name": "c", "input": "p", "golden": "g", "style": "dark" } ] }"#
        try manifest.write(toFile: folder + "/m", atomically: true, encoding: .utf8)
        return folder
    }

    @Test(arguments: [
        ["estimate", "scene", "s", "--device", "iphone-5"],
        ["render", "scene", "s", "--device", "iphone-5", "-o", "o"],
        ["estimate", "find", "s", "card.shadow.radius", "--device", "iphone-5"],
        ["render", "picture", "p", "-o", "o", "--style", "dark"],
        ["check", "m", "--update", "missing"],
    ])
    func oneCharacterNamesWork(arguments: [String]) throws {
        let folder = try Self.folder()
        let result = try runCLI(arguments, in: folder)
        #expect(result.status == 0, "\(arguments): \(result.standardError)")
        #expect(!result.standardError.contains("Fatal error"))
    }

    /// `check -` reads the manifest from standard input; its files are named relative to the working directory.
    @Test func manifestOnStandardInput() throws {
        let folder = try Self.folder()
        let manifest = try Data(contentsOf: URL(fileURLWithPath: folder + "/m"))
        let result = try runCLI(["check", "-", "--update", "missing"], in: folder, input: manifest)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder + "/g"))
    }

    /// `estimate scene -` reads the scene from standard input, as `render picture -` reads a picture (item 9).
    @Test func sceneOnStandardInput() throws {
        let result = try runCLI(
            ["estimate", "scene", "-", "--device", "iphone-5", "--format", "json"], input: Data(Self.scene.utf8))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("\"fps\""))
    }
}
