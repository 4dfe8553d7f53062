import ArgumentParser
import Backdrop
import Foundation

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Render every case of a golden manifest, compare each with its golden PNG, and report.",
        discussion: """
            A manifest is JSON: a default tolerance and a list of cases (input, golden, style, and optionally \
            frame, scale, quality, path, device, vibrancy, at, tolerance); paths are relative to the manifest. \
            See the README, "Golden manifests". Prints one line per case and a summary; writes NAME.diff.png beside \
            the golden of every case that fails. --update renders every case and records it as its golden.

            Exit codes: 0 every case passed (or was recorded) · 1 a case failed or could not run · 2 usage, or a \
            manifest that cannot be read.

            Examples:
              backdrop check goldens/manifest.json
              backdrop check goldens/manifest.json --update
            """
    )

    @Argument(help: ArgumentHelp("The manifest (JSON).", valueName: "manifest"))
    var manifest: String

    @Flag(help: "Re-record every golden picture from the current rendering.")
    var update = false

    @OptionGroup var threadOptions: ThreadOptions

    func run() throws {
        let parsed = try GoldenManifest.read(manifest)
        let folder =
            (manifest as NSString).deletingLastPathComponent.isEmpty
            ? "." : (manifest as NSString).deletingLastPathComponent
        let check = GoldenCheck(renderer: Renderer(parallelism: try threadOptions.resolve()))
        var passed = 0, failed = 0, errors = 0, recorded = 0
        for testCase in parsed.cases {
            let outcome = check.run(testCase, in: folder, defaultTolerance: parsed.tolerance, update: update)
            let name = testCase.displayName
            switch outcome {
            case .passed(let comparison):
                passed += 1
                print("ok        \(name): \(comparison.summary)")
            case .failed(let comparison, let diff):
                failed += 1
                print("FAIL      \(name): \(comparison.summary)\(diff.map { "; diff: \($0)" } ?? "")")
            case .recorded(let path):
                recorded += 1
                print("recorded  \(name): \(path)")
            case .error(let message):
                errors += 1
                print("ERROR     \(name): \(message)")
            }
        }
        var parts = ["\(parsed.cases.count) cases"]
        if update { parts.append("\(recorded) recorded") } else { parts.append("\(passed) passed") }
        parts.append("\(failed) failed")
        parts.append("\(errors) could not run")
        print(parts.joined(separator: ", "))
        if failed + errors > 0 { throw ExitCode(1) }
    }
}
