import BackdropImageIO
import Foundation

/// A design file or a view dump turned into a ``Scene`` (`backdrop import`, `docs/import.md`): the scene, and one
/// line for each thing of the input that the scene cannot express or prices by an approximation. Nothing of the
/// input that is visible is left out without a line, except what `docs/import.md` lists as ignored.
public struct ImportedScene: Sendable, Equatable {
    /// The scene; `SceneParser` reads its ``SceneJSON`` text back (``SceneImport/run(_:data:source:node:)`` checks).
    public var scene: Scene
    /// One line each, in the order of the input's tree.
    public var warnings: [String]

    public init(scene: Scene, warnings: [String]) {
        self.scene = scene
        self.warnings = warnings
    }
}

/// The formats `backdrop import` reads.
public enum ImportFormat: String, Sendable, CaseIterable {
    /// A Figma REST API file (`GET /v1/files/:key`) or `/nodes` response, as JSON.
    case figma
    /// A `.sketch` file, one of its pages (`pages/UUID.json`), or a document object holding its pages.
    case sketch
    /// The text UIKit's `-[UIView recursiveDescription]` prints.
    case uikit
}

/// The entry point of the importers: one input, one scene, checked against every limit of a scene file.
public enum SceneImport {
    /// The largest input read, bytes (a design file's JSON is larger than the scene it gives).
    public static let maximumBytes = 64 << 20

    /// The scene `data` describes in `format`; `source` names the input in errors and the scene's description;
    /// `node` chooses the frame, artboard or view (Figma node id, Sketch `do_objectID`, UIKit address) instead of the
    /// first. Throws a one-line `.badInput` error naming `source` for input of another kind, a node that is not
    /// there, a number that is not finite or beyond ±1 000 000, and a tree beyond ``SceneParser/maximumDepth`` or
    /// ``SceneParser/maximumLayerInstances``.
    public static func run(_ format: ImportFormat, data: Data, source: String, node: String? = nil)
        throws(BackdropError) -> ImportedScene
    {
        guard data.count <= maximumBytes else {
            throw BackdropError(.badInput, "\(source): larger than \(maximumBytes) bytes")
        }
        let imported: ImportedScene
        switch format {
        case .figma:
            var importer = FigmaImport(source: source)
            imported = try importer.run(data, node: node)
        case .sketch:
            var importer = SketchImport(source: source)
            imported = try importer.run(data, node: node)
        case .uikit:
            var importer = UIKitDescriptionImport(source: source)
            imported = try importer.run(data, node: node)
        }
        try check(imported.scene, source: source)
        return imported
    }

    /// Every limit of a scene file, checked on the imported tree (named by layer) and then by reading its text back.
    static func check(_ scene: Scene, source: String) throws(BackdropError) {
        var count = 0
        func visit(_ layers: [SceneLayer], depth: Int) throws(BackdropError) {
            for layer in layers {
                guard depth <= SceneParser.maximumDepth else {
                    throw BackdropError(
                        .badInput,
                        "\(source): layer '\(layer.name)' nests deeper than a scene's \(SceneParser.maximumDepth) levels"
                    )
                }
                count += 1
                guard count <= SceneParser.maximumLayerInstances else {
                    throw BackdropError(
                        .badInput, "\(source): more than a scene's \(SceneParser.maximumLayerInstances) layers")
                }
                try visit(layer.sublayers, depth: depth + 1)
                if let vibrancy = layer.effect?.vibrancy { try visit(vibrancy, depth: depth + 1) }
            }
        }
        try visit(scene.layers, depth: 1)
        let text = SceneJSON.text(scene)
        guard text.utf8.count <= SceneParser.maximumBytes else {
            throw BackdropError(
                .badInput, "\(source): the scene would be larger than \(SceneParser.maximumBytes) bytes")
        }
        do {
            _ = try SceneParser.parse(Data(text.utf8), source: "the imported scene")
        } catch {
            throw BackdropError(.badInput, "\(source): \(error.message)")
        }
    }

    /// A layer or scene name from the input: control and bidirectional characters become spaces (names reach
    /// terminals), cut to ``SceneParser/longestName`` characters; empty becomes `fallback`.
    static func name(_ text: String, fallback: String) -> String {
        let scalars = text.unicodeScalars.map { scalar -> Character in
            scalar.properties.generalCategory == .control || String.bidiControls.contains(scalar.value)
                ? " " : Character(scalar)
        }
        let cleaned = String(String(scalars).prefix(SceneParser.longestName))
        return cleaned.trimmingCharacters(in: .whitespaces).isEmpty ? fallback : cleaned
    }

    /// The largest coordinate or size taken from an input, points: the scene format's own bound.
    static let largestCoordinate = 1e6
}
