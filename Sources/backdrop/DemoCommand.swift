import ArgumentParser
import Backdrop
import Foundation

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Render every style over the built-in picture (no input needed) and list what it wrote.",
        discussion: """
        Writes demo-input.png (the generated 1024×768 scene), then for each built-in style a blur over the panel \
        128,384,768,288 and its tint-only fallback.

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
        for style in BlurStyle.builtIn {
            for path in Effect.Path.allCases {
                let effect = Effect(style: style, frame: DemoImage.panel, scale: 2, path: path)
                let start = DispatchTime.now()
                let image = try renderer.render(source, effect: effect)
                let ms = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
                let file = "\(output)/demo-\(style.name)\(path == .tintOnly ? "-tint-only" : "").png"
                try PNGEncoder().write(image, to: file)
                print("wrote \(file) (\(style.name), \(path.rawValue), rendered in \(String(format: "%.1f", ms)) ms)")
            }
        }
    }
}
