import ArgumentParser
import Backdrop
import Foundation

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Render every style over the built-in picture (no input needed) and list what it wrote.",
        discussion: """
            Writes demo-input.png (the generated 1024×768 scene) and demo-vibrant-content.png (built-in grey icons \
            and labels), then for each style 'backdrop styles' lists (an adaptive one in its light and dark \
            appearance) over the panel 128,384,768,288: the blur, the blur with the vibrant content drawn over it, \
            and the tint-only fallback (a material's and glass's: Reduce Transparency's look).

            Example:
              backdrop demo --output demo
            """
    )

    @Option(help: ArgumentHelp("The directory to write into (created if missing).", valueName: "dir"))
    var output: String = "demo"

    @OptionGroup var threadOptions: ThreadOptions

    func run() throws {
        let parallelism = try threadOptions.resolve()
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw BackdropError(.output, "\(output): cannot create the directory")
        }
        let source = DemoImage.make()
        let renderer = Renderer(parallelism: parallelism)
        let inputPath = output + "/demo-input.png"
        try PNGEncoder().write(source, to: inputPath)
        print("wrote \(inputPath) (the built-in picture, \(source.width)×\(source.height))")
        let content = DemoImage.vibrantContent()
        let contentPath = output + "/demo-vibrant-content.png"
        try PNGEncoder().write(content, to: contentPath)
        print("wrote \(contentPath) (the built-in vibrant content, \(content.width)×\(content.height))")
        let origin = DemoImage.vibrantContentOrigin
        let placement = Vibrancy(x: origin.x, y: origin.y, contentSize: content.size)
        let variants: [(suffix: String, path: Effect.Path, vibrancy: Vibrancy?)] = [
            ("", .blur, nil), ("-vibrancy", .blur, placement), ("-tint-only", .tintOnly, nil),
        ]
        // Every style `backdrop styles` lists, in its order: an adaptive one in each appearance (iOS 7's three, then
        // the later UIKit styles, the materials and glass). A style whose vibrant content takes a level is drawn
        // with the level its recipe names first.
        for (style, fileName, label) in Self.styles {
            for variant in variants {
                let effect = Effect(
                    style: style, frame: DemoImage.panel, scale: 2, path: variant.path,
                    vibrancy: variant.vibrancy)
                let start = DispatchTime.now()
                let image = try renderer.render(
                    source, effect: effect,
                    vibrantContent: variant.vibrancy == nil ? nil : content)
                let ms = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
                let file = "\(output)/demo-\(fileName)\(variant.suffix).png"
                try PNGEncoder().write(image, to: file)
                let what = variant.path.rawValue + (variant.vibrancy == nil ? "" : " + vibrancy")
                print("wrote \(file) (\(label), \(what), rendered in \(String(format: "%.1f", ms)) ms)")
            }
        }
    }
}

extension DemoCommand {
    /// Every style of ``StyleCatalogue``, in its order; an adaptive one in its light appearance, then its dark one
    /// (file `demo-NAME-dark…`): the style drawn, its file's name and the words its line says.
    static var styles: [(style: BlurStyle, fileName: String, label: String)] {
        StyleCatalogue.all.flatMap { entry in
            entry.isAdaptive
                ? [
                    (entry.light, entry.name, entry.name + ", light appearance"),
                    (entry.dark, entry.name + "-dark", entry.name + ", dark appearance"),
                ]
                : [(entry.light, entry.name, entry.name)]
        }
    }
}
