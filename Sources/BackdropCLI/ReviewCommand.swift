import ArgumentParser
import Backdrop
import Foundation

struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract:
            "List or serve the failures a 'check --output' folder holds, and accept a case's picture as its golden.",
        discussion: """
            Without --accept, prints each failed case: its figures, the limits it broke, and its pictures. \
            DIR/index.html shows the same cases in a browser, side by side, with a swipe slider, flickering and \
            zoomed on the differing region.

            --accept NAME (repeatable) or --accept-all writes each case's actual picture as its golden (a cost \
            case's: its cost golden with the devices that moved re-recorded), the same \
            bytes at the same path as 'check --update failed' would; with --into DIR under DIR instead, as \
            'check --update-into DIR' would. Nothing else is written. Run it from the folder the check ran in (the \
            manifest's path is read as the check was given it). The summary is not signed, so its manifest is \
            used only when it lies inside the working directory; otherwise name it with --manifest FILE, and the \
            goldens are written beside that file. A manifest changed since, one outside the working directory \
            and not named, a case that did not fail, or a folder check did not write is a one-line error, and \
            then nothing is written.

            --serve serves the review page on this computer (127.0.0.1, port 8080 unless --port; 0 picks a free \
            one) and prints its address: each failed case with its figures, the limits it broke, the same views, \
            an accept button per case and one for every case the filter shows, which write as --accept does (under \
            --into DIR when given). It runs backdrop-preview, built beside backdrop, with the preview's limits and \
            checks; Ctrl-C stops it.

            Exit codes: 0 done · 2 usage, or a folder, case or manifest that cannot be used.

            Examples:
              backdrop review check-results
              backdrop review check-results --accept coffee-light
              backdrop review check-results --accept-all --into accepted
              backdrop review check-results --serve --port 8090
            """
    )

    @Argument(help: ArgumentHelp("The folder 'backdrop check --output' wrote.", valueName: "dir"))
    var folder: String

    @Option(help: ArgumentHelp("Accept this failed case's picture as its golden (repeatable).", valueName: "name"))
    var accept: [String] = []

    @Flag(name: .customLong("accept-all"), help: "Accept every failed case's picture as its golden.")
    var acceptAll = false

    @Option(
        help: ArgumentHelp(
            "Write the accepted goldens under this folder, at their paths in the manifest, not over them.",
            valueName: "dir"))
    var into: String?

    @Option(
        help: ArgumentHelp(
            "The manifest the check ran, beside which accepting writes the goldens; needed when the one the "
                + "summary names is not inside the working directory.",
            valueName: "file"))
    var manifest: String?

    @Flag(help: "Serve the review page with accept buttons on this computer, until Ctrl-C.")
    var serve = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("With --serve: the port to listen on; 0 picks a free one (default 8080).", valueName: "n"))
    var port: Int?

    @Option(help: ArgumentHelp("With --serve: the address to listen on (default 127.0.0.1).", valueName: "address"))
    var host: String?

    func run() throws {
        if serve {
            if acceptAll || !accept.isEmpty {
                throw BackdropError(.badOption, "--serve accepts from its page: leave out --accept and --accept-all")
            }
            _ = try GoldenReview(folder: folder)  // a folder check did not write: refused here, in one line
            var arguments = ["review", folder]
            if let into { arguments += ["--into", into] }
            if let manifest { arguments += ["--manifest", manifest] }
            if let port { arguments += ["--port", String(port)] }
            if let host { arguments += ["--host", host] }
            return try PreviewCommand.runServer(arguments)
        }
        if port != nil || host != nil { throw BackdropError(.badOption, "--port and --host go with --serve") }
        if acceptAll && !accept.isEmpty {
            throw BackdropError(.badOption, "give --accept NAME or --accept-all, not both")
        }
        if into != nil && !acceptAll && accept.isEmpty {
            throw BackdropError(.badOption, "--into goes with --accept or --accept-all")
        }
        if manifest != nil && !acceptAll && accept.isEmpty {
            throw BackdropError(.badOption, "--manifest goes with --accept, --accept-all or --serve")
        }
        let review = try GoldenReview(folder: folder, manifest: manifest)
        if acceptAll || !accept.isEmpty {
            let written = acceptAll ? try review.acceptAll(into: into) : try review.accept(accept, into: into)
            for path in written { print("accepted  \(path.escapingControlCharacters)") }
            return
        }
        let failures = review.failures
        for failure in failures {
            let limits =
                failure.failedLimits.isEmpty ? "" : " — failed: \(failure.failedLimits.joined(separator: ", "))"
            print("FAIL      \(failure.name.escapingControlCharacters): \(failure.message)\(limits)")
            print("          \(folder)/\(failure.actual)")
        }
        let costs = review.summary.cases.filter { $0.status == "failed" && $0.devices != nil }
        for entry in costs {
            for device in entry.devices ?? [] where device.status == "failed" {
                print("FAIL      \(entry.name.escapingControlCharacters) [\(device.device)]: \(device.message)")
            }
            if let actual = entry.actual { print("          \(folder)/\(actual)") }
        }
        let count = failures.count + costs.count
        print("\(count) failed case\(count == 1 ? "" : "s") in \(folder)")
    }
}
