import ArgumentParser
import Backdrop
import BackdropCLI
import BackdropPreview
import Foundation

/// `backdrop review DIR --serve`'s server (`backdrop-preview review DIR …`): the review page until Ctrl-C.
struct ReviewServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backdrop review --serve",
        abstract: "Serve the review page of a 'check --output' folder: each failure's views, figures and accept button."
    )

    @Argument(help: ArgumentHelp("The folder 'backdrop check --output' wrote.", valueName: "dir"))
    var folder: String

    @Option(help: ArgumentHelp("Write the accepted goldens under this folder, not over them.", valueName: "dir"))
    var into: String?

    @Option(help: ArgumentHelp("The manifest the check ran, whose goldens accepting writes.", valueName: "file"))
    var manifest: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The port to listen on; 0 picks a free one.", valueName: "n"))
    var port: Int = 8080

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "address"))
    var host: String = "127.0.0.1"

    func run() throws {
        guard (0...65535).contains(port) else { throw BackdropError(.badOption, "--port \(port) is outside 0…65535") }
        let server = try ReviewServer(
            folder: folder, into: into, manifest: manifest, host: host, port: UInt16(port))
        try server.serveUntilStopped { address in
            FileHandle.standardOutput.write(Data("Backdrop review at \(address)\n".utf8))
        }
        FileHandle.standardError.write(Data("backdrop: review stopped\n".utf8))
    }
}
