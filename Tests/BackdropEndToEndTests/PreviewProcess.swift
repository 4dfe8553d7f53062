import BackdropTestSupport
import Foundation

/// A running `backdrop preview --port 0 …` (or another server command, `backdrop review DIR --serve --port 0`): its
/// address read from the line it prints, stopped with SIGINT (Ctrl-C).
final class PreviewProcess: @unchecked Sendable {
    let process = Process()
    /// "http://127.0.0.1:PORT/".
    let address: String
    /// Where its standard error goes: the lines it logs.
    let standardErrorFile: URL

    /// Starts `backdrop preview --port 0 arguments`, with `command` as `backdrop` (default: the one built); with
    /// `fileLimit`, under `ulimit -n fileLimit`; `leading` replaces `preview --port 0`.
    init(
        _ arguments: [String] = [], fileLimit: Int? = nil, command: String = Fixtures.cli,
        leading: [String] = ["preview", "--port", "0"]
    ) throws {
        standardErrorFile = try Fixtures.temporaryDirectory().appendingPathComponent("preview.stderr")
        _ = FileManager.default.createFile(atPath: standardErrorFile.path, contents: nil)
        if let fileLimit {
            // `exec`: the server keeps the shell's PID, so that stopping the process stops the server.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                [
                    "-c", "ulimit -n \(fileLimit) && exec \"$0\" \"$@\"", command,
                ] + leading + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = leading + arguments
        }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: standardErrorFile)
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

    /// The port it listens on.
    var port: UInt16 { UInt16(address.split(separator: ":").last!.dropLast())! }

    /// What it has logged so far.
    var standardError: String { (try? String(contentsOf: standardErrorFile, encoding: .utf8)) ?? "" }

    /// The most memory it has held at once (VmHWM), in bytes; nil once it has exited.
    var peakMemory: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
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
