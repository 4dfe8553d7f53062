import ArgumentParser
import Backdrop
import Dispatch
import Foundation

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Render every case of a golden manifest, compare each with its golden PNG, and report.",
        discussion: """
            A manifest is JSON: a default tolerance and a list of cases (input, golden, style, and optionally \
            render's other options by their names: sigma, saturation, tint, tint-alpha, fallback-alpha, \
            vibrancy-blend, frame, scale, quality, path, device, vibrancy, at; and tolerance); paths are relative \
            to the manifest, inputs to its "root" folder (or --root DIR) when it names one. \
            See docs/golden-testing.md. Prints one line per case, in the manifest's order, and a summary.

            A case with "budget" ({"fps": 60, "devices": [...]}, or "ms"; "strict": true judges the slow end of \
            the prediction range) or "costGolden" (a JSON file of the predicted frame per device, recorded by \
            --update, compared within "costTolerance" per cent, default 5) prices its "scene" (or a full-screen \
            "style") on each device instead of rendering: one line per device, with the predicted fps and ms, \
            the budget, and the layer that costs most.

            Nothing is written inside the golden tree but by --update: missing records only goldens that do not \
            exist, failed also those of failing cases, all every golden. --output DIR writes, for every failing \
            case, the actual picture, the diff and a three-up picture (expected | actual | diff), and \
            DIR/index.html, DIR/junit.xml and DIR/summary.json for people and CI systems. A warning names golden \
            files in the manifest's folders that no case uses.

            --shard i/n runs the i-th of n shares of the cases (for a CI matrix), balanced by predicted cost \
            (pixels × passes), every case in exactly one shard; 'backdrop merge-reports' joins the shards' --output \
            folders into one report. --update-into DIR writes recorded goldens under DIR instead of over the \
            golden tree. Each case's line ends with the seconds it took, and the summary gives their total and the \
            slowest case. On a terminal a progress bar shows on standard error; -q prints only the cases that did \
            not pass and the summary.

            Exit codes: 0 every case passed (or was recorded) · 1 a case was outside its tolerance · 2 a case \
            could not run (a missing input or golden, an unreadable picture), or usage, or a manifest that cannot \
            be read. --update creates the folders its goldens need.

            Examples:
              backdrop check goldens/manifest.json
              backdrop check goldens/manifest.json --output check-results --jobs 2
              backdrop check goldens/manifest.json --update missing
              backdrop check goldens/manifest.json --filter 'coffee-*'
              backdrop check goldens/manifest.json --shard 2/3 --output shard-2
            """ + OutputGlossary.comparison
    )

    @Argument(help: ArgumentHelp("The manifest (JSON).", valueName: "manifest"))
    var manifest: String

    @Option(help: ArgumentHelp("Record goldens instead of comparing: missing, failed or all.", valueName: "which"))
    var update: GoldenCheck.Update?

    @Option(
        help: ArgumentHelp(
            "Run only the cases whose name matches this pattern (* and ? as in a shell).", valueName: "pattern"))
    var filter: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Cases run at once (default 1); results are printed in the manifest's order.", valueName: "n"))
    var jobs: Int = 1

    @Option(
        help: ArgumentHelp(
            "Write the failures' pictures, index.html, junit.xml and summary.json into this folder.", valueName: "dir"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Run the i-th of n shares of the cases, e.g. --shard 2/3 (for a CI matrix).", valueName: "i/n"))
    var shard: String?

    @Option(
        name: .customLong("update-into"),
        help: ArgumentHelp(
            "With --update: write the recorded goldens under this folder, at their paths in the manifest, not over them.",
            valueName: "dir"))
    var updateInto: String?

    @Flag(name: .shortAndLong, help: "Print only the cases that did not pass, and the summary.")
    var quiet = false

    @Option(
        help: ArgumentHelp(
            "Read the cases' inputs from this folder instead of the manifest's \"root\" (goldens stay beside the manifest).",
            valueName: "dir"))
    var root: String?

    @OptionGroup var threadOptions: ThreadOptions

    func run() throws {
        guard (1...64).contains(jobs) else { throw BackdropError(.badOption, "--jobs \(jobs) is out of range (1…64)") }
        let parsed = try GoldenManifest.read(manifest, root: root)
        let directory = PathComponents.folder(of: manifest)
        let folder = directory.isEmpty ? "." : directory
        if let output {
            // The review pictures must not mix with the goldens: not in a goldens' folder, nor around one.
            let goldenFolders = Set(
                parsed.cases.compactMap { $0.golden ?? $0.costGolden }.compactMap {
                    try? GoldenManifest.path($0, in: folder, field: "golden")
                }
                .map { PathComponents.folder(of: $0) })
            if let clash = goldenFolders.sorted().first(where: {
                FileLocation.lies(output, inside: $0) || FileLocation.lies($0, inside: output)
            }) {
                throw BackdropError(
                    .badOption, "--output \(output): overlaps the goldens' folder \(clash); give a folder apart from it"
                )
            }
        }
        var cases = parsed.cases
        if let filter {
            cases = cases.filter { fnmatch(filter, $0.displayName, 0) == 0 }
            guard !cases.isEmpty else { throw BackdropError(.badOption, "--filter '\(filter)' matches no case") }
        }
        if updateInto != nil, update == nil { throw BackdropError(.badOption, "--update-into goes with --update") }
        var suite = GoldenSummary.Suite(
            manifest: manifest, manifestDigest: parsed.digest, caseCount: cases.count, shard: .init(index: 1, count: 1))
        var indices = Array(cases.indices)
        if let shard {
            let (index, count) = try GoldenShards.parse(shard)
            let assignment = GoldenShards.assign(cases, in: folder, shards: count)
            indices = indices.filter { assignment[$0] == index - 1 }
            cases = indices.map { cases[$0] }
            suite.shard = .init(index: index, count: count)
        }
        var parallelism = try threadOptions.resolve()
        if jobs > 1 { parallelism.threads = 1 }  // the cases share the cores
        let check = GoldenCheck(renderer: Renderer(parallelism: parallelism))
        let chosen = cases
        let results = ResultSlots(count: chosen.count, progress: !quiet && isatty(STDERR_FILENO) == 1)
        let recordInto = updateInto
        DispatchQueue.concurrentPerform(iterations: jobs) { worker in
            for index in stride(from: worker, to: chosen.count, by: jobs) {
                results.store(
                    check.run(
                        chosen[index], in: folder, defaultTolerance: parsed.tolerance, update: update,
                        recordInto: recordInto), at: index)
            }
        }
        results.finish()
        var counts = (passed: 0, failed: 0, errors: 0, recorded: 0)
        let finished = results.all
        for result in finished {
            let time = String(format: "  [%.3f s]", result.seconds)
            switch result.outcome {
            case .passed(let comparison):
                counts.passed += 1
                if !quiet { print("ok        \(result.name.escapingControlCharacters): \(comparison.summary)\(time)") }
            case .failed(let comparison):
                counts.failed += 1
                print("FAIL      \(result.name.escapingControlCharacters): \(comparison.summary)\(time)")
            case .recorded(let path):
                counts.recorded += 1
                if !quiet { print("recorded  \(result.name.escapingControlCharacters): \(path)\(time)") }
            case .error(let message):
                counts.errors += 1
                print("ERROR     \(result.name.escapingControlCharacters): \(message)\(time)")
            case .cost(let cost):
                switch cost.status {
                case "passed": counts.passed += 1
                case "failed": counts.failed += 1
                case "recorded": counts.recorded += 1
                default: counts.errors += 1
                }
                for device in cost.devices where !quiet || device.status == "failed" || device.status == "error" {
                    let label = ["passed": "ok", "failed": "FAIL", "recorded": "recorded"][device.status] ?? "ERROR"
                    let padded = label.padding(toLength: 10, withPad: " ", startingAt: 0)
                    print(
                        "\(padded)\(result.name.escapingControlCharacters) [\(device.device)]: \(device.message.escapingControlCharacters)\(time)"
                    )
                }
            }
        }
        if let output { try writeArtifacts(finished, indices: indices, suite: suite, to: output) }
        warnAboutUnusedGoldens(parsed, folder: folder)
        var parts = [
            suite.shard.count > 1
                ? "\(Plural.count(finished.count, "case")) (shard \(suite.shard.index)/\(suite.shard.count) of \(suite.caseCount))"
                : Plural.count(finished.count, "case"), "\(counts.passed) passed", "\(counts.failed) failed",
            "\(counts.errors) could not run",
        ]
        if counts.recorded > 0 || update != nil { parts.append("\(counts.recorded) recorded") }
        if let slowest = finished.max(by: { $0.seconds < $1.seconds }) {
            let total = String(format: "%.3f", finished.reduce(0) { $0 + $1.seconds })
            parts.append(
                "\(total) s of cases (slowest: \(slowest.name.escapingControlCharacters), "
                    + String(format: "%.3f s)", slowest.seconds))
        }
        print(parts.joined(separator: ", "))
        // One rule for every command: 2 when something could not be used, 1 when a comparison was outside its
        // tolerance; an unusable case outranks a failed one (the suite's verdict is incomplete).
        if counts.errors > 0 { throw ExitCode(2) }
        if counts.failed > 0 { throw ExitCode(1) }
    }

    /// The artifacts, each file written atomically, into `folder` (created if missing).
    func writeArtifacts(
        _ results: [GoldenCheck.Result], indices: [Int], suite: GoldenSummary.Suite, to folder: String
    ) throws {
        let files = try GoldenArtifacts.files(for: results, indices: indices, suite: suite, outputFolder: folder)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (path, _) in files where path.contains("/") {
                try FileManager.default.createDirectory(
                    atPath: folder + "/" + PathComponents.folder(of: path),
                    withIntermediateDirectories: true)
            }
        } catch {
            throw BackdropError(.output, "\(folder): cannot create the folder (\(error.localizedDescription))")
        }
        for (path, bytes) in files { try AtomicFile.write(bytes, to: folder + "/" + path) }
        print("wrote \(folder)/index.html, junit.xml, summary.json and summary.md")
    }

    /// A warning (standard error) naming the PNG files in the goldens' folders that no case of the manifest uses.
    func warnAboutUnusedGoldens(_ parsed: GoldenManifest, folder: String) {
        func resolved(_ path: String) -> String {
            (try? GoldenManifest.path(path, in: folder, field: "")) ?? path
        }
        let used = Set(
            parsed.cases.compactMap { $0.golden.map(resolved) }
                + parsed.cases.compactMap { $0.request.input.map(resolved) }
                + parsed.cases.compactMap { $0.request.vibrancy.map(resolved) })
        let folders = Set(parsed.cases.compactMap { $0.golden.map { PathComponents.folder(of: resolved($0)) } })
        var unused: [String] = []
        for directory in folders.sorted() {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for name in names.sorted() where name.hasSuffix(".png") && !used.contains(directory + "/" + name) {
                unused.append(directory + "/" + name)
            }
        }
        if !unused.isEmpty {
            FileHandle.standardError.write(
                Data("backdrop: warning: golden files no case uses: \(unused.joined(separator: ", "))\n".utf8))
        }
    }
}

extension GoldenCheck.Update: RawValueChoices {}

/// Results stored by concurrent workers at their cases' indices, read once all are done.
final class ResultSlots: @unchecked Sendable {
    private var slots: [GoldenCheck.Result?]
    private let lock = NSLock()
    /// Whether a progress bar is drawn on standard error as cases finish.
    private let progress: Bool
    private var done = 0

    init(count: Int, progress: Bool = false) {
        slots = Array(repeating: nil, count: count)
        self.progress = progress
    }

    func store(_ result: GoldenCheck.Result, at index: Int) {
        lock.lock()
        slots[index] = result
        done += 1
        if progress {
            Progress.draw(done: done, total: slots.count, label: "\(done)/\(Plural.count(slots.count, "case"))")
        }
        lock.unlock()
    }

    /// Clears the progress bar's line.
    func finish() {
        if progress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }

    var all: [GoldenCheck.Result] { slots.compactMap { $0 } }
}
