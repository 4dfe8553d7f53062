import Backdrop
import Foundation

/// When ``assertGolden(_:named:tolerance:record:recording:filePath:line:column:)`` writes a golden instead of only
/// comparing with it: the switch `BACKDROP_RECORD` sets, as swift-snapshot-testing's `SNAPSHOT_TESTING_RECORD` does.
public enum GoldenRecording: String, Sendable, CaseIterable {
    /// Never write: a missing golden fails (what CI wants: a golden nobody looked at must not appear there).
    case never
    /// Record goldens that do not exist yet (the default on a developer's machine).
    case missing
    /// Also re-record goldens the picture does not match.
    case failed
    /// Re-record every golden.
    case all

    /// The mode `environment` asks for: `BACKDROP_RECORD` when set, otherwise `never` when `CI` is set (to anything
    /// but `false` or `0`, as CI systems set it) and `missing` when it is not. An unknown value is an error naming
    /// it and the values it may take.
    public static func from(environment: [String: String]) throws(BackdropError) -> GoldenRecording {
        if let value = environment["BACKDROP_RECORD"] {
            guard let mode = GoldenRecording(rawValue: value) else {
                throw BackdropError(
                    .badOption,
                    "BACKDROP_RECORD '\(value)' is not one of \(allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return mode
        }
        let ci = environment["CI"].map { !$0.isEmpty && $0 != "false" && $0 != "0" } ?? false
        return ci ? .never : .missing
    }
}

/// What checking a picture against its golden found (``checkGolden(_:at:tolerance:recording:)``).
public enum GoldenVerdict: Sendable {
    /// Within the tolerance.
    case matched
    /// Outside it; the comparison says by how much.
    case mismatched(GoldenComparison)
    /// The golden was written (it was missing, or the mode re-records it); a test fails once saying so.
    case recorded
    /// There is no golden and the mode forbids recording one.
    case missing
}

/// Compares `image` with the golden PNG at `path` under `tolerance`, writing it as `recording` says (creating its
/// folder). The assertion's logic without its reporting, so that it can be tested and used by other test libraries.
public func checkGolden(
    _ image: RGBAImage<UInt8>, at path: String, tolerance: Tolerance, recording: GoldenRecording
) throws(BackdropError) -> (verdict: GoldenVerdict, golden: RGBAImage<UInt8>?) {
    func record() throws(BackdropError) {
        try? FileManager.default.createDirectory(
            atPath: PathComponents.folder(of: path), withIntermediateDirectories: true)
        try PNGEncoder().write(image, to: path)
    }
    guard FileManager.default.fileExists(atPath: path) else {
        guard recording != .never else { return (.missing, nil) }
        try record()
        return (.recorded, nil)
    }
    if recording == .all {
        try record()
        return (.recorded, nil)
    }
    let golden = try PNGDecoder().decodeFile(path)
    let comparison = try GoldenComparison(expected: golden, actual: image, tolerance: tolerance)
    if comparison.passed { return (.matched, golden) }
    if recording == .failed {
        try record()
        return (.recorded, golden)
    }
    return (.mismatched(comparison), golden)
}
