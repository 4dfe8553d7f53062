import ArgumentParser
import Backdrop
import Foundation

/// `backdrop preview`: runs `backdrop-preview`, the server's own program beside `backdrop` (or on the PATH), with the
/// same arguments (its `--help` included). The server is a program of its own so that the one-command processes
/// carry none of it (its page, its HTTP server and threads).
struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Serve a live preview page: drag the frame, pick style and device, see the effect and its cost.",
        discussion: "'backdrop preview --help' gives its options (it runs backdrop-preview, built beside backdrop).",
        helpNames: []
    )

    @Argument(parsing: .captureForPassthrough, help: "The preview's arguments (see 'backdrop preview --help').")
    var arguments: [String] = []

    func run() throws { try Self.runServer(arguments) }

    /// Replaces this process with `backdrop-preview arguments`; throws only when it cannot be run.
    static func runServer(_ arguments: [String]) throws {
        let folder = URL(fileURLWithPath: CommandLine.executablePath).deletingLastPathComponent()
        let beside = folder.appendingPathComponent("backdrop-preview").path
        guard let helper = Self.server(beside: beside) else {
            throw BackdropError(
                .output,
                "backdrop-preview is missing beside \(folder.path) and on the PATH: build it with 'swift build -c release --product backdrop-preview', or install both with scripts/install"
            )
        }
        let argv = ([helper] + arguments).map { strdup($0) } + [nil]
        execv(helper, argv)
        throw BackdropError(.output, "cannot run \(helper) (errno \(errno))")
    }
}

extension PreviewCommand {
    /// The server: `beside` (the build folder, or where scripts/install put both), else the first
    /// `backdrop-preview` on the PATH (as `swift package experimental-install` leaves it); nil when neither is there.
    static func server(beside: String) -> String? {
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/backdrop-preview" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}

extension CommandLine {
    /// This program's file (`/proc/self/exe`), or its first argument where that cannot be read.
    static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? arguments[0]
    }
}
