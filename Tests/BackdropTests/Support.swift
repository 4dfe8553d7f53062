import Backdrop
import Foundation
import Testing

/// Paths to the project and to `../shared`, which tests read and never skip: a missing file fails the test.
enum Fixtures {
    /// The package root (two folders above this file's folder).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared` beside the package root.
    static let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")

    static func sharedPath(_ relative: String) -> String { shared.appendingPathComponent(relative).path }

    /// Decodes a shared PNG, failing the test loudly if it is missing or unreadable.
    static func image(_ relative: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> RGBAImage<UInt8> {
        let path = sharedPath(relative)
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("missing fixture \(path): ../shared must sit beside the package root", sourceLocation: sourceLocation)
            throw FixtureMissing(path: path)
        }
        return try PNGDecoder().decodeFile(path)
    }

    /// The file names in a shared folder, sorted; fails loudly when the folder is missing.
    static func files(in relative: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let path = sharedPath(relative)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            Issue.record("missing fixture folder \(path): ../shared must sit beside the package root", sourceLocation: sourceLocation)
            throw FixtureMissing(path: path)
        }
        return names.sorted()
    }

    /// The built CLI, next to the test bundle in the build folder.
    static var cli: String {
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

    /// A fresh temporary directory for one test.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("backdrop-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

struct FixtureMissing: Error, CustomStringConvertible {
    let path: String
    var description: String { "missing fixture: \(path)" }
}

/// The result of running the CLI.
struct CLIResult {
    let status: Int32
    let standardOutput: String
    let standardError: String
}

/// Runs the built `backdrop` with `arguments`.
func runCLI(_ arguments: [String]) throws -> CLIResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Fixtures.cli)
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CLIResult(status: process.terminationStatus,
                     standardOutput: String(decoding: outData, as: UTF8.self),
                     standardError: String(decoding: errData, as: UTF8.self))
}

/// A deterministic pseudo-random picture (xorshift), with varied alpha when `alpha` is true.
func noiseImage(width: Int, height: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15, alpha: Bool = false) -> RGBAImage<UInt8> {
    var state = seed
    var samples = [UInt8]()
    samples.reserveCapacity(width * height * 4)
    for _ in 0..<(width * height) {
        for channel in 0..<4 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            samples.append(channel == 3 && !alpha ? 255 : UInt8(truncatingIfNeeded: state >> 32))
        }
    }
    return RGBAImage(width: width, height: height, samples: samples)
}

/// A small deterministic random number generator (SplitMix64), for tests that draw many inputs.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
