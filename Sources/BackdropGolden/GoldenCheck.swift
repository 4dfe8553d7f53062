import BackdropImageIO
import BackdropRendering
import Foundation

/// Runs the cases of a ``GoldenManifest``: renders each and compares it with its golden picture, or records the
/// golden. It writes nothing but the goldens it is asked to record; ``GoldenArtifacts`` writes what a failure leaves
/// for review.
public struct GoldenCheck: Sendable {
    /// Which goldens to record instead of comparing.
    public enum Update: String, Sendable, CaseIterable {
        /// Only goldens that do not exist yet.
        case missing
        /// Goldens of cases that fail or are missing.
        case failed
        /// Every golden.
        case all
    }

    /// What happened to one case.
    public enum Outcome: Sendable {
        /// Within the tolerance.
        case passed(GoldenComparison)
        /// Outside it.
        case failed(GoldenComparison)
        /// The golden was (re-)recorded at `path`.
        case recorded(path: String)
        /// The case could not be run: a missing input or golden, a bad option.
        case error(String)
        /// A budget or cost case's devices, each passed, failed, recorded or an error.
        case cost(CostResult)

        /// Whether the case counts as a success.
        public var succeeded: Bool {
            switch self {
            case .passed, .recorded: return true
            case .failed, .error: return false
            case .cost(let result): return result.status == "passed" || result.status == "recorded"
            }
        }
    }

    /// One case's result: the outcome, and the pictures a reviewer looks at.
    public struct Result: Sendable {
        /// The case's name in reports.
        public let name: String
        public let outcome: Outcome
        /// The golden picture, when one was read.
        public let expected: RGBAImage<UInt8>?
        /// The rendering, when the case rendered.
        public let actual: RGBAImage<UInt8>?
        /// Seconds the case took.
        public let seconds: Double
    }

    /// The renderer used for every case.
    public var renderer: Renderer

    /// A checker rendering with `renderer`.
    public init(renderer: Renderer = Renderer()) {
        self.renderer = renderer
    }

    /// Runs one case; paths are relative to `folder`. A budget or cost case (``GoldenManifest/Case/isCostCase``)
    /// renders nothing: it prices its scene on each device (`runCost`). `update` says which goldens to record instead of comparing;
    /// with `recordInto` they are written under that folder at the golden's path relative to the manifest's folder
    /// (a CI job collects them as an artifact) instead of over the golden tree.
    public func run(
        _ testCase: GoldenManifest.Case, in folder: String, defaultTolerance: Tolerance?, update: Update? = nil,
        recordInto: String? = nil
    ) -> Result {
        let start = ContinuousClock.now
        func resolved(_ path: String, _ field: String) throws(BackdropError) -> String {
            try GoldenManifest.path(path, in: folder, field: field)
        }
        func result(_ outcome: Outcome, _ expected: RGBAImage<UInt8>? = nil, _ actual: RGBAImage<UInt8>? = nil)
            -> Result
        {
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            return Result(
                name: testCase.displayName, outcome: outcome, expected: expected, actual: actual, seconds: seconds)
        }
        if testCase.isCostCase {
            return result(.cost(runCost(testCase, in: folder, update: update, recordInto: recordInto)))
        }
        var rendered: RGBAImage<UInt8>?
        do throws(BackdropError) {
            let actual = try render(testCase, in: folder)
            rendered = actual
            let goldenPath = try resolved(testCase.golden ?? "", "golden")
            let recordPath = Self.recordPath(golden: goldenPath, manifestFolder: folder, into: recordInto)
            let exists = FileManager.default.fileExists(atPath: goldenPath)
            if update == .all || (!exists && update != nil) {
                try Self.record(actual, at: recordPath)
                return result(.recorded(path: recordPath), nil, actual)
            }
            guard exists else {
                return result(
                    .error("\(goldenPath): no golden picture (run with --update missing to record it)"), nil, actual)
            }
            // Not an input: `--update failed` may replace it (unless a case reads it as one).
            let golden = try PNGDecoder().decode(
                try InputFile.bytes(of: goldenPath, recorded: false), name: goldenPath, as: UInt8.self)
            let tolerance = testCase.tolerance ?? defaultTolerance ?? Tolerance()
            let comparison = try GoldenComparison(expected: golden, actual: actual, tolerance: tolerance)
            if comparison.passed { return result(.passed(comparison), golden, actual) }
            if update == .failed {
                try Self.record(actual, at: recordPath)
                return result(.recorded(path: recordPath), golden, actual)
            }
            return result(.failed(comparison), golden, actual)
        } catch {
            return result(.error(error.message), nil, rendered)
        }
    }

    /// Where a golden is recorded: over `golden` itself, or, with `into`, under that folder at the golden's path
    /// relative to `manifestFolder` (`--update-into`). `golden` is already resolved inside `manifestFolder`.
    static func recordPath(golden: String, manifestFolder: String, into: String?) -> String {
        into.map { $0 + "/" + golden.dropFirst(manifestFolder.count + 1) } ?? golden
    }

    /// Creates the folders a golden at `path` needs, when they are missing.
    static func makeGoldensFolder(of path: String) throws(BackdropError) {
        let folder = PathComponents.folder(of: path)
        if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw BackdropError(
                    .output, "\(folder): cannot create the goldens' folder (\(error.localizedDescription))")
            }
        }
    }

    /// Writes a golden, creating the folders it needs: a new suite's `--update missing` works before its goldens'
    /// folder exists. `path` is already confined to the manifest's folder (``GoldenManifest/path(_:in:field:)``).
    static func record(_ picture: RGBAImage<UInt8>, at path: String) throws(BackdropError) {
        try makeGoldensFolder(of: path)
        try PNGEncoder().write(picture, to: path)
    }

    /// Renders a case as `backdrop render` would with the same options: its request, its files inside `folder`.
    func render(_ testCase: GoldenManifest.Case, in folder: String) throws(BackdropError) -> RGBAImage<UInt8> {
        try testCase.checkKind()
        return try testCase.request.picture(files: testCase.inputFiles(manifestFolder: folder), renderer: renderer)
    }
}
