import BackdropTestSupport
import Foundation
import Testing

/// Issue 48: a manifest reads its inputs from a root it names (`"root"`, relative to the manifest) or that
/// `check --root DIR` gives, and still writes nothing outside its own folder or `--output`.
@Suite("Manifest input roots")
struct ManifestRootTests {
    /// assets/in.png (the coffee photo) beside goldens/, which holds `manifest` as manifest.json.
    func layout(_ manifest: String) throws -> (root: URL, manifest: String) {
        let root = try Fixtures.temporaryDirectory()
        let assets = root.appendingPathComponent("assets")
        let goldens = root.appendingPathComponent("goldens")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: goldens, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Fixtures.path("photos/coffee.png"), toPath: assets.appendingPathComponent("in.png").path)
        let path = goldens.appendingPathComponent("manifest.json").path
        try manifest.write(toFile: path, atomically: true, encoding: .utf8)
        return (root, path)
    }

    func files(under folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }

    let oneCase =
        #"{ "name": "dark", "input": "in.png", "golden": "g/dark.png", "style": "dark", "frame": "50,100,500,200" }"#

    @Test func theRootKeyReadsInputsFromItsFolderAndGoldensStayBesideTheManifest() throws {
        let (root, manifest) = try layout(#"{ "root": "../assets", "cases": [ \#(oneCase) ] }"#)
        let record = try runCLI(["check", manifest, "--update", "missing"])
        #expect(record.status == 0, "\(record.standardOutput)\(record.standardError)")
        #expect(files(under: root.appendingPathComponent("assets")) == ["in.png"], "nothing written among the inputs")
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("goldens/g/dark.png").path))
        let check = try runCLI(["check", manifest])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
    }

    @Test func rootOptionReplacesTheKey() throws {
        let (root, manifest) = try layout(#"{ "root": "nowhere", "cases": [ \#(oneCase) ] }"#)
        let assets = root.appendingPathComponent("assets").path
        let record = try runCLI(["check", manifest, "--root", assets, "--update", "missing"])
        #expect(record.status == 0, "\(record.standardOutput)\(record.standardError)")
        #expect(try runCLI(["check", manifest, "--root", assets]).status == 0)
        // Without the option the manifest's own root, which does not exist, is a one-line error.
        let missing = try runCLI(["check", manifest])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("root 'nowhere': no such folder"), "\(missing.standardError)")
        #expect(missing.standardError.split(separator: "\n").count == 1)
    }

    @Test func badRootsAndEscapesAreOneLineErrorsThatWriteNothing() throws {
        let cases: [(String, [String], String)] = [
            (#"{ "root": "../missing", "cases": [ \#(oneCase) ] }"#, [], "no such folder"),
            (#"{ "root": "../assets/in.png", "cases": [ \#(oneCase) ] }"#, [], "is not a folder"),
            (
                #"{ "cases": [ \#(oneCase) ] }"#, ["--root", "/nonexistent-backdrop-root"],
                "--root /nonexistent-backdrop-root: no such folder"
            ),
            // Inputs stay inside the root: `..` past it is refused as it is for the manifest's folder.
            (
                #"{ "root": "../assets", "cases": [ { "input": "../goldens/manifest.json", "golden": "g.png", "style": "dark" } ] }"#,
                [],
                "paths stay inside the input root"
            ),
            // Goldens stay inside the manifest's folder whatever the root.
            (
                #"{ "root": "../assets", "cases": [ { "input": "in.png", "golden": "../assets/g.png", "style": "dark" } ] }"#,
                [],
                "paths stay inside the manifest's folder"
            ),
        ]
        for (json, extra, expected) in cases {
            let (root, manifest) = try layout(json)
            let before = files(under: root)
            let result = try runCLI(["check", manifest, "--update", "all"] + extra)
            #expect(result.status == 2, "\(json): exit \(result.status)")
            #expect(result.standardError.contains(expected), "\(json): \(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
            #expect(files(under: root) == before, "\(json): something was written")
        }
    }

    /// A symbolic link inside the root that leads out of it is refused, as inside the manifest's folder.
    @Test func aLinkLeadingOutOfTheRootIsRefused() throws {
        let (root, manifest) = try layout(
            #"{ "root": "../assets", "cases": [ { "input": "out/in.png", "golden": "g.png", "style": "dark" } ] }"#)
        let outside = root.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Fixtures.path("photos/coffee.png"), toPath: outside.appendingPathComponent("in.png").path)
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("assets/out").path, withDestinationPath: outside.path)
        let result = try runCLI(["check", manifest, "--update", "all"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("through a symbolic link"), "\(result.standardError)")
    }
}
