import Backdrop
import Foundation

// What both test targets share: the unit tests use the pictures and generators; the end-to-end tests also read
// `Tests/Fixtures` and run the built binary.

/// Paths to the project and to its test data in `Tests/Fixtures` (sources and licences in each folder's
/// SOURCES.md), which tests read and never skip: a missing file throws, and the test fails naming it.
public enum Fixtures {
    /// The package root (two folders above this file's folder).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `Tests/Fixtures` in the package: photos, png, pixelmatch and reference.
    public static let root = packageRoot.appendingPathComponent("Tests/Fixtures")

    /// The path of a file of `Tests/Fixtures`, such as `photos/coffee.png`.
    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// Decodes a fixture PNG; throws (failing the test loudly) if it is missing or unreadable.
    public static func image(_ relative: String) throws -> RGBAImage<UInt8> {
        let path = Self.path(relative)
        guard FileManager.default.fileExists(atPath: path) else { throw FixtureMissing(path: path) }
        return try PNGDecoder().decodeFile(path)
    }

    /// The file names in a fixture folder, sorted; fails loudly when the folder is missing.
    public static func files(in relative: String) throws -> [String] {
        let path = Self.path(relative)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            throw FixtureMissing(path: path)
        }
        return names.sorted()
    }

    /// The built CLI, next to the test bundle in the build folder; `BACKDROP_CLI` names another build's (the
    /// output-bytes table was recorded by a build from before a change).
    public static var cli: String {
        if let other = ProcessInfo.processInfo.environment["BACKDROP_CLI"] { return other }
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidate = directory.appendingPathComponent("backdrop").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        // swift-testing on Linux may run from a helper; fall back to the build folder of this configuration.
        for configuration in ["release", "debug"] {
            let path = packageRoot.appendingPathComponent(".build/\(configuration)/backdrop").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return candidate
    }

    /// A fresh temporary directory for one test, inside this test process's own folder (`backdrop-tests-PID` in the
    /// system's temporary folder), which is removed when the process exits: a run leaves nothing behind.
    public static func temporaryDirectory() throws -> URL {
        _ = temporaryRootPrepared
        let url = URL(fileURLWithPath: temporaryRoot).appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// The test process's temporary folder, `backdrop-tests-PID` in the system's: emptied on first use (of what an
/// earlier process with the same PID left) and removed when the process exits.
private let temporaryRoot =
    FileManager.default.temporaryDirectory.appendingPathComponent("backdrop-tests-\(getpid())").path
private let temporaryRootPrepared: Void = {
    try? FileManager.default.removeItem(atPath: temporaryRoot)
    atexit { try? FileManager.default.removeItem(atPath: temporaryRoot) }
}()

public struct FixtureMissing: Error, CustomStringConvertible {
    public let path: String
    public init(path: String) { self.path = path }
    public var description: String { "missing fixture \(path) (Tests/Fixtures)" }
}

/// The result of running the CLI.
public struct CLIResult {
    public let status: Int32
    public let standardOutput: String
    public let standardError: String
}

/// Runs the built `backdrop` with `arguments`, and `environment` added to this process's environment, in
/// `directory` (this process's working directory when nil), given `input` on its standard input (this process's when
/// nil). Both output streams are read at once, so a child that writes much to one while the other is still open never
/// blocks.
public func runCLI(
    _ arguments: [String], environment: [String: String] = [:], in directory: String? = nil, input: Data? = nil
) throws -> CLIResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Fixtures.cli)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let inputPipe = input.map { _ in Pipe() }
    if let inputPipe { process.standardInput = inputPipe }
    try process.run()
    if let input, let inputPipe {
        Thread.detachNewThread {
            try? inputPipe.fileHandleForWriting.write(contentsOf: input)
            try? inputPipe.fileHandleForWriting.close()
        }
    }
    let errorReader = StreamReader(err.fileHandleForReading)
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = errorReader.wait()
    process.waitUntilExit()
    return CLIResult(
        status: process.terminationStatus,
        standardOutput: String(decoding: outData, as: UTF8.self),
        standardError: String(decoding: errData, as: UTF8.self))
}

/// Reads a stream to its end on a thread of its own; ``wait()`` returns what it read.
private final class StreamReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// The stream's bytes, once it has ended.
    func wait() -> Data {
        done.wait()
        return data
    }
}

/// A deterministic pseudo-random picture (xorshift), with varied alpha when `alpha` is true.
public func noiseImage(width: Int, height: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15, alpha: Bool = false) -> RGBAImage<
    UInt8
> {
    var generator = Xorshift64(seed: seed)
    var samples = [UInt8]()
    samples.reserveCapacity(width * height * 4)
    for _ in 0..<(width * height) {
        for channel in 0..<4 {
            let value = generator.next()
            samples.append(channel == 3 && !alpha ? 255 : UInt8(truncatingIfNeeded: value >> 32))
        }
    }
    return RGBAImage(width: width, height: height, samples: samples)
}

/// Marsaglia's xorshift (13, 7, 17) over 64 bits: the tests' fixed pseudo-random sequences. `seed` must not be 0.
public struct Xorshift64: RandomNumberGenerator {
    var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}

/// A small deterministic random number generator (SplitMix64), for tests that draw many inputs.
public struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Runs `executable` with `arguments` (in `directory` and with `environment` when given, else this process's); its
/// exit status and its standard output and error, interleaved.
public func runProcess(
    _ executable: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil
) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if let environment { process.environment = environment }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// A well-formed PNG whose IHDR claims `width`×`height` (of `bitDepth` and `colorType`: 8 and 6 are 8-bit RGBA)
/// but whose IDAT holds only a few bytes: what a hostile or damaged file looks like.
public func headerOnlyPNG(width: UInt32, height: UInt32, bitDepth: UInt8 = 8, colorType: UInt8 = 6) -> [UInt8] {
    func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)]
    }
    func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        + chunk("IHDR", bigEndian(width) + bigEndian(height) + [bitDepth, colorType, 0, 0, 0])
        + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        + chunk("IEND", [])
}

/// Runs the built `backdrop` with `arguments` under Python (which the tests' machine has) and returns its exit status,
/// its standard output and error together, and its own peak resident memory in bytes (the child's `ru_maxrss`, so
/// no other process the tests ran counts), with its address space capped at `addressSpaceLimit` bytes when given.
public func runCLIMeasuringPeakMemory(_ arguments: [String], addressSpaceLimit: Int? = nil) throws -> (
    status: Int32, output: String, bytes: Int
) {
    let script = #"""
        import json, resource, subprocess, sys
        limit = int(sys.argv[1])
        def cap():
            if limit: resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        run = subprocess.run(sys.argv[2:], capture_output=True, preexec_fn=cap)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
        print(json.dumps([run.returncode, (run.stdout + run.stderr).decode(errors="replace"), peak]))
        """#
    let result = try runProcess(
        "/usr/bin/env", ["python3", "-c", script, String(addressSpaceLimit ?? 0), Fixtures.cli] + arguments)
    guard result.status == 0, let data = result.output.data(using: .utf8),
        let fields = try JSONSerialization.jsonObject(with: data) as? [Any], fields.count == 3,
        let status = fields[0] as? Int, let output = fields[1] as? String, let bytes = fields[2] as? Int
    else { throw FixtureMissing(path: "python3 resource (\(result.output))") }
    return (Int32(status), output, bytes)
}
