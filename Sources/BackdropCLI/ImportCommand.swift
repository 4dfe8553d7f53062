import ArgumentParser
import Backdrop
import Foundation

extension ImportFormat: ExpressibleByArgument {}

/// `backdrop import figma|sketch|uikit FILE -o scene.json`: a design file or a view dump as a scene file
/// (``SceneImport``). Each thing the scene cannot express or prices by an approximation is one warning line on
/// standard error. Every error is one line and exit status 2, and nothing is written; the scene is written
/// atomically, never over the input without `--force`.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn a Figma or Sketch file, or UIKit's recursiveDescription text, into a scene file.",
        discussion: """
            figma: a Figma REST file (GET /v1/files/KEY) or /nodes response, as JSON; the first top-level frame, \
            or --node ID. sketch: a .sketch file, one of its pages/UUID.json, or a document holding its pages; the \
            first artboard, or --node do_objectID. uikit: the text of -[UIView recursiveDescription]; \
            the first view, or --node 0xADDRESS. docs/import.md says what maps to what.

            What the scene cannot express is one warning line each on standard error. Every error is one line, \
            exit status 2, and nothing is written.

            Examples:
              backdrop import figma Examples/import/figma-file.json -o screen.json
              backdrop import sketch Examples/import/sketch-file.sketch -o screen.json
              backdrop import uikit Examples/import/uikit-description.txt -o screen.json
              backdrop estimate scene screen.json --device iphone-5
            """
    )

    @Argument(help: ArgumentHelp("The input's format.", valueName: "format"))
    var format: ImportFormat

    @Argument(help: ArgumentHelp("The file to import (- reads standard input).", valueName: "file"))
    var file: String

    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp("Write the scene here, atomically (- is standard output).", valueName: "path"))
    var output: String

    @Option(
        help: ArgumentHelp(
            "The frame, artboard or view to import: a Figma node id, a Sketch do_objectID, a view's address.",
            valueName: "id"))
    var node: String?

    @Flag(help: "Allow the output to replace the file imported.")
    var force = false

    func run() throws {
        if force { AtomicFile.allowReplacingInputs() }
        let bytes = try InputFile.bytes(of: file, limit: SceneImport.maximumBytes, what: "the \(format.rawValue) file")
        let imported = try SceneImport.run(format, data: Data(bytes), source: file, node: node)
        try AtomicFile.write(Array(SceneJSON.text(imported.scene).utf8), to: output)
        for warning in imported.warnings {
            FileHandle.standardError.write(Data("backdrop: warning: \(warning.escapingControlCharacters)\n".utf8))
        }
        if output != StandardStreams.name {
            var layers = 0
            func visit(_ list: [SceneLayer]) {
                for layer in list {
                    layers += 1
                    visit(layer.sublayers)
                    visit(layer.effect?.vibrancy ?? [])
                }
            }
            visit(imported.scene.layers)
            let warnings = imported.warnings.count
            print(
                "\(output): \(layers) layer\(layers == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
                    .escapingControlCharacters)
        }
    }
}
