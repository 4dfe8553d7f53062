import ArgumentParser
import Backdrop
import Foundation

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write the device budget atlas: a static site with tables, charts, frame timelines and previews.",
        discussion: """
            Writes index.html (open it in a browser; no network needed), README.md (the atlas as a Markdown table) \
            and images/: bar charts of the full-screen cost per device and style, one frame timeline per device \
            (light, full-screen vibrancy), and what each device would show for each style over the input (its scale, \
            its tint-only fallback). Every figure is a prediction of the cost model, beside Apple's measurements \
            where those exist. The output is the same, byte for byte, for the same input.

            Examples:
              backdrop report                       # the built-in picture, into Reports/
              backdrop report --input photo.png --output atlas
            """
    )

    @Option(
        help: ArgumentHelp(
            "The picture the previews are rendered over (default: the built-in demo picture).", valueName: "png"))
    var input: String?

    @Option(help: ArgumentHelp("The folder to write (created if missing).", valueName: "dir"))
    var output: String = "Reports"

    @OptionGroup var threadOptions: ThreadOptions

    func run() throws {
        let start = DispatchTime.now()
        let picture =
            try input.map { path throws(BackdropError) in try ImageDecoder().decodeFile(path) } ?? DemoImage.make()
        let name = input.map { PathComponents.lastComponent(of: $0) } ?? "the built-in demo picture (1024×768)"
        for folder in [output, output + "/images"] {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw BackdropError(.output, "\(folder): cannot create the folder")
            }
        }
        let site = ReportSite(
            input: picture, inputName: name, renderer: Renderer(parallelism: try threadOptions.resolve()))
        let onTerminal = isatty(STDERR_FILENO) == 1
        let total = 6 + Device.all.count + 3 * 4  // charts, README, index, input, timelines, previews (at most)
        var made = 0
        let files = try site.files { path in
            made += 1
            if onTerminal {
                Progress.draw(done: made, total: total, label: path)
            } else {
                print("made \(path)")
            }
        }
        for file in files { try AtomicFile.write(file.bytes, to: output + "/" + file.path) }
        if onTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        print(
            String(
                format: "wrote the report to %@/index.html (%@, %.1f s)", output, Plural.count(files.count, "file"),
                seconds))
    }
}
