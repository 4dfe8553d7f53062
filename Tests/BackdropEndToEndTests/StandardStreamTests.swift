import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// Issue 48: `-` as a file. `-o -` puts the PNG, and nothing else, on standard output; an input `-` is read from
/// standard input with the limits a file has; a terminal, an empty or a truncated standard input are one-line
/// errors that write nothing.
@Suite("- as a file")
struct StandardStreamTests {
    /// The CLI run with `input` on its standard input (nil: /dev/null), its outputs as raw bytes.
    func run(_ arguments: [String], input: [UInt8]?) throws -> (status: Int32, output: [UInt8], error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Fixtures.cli)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let inputPipe = Pipe()
        if input == nil { process.standardInput = FileHandle.nullDevice } else { process.standardInput = inputPipe }
        try process.run()
        if let input {
            // Written from another thread: the child may fill its output pipe before reading all of its input.
            let writer = Thread {
                inputPipe.fileHandleForWriting.write(Data(input))
                try? inputPipe.fileHandleForWriting.close()
            }
            writer.start()
        }
        let errors = ErrorCollector(err.fileHandleForReading)
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, [UInt8](output), errors.text())
    }

    let photo = Fixtures.path("photos/coffee.png")
    let options = ["--style", "dark", "--frame", "50,100,500,200"]

    @Test func dashOutputWritesThePNGAloneToStandardOutput() throws {
        let folder = try Fixtures.temporaryDirectory()
        let file = folder.appendingPathComponent("out.png").path
        let toFile = try runCLI(["render", photo, "-o", file] + options)
        #expect(toFile.status == 0, "\(toFile.standardError)")
        let expected = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        let result = try run(["render", photo, "-o", "-"] + options, input: nil)
        #expect(result.status == 0, "\(result.error)")
        #expect(
            result.output == expected,
            "standard output holds \(result.output.count) bytes, not the PNG's \(expected.count)")
        #expect(result.error.contains("wrote -"), "the report line goes to standard error: \(result.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.png"], "no file named -")
        #expect(!FileManager.default.fileExists(atPath: "-"))
    }

    @Test func dashInputReadsStandardInputLikeAFile() throws {
        let folder = try Fixtures.temporaryDirectory()
        let fromFile = folder.appendingPathComponent("file.png").path
        let fromPipe = folder.appendingPathComponent("pipe.png").path
        #expect(try runCLI(["render", photo, "-o", fromFile] + options).status == 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: photo)))
        let result = try run(["render", "-", "-o", fromPipe] + options, input: bytes)
        #expect(result.status == 0, "\(result.error)")
        #expect(FileManager.default.contents(atPath: fromPipe) == FileManager.default.contents(atPath: fromFile))
        // Both ends at once: standard input in, standard output out.
        let through = try run(["render", "-", "-o", "-"] + options, input: bytes)
        #expect(through.status == 0, "\(through.error)")
        #expect(Data(through.output) == FileManager.default.contents(atPath: fromFile))
    }

    @Test func emptyTruncatedOrOversizedStandardInputIsAOneLineErrorAndWritesNothing() throws {
        let folder = try Fixtures.temporaryDirectory()
        let output = folder.appendingPathComponent("out.png").path
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: photo)))
        let cases: [(String, [UInt8], [String], String)] = [
            ("empty", [], [], "standard input is empty"),
            ("truncated", Array(bytes.prefix(bytes.count / 2)), [], "-"),
            // A header that claims 100 000 × 100 000 pixels: refused by --max-pixels before pixels are allocated.
            ("oversized", headerOnlyPNG(width: 100_000, height: 100_000), ["--max-pixels", "1000000"], "pixels"),
        ]
        for (name, input, extra, expected) in cases {
            let result = try run(["render", "-", "-o", output] + options + extra, input: input)
            #expect(result.status == 1 || result.status == 2, "\(name): exit \(result.status)")
            let lines = result.error.split(separator: "\n")
            #expect(lines.count == 1, "\(name): \(result.error)")
            #expect(result.error.contains(expected), "\(name): \(result.error)")
            #expect(result.output.isEmpty, "\(name): wrote to standard output")
            #expect(!FileManager.default.fileExists(atPath: output), "\(name): wrote \(output)")
        }
    }

    /// `-o -` with standard output on a terminal (a pseudo-terminal made by `script`) is refused: a PNG is binary.
    @Test func dashOutputOnATerminalIsRefused() throws {
        let command = ([Fixtures.cli, "render", photo, "-o", "-"] + options).map { "'\($0)'" }.joined(separator: " ")
        let result = try runProcess("/usr/bin/script", ["-qec", command + "; echo exit=$?", "/dev/null"])
        #expect(result.output.contains("standard output is a terminal"), "\(result.output)")
        #expect(result.output.contains("exit=1"), "\(result.output)")
        #expect(!result.output.contains("IHDR"), "PNG bytes reached the terminal")
    }
}

/// Reads a pipe to its end on another thread, so that neither of two pipes can fill while the other is read.
final class ErrorCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread {
            let all = handle.readDataToEndOfFile()
            self.lock.withLock { self.data = all }
            self.done.signal()
        }.start()
    }

    func text() -> String {
        done.wait()
        return lock.withLock { String(decoding: data, as: UTF8.self) }
    }
}
