import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// `backdrop import` through the command line: each example of `Examples/import` imported to the scene committed
/// beside it and priced by `estimate scene`, each real file of `Tests/Fixtures/import` imported, priced and drawn,
/// and bad input: one line, exit 2, nothing written (issue 66).
@Suite("backdrop import")
struct ImportCLITests {
    static let examples = Fixtures.packageRoot.appendingPathComponent("Examples/import")
    static let cases: [(format: String, input: String, scene: String)] = [
        ("figma", "figma-file.json", "figma-file.scene.json"),
        ("uikit", "uikit-description.txt", "uikit-description.scene.json"),
        ("sketch", "sketch-page.json", "sketch-page.scene.json"),
    ]

    @Test(arguments: cases.indices)
    func eachExampleImportsToItsCommittedSceneAndIsPriced(index: Int) throws {
        let (format, input, expected) = Self.cases[index]
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("scene.json").path
        let result = try runCLI(["import", format, Self.examples.appendingPathComponent(input).path, "-o", output])
        try #require(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("\(output): "))
        #expect(result.standardError.split(separator: "\n").allSatisfy { $0.hasPrefix("backdrop: warning: ") })
        let written = try String(contentsOfFile: output, encoding: .utf8)
        let committed = try String(
            contentsOfFile: Self.examples.appendingPathComponent(expected).path, encoding: .utf8)
        #expect(written == committed, "the import of \(input) is the committed \(expected)")
        for device in ["iphone-4s", "iphone-5", "iphone-5s"] {
            let price = try runCLI(["estimate", "scene", output, "--device", device])
            #expect(price.status == 0, "\(device): \(price.standardError)")
        }
    }

    /// The `.sketch` example (a ZIP archive of the page example, with its document.json) imports to the page's scene.
    @Test func aSketchFileImportsAsItsPage() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("scene.json").path
        let result = try runCLI(
            ["import", "sketch", Self.examples.appendingPathComponent("sketch-file.sketch").path, "-o", output])
        try #require(result.status == 0, "\(result.standardError)")
        let fromFile = try SceneParser.parse(fileAt: output)
        let fromPage = try SceneParser.parse(
            fileAt: Self.examples.appendingPathComponent("sketch-page.scene.json").path)
        #expect(fromFile.layers == fromPage.layers && fromFile.screen == fromPage.screen)
    }

    /// The public files of `Tests/Fixtures/import` (SOURCES.md): imported with the layers and warnings
    /// docs/import.md prints, priced and drawn.
    static let realFiles: [(format: String, file: String, node: String?, summary: String)] = [
        ("figma", "fidget-figmatests.json", nil, "2 layers, 0 warnings"),
        ("figma", "fidget-figmatests.json", "8:2", "13 layers, 0 warnings"),
        ("figma", "fidget-figmatests.json", "8:65", "9 layers, 0 warnings"),
        ("uikit", "snapshot-testing-table-view-controller.txt", nil, "51 layers, 1 warning"),
        ("uikit", "snapshot-testing-traits-iphone-se.txt", nil, "5 layers, 0 warnings"),
        ("uikit", "snapshot-testing-uiview.txt", nil, "2 layers, 0 warnings"),
    ]

    /// Sketch's own test file (sketch-hq/sketch-document, MIT): a real archive whose one page has no layer. It is
    /// read (archive, document, page) and refused in one line, nothing written.
    @Test func aRealSketchFileWithAnEmptyPageIsReadAndRefused() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("scene.json").path
        let result = try runCLI(
            ["import", "sketch", Fixtures.path("import/sketch-hq-with-assistants.sketch"), "-o", output])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(
            result.standardError.hasSuffix(
                "sketch-hq-with-assistants.sketch: no visible artboard in the file (give a layer with --node)\n"),
            "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test(arguments: realFiles.indices)
    func eachRealFileIsImportedPricedAndDrawn(index: Int) throws {
        let (format, file, node, summary) = Self.realFiles[index]
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("scene.json").path
        let picture = directory.appendingPathComponent("scene.png").path
        let result = try runCLI(
            ["import", format, Fixtures.path("import/" + file), "-o", output] + (node.map { ["--node", $0] } ?? []))
        try #require(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "\(output): \(summary)\n")
        let price = try runCLI(["estimate", "scene", output, "--device", "iphone-5"])
        #expect(price.status == 0 && price.standardOutput.contains("fps"), "\(price.standardError)")
        let drawn = try runCLI(["render", "scene", output, "--device", "iphone-5", "-o", picture])
        #expect(drawn.status == 0, "\(drawn.standardError)")
        #expect(try PNGDecoder().decodeFile(picture).size.width > 0)
    }

    @Test func badInputIsOneLineExitTwoAndNothingWritten() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("scene.json").path
        let figma = Self.examples.appendingPathComponent("figma-file.json").path
        let uikit = Self.examples.appendingPathComponent("uikit-description.txt").path
        for arguments in [
            ["import", "figma", uikit, "-o", output],
            ["import", "uikit", figma, "-o", output],
            ["import", "sketch", figma, "-o", output],
            ["import", "figma", figma, "--node", "7:7", "-o", output],
            ["import", "figma", directory.appendingPathComponent("missing.json").path, "-o", output],
            ["import", "figma", figma, "-o", directory.path],
        ] {
            let result = try runCLI(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }

    @Test func theInputIsReplacedOnlyWithForce() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("screen.txt").path
        let text = "<UIView: 0x1; frame = (0 0; 100 100); layer = <CALayer: 0x2>>\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: input))
        let refused = try runCLI(["import", "uikit", input, "-o", input])
        #expect(refused.status == 2 && refused.standardError.contains("pass --force"))
        #expect(try String(contentsOfFile: input, encoding: .utf8) == text)
        let forced = try runCLI(["import", "uikit", input, "-o", input, "--force"])
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(try String(contentsOfFile: input, encoding: .utf8).hasPrefix("{"))
    }
}
