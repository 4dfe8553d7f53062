import BackdropImageIO
import Foundation

/// Reviewing what `backdrop check --output DIR` left: the failed cases with their figures and the limits they
/// broke, and accepting a case's actual picture as its new golden.
///
/// Accepting writes the golden exactly as `check --update failed` would, the same bytes at the same path, or under
/// another folder as `check --update-into` would; nothing else is written. Everything is checked before anything is
/// written: the folder must hold a `summary.json` that `check` wrote, the case must have failed, the manifest must
/// still be the one the check ran (its digest), and the case's picture must lie inside the folder.
///
/// Where the goldens go is the manifest's folder. A `summary.json` is not signed, and one from elsewhere (a CI
/// artifact) could name another suite's manifest of the same bytes, so the summary's word is taken only for a
/// manifest inside the working directory (through links); otherwise the manifest must be named by whoever accepts
/// (`manifest`, `review --manifest`), and then that file is the one used.
public struct GoldenReview: Sendable {
    /// One failed case.
    public struct Failure: Sendable, Equatable {
        /// The case's name in the report.
        public let name: String
        /// The figures and the tolerance, as `check` printed them.
        public let message: String
        /// The limits it broke ("PSNR ≥ 45.0 dB"; "sizes differ"); empty for a summary written before they were
        /// recorded.
        public let failedLimits: [String]
        public let psnr: Double?
        public let maxDifference: Int?
        public let differingPixels: Int?
        public let pixelCount: Int?
        public let ssim: Double?
        /// The actual picture, inside the folder.
        public let actual: String
        /// The smallest rectangle holding every pixel whose bytes differ.
        public let differingBox: PixelRect?
    }

    /// The folder `check --output` wrote.
    public let folder: String
    /// Its `summary.json`.
    public let summary: GoldenSummary
    /// The manifest named by whoever accepts, which accepting uses instead of the one the summary names; nil: the
    /// summary's, if it is a relative path inside the working directory.
    public let manifest: String?

