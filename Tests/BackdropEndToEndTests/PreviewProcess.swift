import BackdropTestSupport
import Foundation

/// A running `backdrop preview --port 0 …`: its address read from the line it prints, stopped with SIGINT (Ctrl-C).
final class PreviewProcess: @unchecked Sendable {
    let process = Process()
    /// "http://127.0.0.1:PORT/".
    let address: String

    init(_ arguments: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: Fixtures.cli)
        process.arguments = ["preview", "--port", "0"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: "http://") else {
            process.terminate()
            throw FixtureMissing(path: "the preview's address in its first line, '\(text)'")
        }
        address = String(text[range.lowerBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Sends Ctrl-C and waits; the exit status (0 when it stopped cleanly).
    @discardableResult
    func stop() -> Int32 {
        process.interrupt()
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { _ = stop() }
    }
}
