import ArgumentParser
import Backdrop
import BackdropCLI
import BackdropPreview
import Foundation

/// `backdrop preview`'s options and its run: the server until Ctrl-C.
struct PreviewServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backdrop preview",
        abstract: "Serve a live preview page: drag the frame, pick style and device, see the effect and its cost.",
        discussion: """
            Starts a local web server and prints one line with its address; open it in a browser. Without an \
            input it shows the built-in demo picture. The page's state is in its URL, so a link reproduces a \
            preview. Its HTTP API takes the CLI's option names: GET /render.png?style=…&frame=x,y,w,h&scale=…, \
            GET /estimate.json?…&device=ID|all, GET /estimate.svg?…&device=ID, POST /input and POST /vibrancy \
            with a PNG body. A bad request is a 400 with a one-line JSON error. Ctrl-C stops it.

            Examples:
              backdrop preview
              backdrop preview photo.png --port 8080
            """
    )

    @Argument(help: ArgumentHelp("The PNG to preview (default: the built-in demo picture).", valueName: "input"))
    var input: String?

    @Option(help: ArgumentHelp("The port to listen on; 0 picks a free one.", valueName: "n"))
    var port: Int = 8080

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "address"))
    var host: String = "127.0.0.1"

    @Option(
        name: .customLong("max-pixels"),
        help: ArgumentHelp(
            "Refuse inputs and uploads with more pixels than this, before decoding them.", valueName: "n"))
    var maxPixels: Int = PNGDecoder.defaultMaxPixels

    func run() throws {
        guard (0...65535).contains(port) else { throw BackdropError(.badOption, "--port \(port) is outside 0…65535") }
        try PNGDecoder.validate(maxPixels: maxPixels)
        let image = try input.map { path throws(BackdropError) in
            try PNGDecoder(maxPixels: maxPixels).decodeFile(path)
        }
        let server = try PreviewServer(
            input: image, inputName: input.map { URL(fileURLWithPath: $0).lastPathComponent }, host: host,
            port: UInt16(port), maxPixels: maxPixels)
        try server.serveUntilStopped { address in
            FileHandle.standardOutput.write(Data("Backdrop preview at \(address)\n".utf8))
        }
        FileHandle.standardError.write(Data("backdrop: preview stopped\n".utf8))
    }
}