    /// The review of `folder`, accepting beside `manifest` when given. Refuses (`.badOption`, one line) a folder
    /// without a `summary.json` that `backdrop check` wrote.
    public init(folder: String, manifest: String? = nil) throws(BackdropError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw BackdropError(.badOption, "\(folder): no such folder")
        }
        let path = folder + "/summary.json"
        guard FileManager.default.fileExists(atPath: path) else {
            throw BackdropError(
                .badOption, "\(folder): not a folder 'backdrop check --output' wrote (it has no summary.json)")
        }
        self.folder = folder
        self.manifest = manifest
        summary = try GoldenSummary.read(path)
    }

    /// The failed picture cases, in the suite's order.
    public var failures: [Failure] {
        summary.cases.filter { $0.status == "failed" && $0.actual != nil && $0.devices == nil }.map { entry in
            Failure(
                name: entry.name, message: entry.message, failedLimits: entry.failedLimits ?? [], psnr: entry.psnr,
                maxDifference: entry.maxDifference, differingPixels: entry.differingPixels,
                pixelCount: entry.pixelCount, ssim: entry.ssim, actual: entry.actual!,
                differingBox: entry.differingBox.flatMap {
                    $0.count == 4 ? PixelRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) : nil
                })
        }
    }

    /// The failed cost cases whose frame moved beyond their tolerance, in the suite's order: accepting one writes
    /// the cost golden `check --update failed` would (its moved devices re-recorded), kept in the folder as
    /// `actual.cost.json`. A case that only missed its budget has nothing to accept.
    public var costFailures: [String] {
        summary.cases.filter { $0.status == "failed" && $0.actual != nil && $0.devices != nil }.map(\.name)
    }

    /// Accepts the failed cases `names`: writes each one's actual picture (a cost case: its new cost golden) as its
    /// golden, over the golden, or under
    /// `into` at the golden's path relative to the manifest's folder (`check --update-into`); none is written unless
    /// all can be. Returns the paths written.
    @discardableResult
    public func accept(_ names: [String], into: String? = nil) throws(BackdropError) -> [String] {
        let plan = try planned(names, into: into)
        for step in plan {
            if let picture = step.picture {
                try GoldenCheck.record(picture, at: step.path)
            } else {
                try GoldenCheck.write(step.bytes, at: step.path)
            }
        }
        return plan.map(\.path)
    }

    /// Accepts every failed case (none written unless all can be); the paths written.
    @discardableResult
    public func acceptAll(into: String? = nil) throws(BackdropError) -> [String] {
        let names = failures.map(\.name) + costFailures
        guard !names.isEmpty else { throw BackdropError(.badOption, "\(folder): no case failed; nothing to accept") }
        return try accept(names, into: into)
    }

    /// The failed cases already accepted where this review writes (over the goldens, or under `into`): those whose
    /// golden at that path holds the same bytes as their actual picture in the folder, which are the bytes
    /// ``accept(_:into:)`` writes (both are the default PNG encoding of the same pixels). Nothing is recorded when a
    /// case is accepted: the goldens are the state, so a case accepted by the page, by `--accept`, or before a
    /// reload or a restart reads the same. Throws what ``accept(_:into:)`` throws for the manifest (unreadable, or
    /// changed since the check); a golden that cannot be read counts as not accepted.
    public func accepted(into: String? = nil) throws(BackdropError) -> [String] {
        func size(_ path: String) -> Int? { (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int }
        return try targets(failures.map(\.name) + costFailures, into: into).filter { target in
            guard let bytes = size(target.path), bytes == size(target.actual) else { return false }
            let golden = try? InputFile.bytes(of: target.path, limit: bytes, recorded: false)
            return golden != nil && golden == (try? InputFile.bytes(of: target.actual, limit: bytes, recorded: false))
        }.map(\.name)
    }

    /// For each case of `names`: the picture to write (or a cost golden's bytes) and where, every check made before
    /// any file is written.
    func planned(_ names: [String], into: String?) throws(BackdropError) -> [(
        path: String, picture: RGBAImage<UInt8>?, bytes: [UInt8]
    )] {
        var plan: [(path: String, picture: RGBAImage<UInt8>?, bytes: [UInt8])] = []
        for target in try targets(names, into: into) {
            let bytes = try InputFile.bytes(of: target.actual, recorded: false)
            if target.actual.hasSuffix(".cost.json") {
                do throws(BackdropError) {
                    _ = try CostGolden.read(target.actual)
                } catch {
                    throw BackdropError(.badOption, "\(target.actual): \(error.message)")
                }
                plan.append((target.path, nil, bytes))
            } else {
                plan.append((target.path, try PNGDecoder().decode(bytes, name: target.actual, as: UInt8.self), []))
            }
        }
        return plan
    }

    /// The manifest whose folder the goldens are written in: the one named (``manifest``), or the summary's when it
    /// lies inside the working directory.
    func manifestToWriteBeside() throws(BackdropError) -> String {
        if let manifest { return manifest }
        let recorded = summary.suite.manifest
        guard FileLocation.lies(recorded, inside: ".") else {
            throw BackdropError(
                .badOption,
                "\(folder)/summary.json names the manifest '\(recorded.escapingControlCharacters)', which is not "
                    + "inside the working directory: name it with --manifest to accept beside it")
        }
        return recorded
    }

    /// For each case of `names`: where its golden is written and its actual picture's path inside the folder. Checks
    /// that the manifest is the one the check ran, that each case failed and is named once, and that its picture
    /// lies inside the folder. A name given more than once counts once.
    func targets(_ names: [String], into: String?) throws(BackdropError) -> [(
        name: String, path: String, actual: String
    )] {
        let manifestPath = try manifestToWriteBeside()
        let manifest: GoldenManifest
        do {
            manifest = try GoldenManifest.read(manifestPath)
        } catch {
            throw BackdropError(
                .badOption, "\(manifestPath): the check's manifest cannot be read from here (\(error.message))")
        }
        guard manifest.digest == summary.suite.manifestDigest else {
            throw BackdropError(
                .badOption, "\(manifestPath) changed since the check wrote \(folder): run the check again")
        }
        let directory = PathComponents.folder(of: manifestPath)
        let manifestFolder = directory.isEmpty ? "." : directory
        // Each name once, in the order given (a name given twice is written once), and each looked up in a table:
        // an accept naming every case of a large suite costs one pass over the summary and the manifest.
        var seen = Set<String>()
        let distinctNames = names.filter { seen.insert($0).inserted }
        let entriesByName = Dictionary(grouping: summary.cases, by: \.name)
        let casesByName = Dictionary(grouping: manifest.cases, by: \.displayName)
        var targets: [(name: String, path: String, actual: String)] = []
        for name in distinctNames {
            let entries = entriesByName[name] ?? []
            guard let entry = entries.first else {
                throw BackdropError(.badOption, "\(folder): no case named '\(name.escapingControlCharacters)'")
            }
            if entry.devices != nil, entry.status == "failed", entry.actual == nil {
                throw BackdropError(
                    .badOption,
                    "case '\(name.escapingControlCharacters)' missed its budget: a budget is met by changing the scene, there is nothing to accept"
                )
            }
            guard entry.status == "failed", let actual = entry.actual else {
                throw BackdropError(
                    .badOption,
                    "case '\(name.escapingControlCharacters)' did not fail (\(entry.status)); only a failed case is accepted"
                )
            }
            let cases = casesByName[name] ?? []
            guard cases.count == 1, entries.count == 1 else {
                throw BackdropError(
                    .badOption, "\(manifestPath): \(cases.count) cases are named '\(name.escapingControlCharacters)'")
            }
            guard !actual.hasPrefix("/"), !actual.split(separator: "/").contains(".."),
                FileLocation.lies(folder + "/" + actual, inside: folder)
            else {
                throw BackdropError(.badOption, "\(folder)/summary.json: picture path '\(actual)' leaves its folder")
            }
            let golden =
                entry.devices == nil
                ? try GoldenManifest.path(cases[0].golden ?? "", in: manifestFolder, field: "golden")
                : try GoldenManifest.path(cases[0].costGolden ?? "", in: manifestFolder, field: "costGolden")
            targets.append(
                (
                    name, GoldenCheck.recordPath(golden: golden, manifestFolder: manifestFolder, into: into),
                    folder + "/" + actual
                ))
        }
        return targets
    }

    /// The smallest rectangle holding every pixel whose bytes differ, or nil when none does or the sizes differ.
    public static func differingBox(_ a: RGBAImage<UInt8>, _ b: RGBAImage<UInt8>) -> PixelRect? {
        guard a.size == b.size, !a.samples.isEmpty else { return nil }
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        a.samples.withUnsafeBytes { p in
            b.samples.withUnsafeBytes { q in
                for y in 0..<a.height {
                    let row = y * a.width * 4
                    if memcmp(p.baseAddress! + row, q.baseAddress! + row, a.width * 4) == 0 { continue }
                    for x in 0..<a.width
                    where p.load(fromByteOffset: row + 4 * x, as: UInt32.self)
                        != q.load(
                            fromByteOffset: row + 4 * x, as: UInt32.self)
                    {
                        minX = min(minX, x)
                        maxX = max(maxX, x)
                    }
                    minY = min(minY, y)
                    maxY = y
                }
            }
        }
        guard maxY >= 0 else { return nil }
        return PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// The review view's script and style sheet, for the report's folder.
    static func pageFiles() -> [(String, [UInt8])] {
        [("review.js", Array(GoldenReviewPage.script.utf8)), ("review.css", Array(GoldenReviewPage.styleSheet.utf8))]
    }
}
