import BackdropImageIO
import Foundation

/// `summary.json` of a golden check: which suite and shard ran, and every case's result with its figures and
/// pictures (paths inside the report's folder). `backdrop merge-reports` reads the shards' and writes the merged
/// one in the same form, so a script reads either the same way.
public struct GoldenSummary: Codable, Sendable, Equatable {
    /// The form's version: a change that a reader of an older one would misread increments it.
    public static let formatVersion = 1

    /// Which run this is.
    public struct Suite: Codable, Sendable, Equatable {
        /// The manifest's path as given, and a digest of its bytes (FNV-1a, 64 bits: an identity, not a security
        /// check) that tells the shards of one manifest from another's.
        public var manifest: String
        public var manifestDigest: String
        /// The cases the whole suite has (after `--filter`), over all shards.
        public var caseCount: Int
        public var shard: Shard

        public init(manifest: String, manifestDigest: String, caseCount: Int, shard: Shard) {
            self.manifest = manifest
            self.manifestDigest = manifestDigest
            self.caseCount = caseCount
            self.shard = shard
        }

        /// The digest of a manifest's bytes.
        public static func digest(_ bytes: some Sequence<UInt8>) -> String {
            String(FNV1a.hash(bytes), radix: 16)
        }
    }

    /// `index` of `count` (from 1); 1 of 1 for an unsharded run or a merged report.
    public struct Shard: Codable, Sendable, Equatable {
        public var index: Int
        public var count: Int

        public init(index: Int, count: Int) {
            self.index = index
            self.count = count
        }
    }

    /// One case's result.
    public struct Case: Codable, Sendable, Equatable {
        /// Its position in the suite, from 0.
        public var index: Int
        public var name: String
        /// passed, failed, recorded or error.
        public var status: String
        public var message: String
        public var psnr: Double?
        public var maxDifference: Int?
        public var differingPixels: Int?
        public var pixelCount: Int?
        public var ssim: Double?
        public var seconds: Double
        /// The failure's pictures, inside the report's folder.
        public var actual: String?
        public var diff: String?
        public var threeUp: String?
        /// The golden picture as the failure compared it, inside the report's folder (for the review page).
        public var expected: String?
        /// The limits a failed case broke, as the tolerance words them ("PSNR ≥ 45.0 dB").
        public var failedLimits: [String]?
        /// The smallest rectangle `[x, y, w, h]` holding every pixel whose bytes differ, when the sizes agree.
        public var differingBox: [Int]?
        /// A budget or cost case's devices, each with its status, line and figures (``GoldenCheck/DeviceCost``).
        public var devices: [GoldenCheck.DeviceCost]?
        /// The cost golden a budget or cost case recorded, when it did.
        public var costGolden: String?

        /// `result` as the suite's case `index`.
        init(_ result: GoldenCheck.Result, index: Int) {
            self.index = index
            name = result.name
            switch result.outcome {
            case .passed(let comparison), .failed(let comparison):
                let passed = if case .passed = result.outcome { true } else { false }
                status = passed ? "passed" : "failed"
                message = comparison.summary
                let difference = comparison.difference
                psnr = difference.flatMap { $0.psnr.isFinite ? $0.psnr : nil }
                maxDifference = difference?.maxDifference
                differingPixels = difference?.differingPixels
                pixelCount = difference?.pixelCount
                ssim = comparison.ssim
                if !passed { failedLimits = comparison.failedLimits }
            case .recorded(let path):
                status = "recorded"
                message = "recorded \(path)"
            case .error(let message):
                status = "error"
                self.message = message
            case .cost(let cost):
                status = cost.status
                devices = cost.devices
                costGolden = cost.recorded
                let counts = ["passed", "failed", "recorded", "error"].compactMap { status in
                    let count = cost.devices.filter { $0.status == status }.count
                    return count == 0 ? nil : "\(count) \(status)"
                }
                message =
                    "\(Plural.count(cost.devices.count, "device")): \(counts.joined(separator: ", "))"
                    + (cost.recorded.map { "; recorded \($0)" } ?? "")
            }
            seconds = result.seconds
        }
    }

    public var formatVersion: Int
    public var suite: Suite
    public var passed: Int
    public var failed: Int
    public var errors: Int
    public var recorded: Int
    public var cases: [Case]

    /// The summary of `cases` of `suite`, counted.
    public init(suite: Suite, cases: [Case]) {
        formatVersion = Self.formatVersion
        self.suite = suite
        self.cases = cases
        func count(_ status: String) -> Int { cases.filter { $0.status == status }.count }
        passed = count("passed")
        failed = count("failed")
        errors = count("error")
        recorded = count("recorded")
    }

    /// The summary in `summary.json`'s form: sorted keys, two-space indents.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self) + "\n"
    }

    /// The summary in the file at `path`; a one-line error naming it when it cannot be read.
    public static func read(_ path: String) throws(BackdropError) -> GoldenSummary {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.bytes(of: path, limit: 64 << 20, what: "the summary")
        } catch {
            throw BackdropError(.badOption, error.message)  // a folder that is no shard's: usage, as for a manifest
        }
        let summary: GoldenSummary
        do {
            summary = try JSONDecoder().decode(GoldenSummary.self, from: Data(bytes))
        } catch {
            throw BackdropError(
                .badOption, "\(path): not a backdrop check summary.json (\(error.localizedDescription))")
        }
        if let problem = summary.problem {
            throw BackdropError(.badOption, "\(path): not a backdrop check summary.json (\(problem))")
        }
        return summary
    }

    /// The most cases a summary may hold, and its suite count: a manifest of at most 16 MB holds fewer.
    public static let maximumCases = 1_000_000

    /// What makes this summary one `backdrop check` cannot have written, or nil: a shard outside 1 ≤ index ≤ count
    /// ≤ 1000 (as `--shard` takes it), a case count outside 0…``maximumCases``, a case index outside the suite, a
    /// time that is negative or not finite. Every number another step computes with is checked here, as a
    /// manifest's are.
    public var problem: String? {
        let shard = suite.shard
        guard shard.count >= 1, shard.count <= 1000, shard.index >= 1, shard.index <= shard.count else {
            return "shard \(shard.index)/\(shard.count) is not i/n with 1 ≤ i ≤ n ≤ 1000"
        }
        guard suite.caseCount >= 0, suite.caseCount <= Self.maximumCases else {
            return "a case count of \(suite.caseCount), outside 0…\(Self.maximumCases)"
        }
        guard cases.count <= suite.caseCount else {
            return "\(Plural.count(cases.count, "case")) of a suite of \(suite.caseCount)"
        }
        for entry in cases {
            guard entry.index >= 0, entry.index < suite.caseCount else {
                return "case index \(entry.index), outside the suite's 0…\(suite.caseCount - 1)"
            }
            guard entry.seconds.isFinite, entry.seconds >= 0 else {
                return "case \(entry.index + 1) took \(entry.seconds) s"
            }
        }
        return nil
    }
}
