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
            with a PNG body (from the page, or with the Backdrop-Token header that GET /state.json gives). A bad \
            request is a 4xx with a one-line JSON error. The server answers only requests addressed to its own \
            address or localhost, holds at most 64 connections, closes idle ones, and cancels a render over its \
            time limit (docs/preview.md lists every limit). Ctrl-C stops it.

            Examples:
              backdrop preview
              backdrop preview photo.png --port 8080
            """
    )

    @Argument(help: ArgumentHelp("The PNG to preview (default: the built-in demo picture).", valueName: "input"))
    var input: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The port to listen on; 0 picks a free one.", valueName: "n"))
    var port: Int = 8080

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "address"))
    var host: String = "127.0.0.1"

    @Option(
        name: .customLong("max-pixels"), parsing: .unconditional,
        help: ArgumentHelp(
            "Refuse inputs and uploads with more pixels than this, before decoding them.", valueName: "n"))
    var maxPixels: Int = PNGDecoder.defaultMaxPixels

    @Option(
        name: .customLong("render-timeout"), parsing: .unconditional,
        help: ArgumentHelp("Cancel a render that runs longer than this, answering 503.", valueName: "seconds"))
    var renderTimeout: Double = 15

    @Option(
        name: .customLong("idle-timeout"), parsing: .unconditional,
        help: ArgumentHelp("Close a connection that sends nothing for this long.", valueName: "seconds"))
    var idleTimeout: Double = 10

    func run() throws {
        guard (0...65535).contains(port) else { throw BackdropError(.badOption, "--port \(port) is outside 0…65535") }
        for (name, value) in [("--render-timeout", renderTimeout), ("--idle-timeout", idleTimeout)] {
            guard value.isFinite, (0.01...3600).contains(value) else {
                throw BackdropError(.badOption, "\(name) \(value) is outside 0.01…3600 seconds")
            }
        }
        try PNGDecoder.validate(maxPixels: maxPixels)
        let image = try input.map { path throws(BackdropError) in
            try ImageDecoder(maxPixels: maxPixels).decodeFile(path)
        }
        let server = try PreviewServer(
            input: image, inputName: input.map { PathComponents.lastComponent(of: $0) }, host: host,
            port: UInt16(port), maxPixels: maxPixels, renderSeconds: renderTimeout, idleSeconds: idleTimeout)
        try server.serveUntilStopped { address in
            FileHandle.standardOutput.write(Data("Backdrop preview at \(address)\n".utf8))
        }
        FileHandle.standardError.write(Data("backdrop: preview stopped\n".utf8))
    }
}
