import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// Issue 65 item 4: `Integrations/GitHubActions/backdrop-check.yml` checks a suite of pictures and budgets and
/// publishes its JUnit results and report. Its `run:` steps are run here as the workflow runs them (bash, `-e`, in
/// the checkout, with the job's `env`), on the example suite beside it, with the programs under test in place of
/// the install step; the paths its publishing steps read must then exist.
@Suite("The GitHub Actions example")
struct GitHubActionsExampleTests {
    struct Step {
        var name = ""
        var run: String?
        var paths: [String] = []
    }

    static let folder = Fixtures.packageRoot.appendingPathComponent("Integrations/GitHubActions")

    /// The job's `env` and its steps (name, `run` block, and the `path`/`report_paths` they publish), read from the
    /// workflow's lines: enough YAML for this file, which the test keeps to that shape.
    static func workflow() throws -> (env: [String: String], steps: [Step]) {
        let text = try String(contentsOf: folder.appendingPathComponent("backdrop-check.yml"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func indent(_ line: String) -> Int { line.prefix { $0 == " " }.count }
        var env: [String: String] = [:]
        var steps: [Step] = []
        var index = 0
        var inEnv = false, envIndent = 0
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "env:" {
                inEnv = true
                envIndent = indent(line)
            } else if inEnv, !trimmed.isEmpty, indent(line) > envIndent, let colon = trimmed.firstIndex(of: ":") {
                env[String(trimmed[..<colon])] = trimmed[trimmed.index(after: colon)...]
                    .trimmingCharacters(in: .whitespaces)
            } else if !trimmed.isEmpty {
                inEnv = false
            }
            if trimmed.hasPrefix("- ") { steps.append(Step()) }
            let field = trimmed.hasPrefix("- ") ? String(trimmed.dropFirst(2)) : trimmed
            if field.hasPrefix("name: "), !steps.isEmpty { steps[steps.count - 1].name = String(field.dropFirst(6)) }
            for key in ["path: ", "report_paths: "] where field.hasPrefix(key) && !steps.isEmpty {
                steps[steps.count - 1].paths.append(String(field.dropFirst(key.count)))
            }
            if field == "run: |", !steps.isEmpty {
                var block: [String] = []
                let base = indent(line)
                index += 1
                while index < lines.count,
                    lines[index].trimmingCharacters(in: .whitespaces).isEmpty
                        || indent(lines[index]) > base
                {
                    block.append(lines[index].trimmingCharacters(in: .whitespaces))
                    index += 1
                }
                steps[steps.count - 1].run = block.joined(separator: "\n")
                continue
            }
            index += 1
        }
        return (env, steps)
    }

    /// Runs the workflow's steps after the install in a copy of the example suite (`change` applied to its scene
    /// first); the status of the check step and the folder.
    func runSteps(changingScene change: (String) -> String = { $0 }) throws -> (CheckResult, URL) {
        let (env, steps) = try Self.workflow()
        let checkout = try Fixtures.temporaryDirectory().appendingPathComponent("checkout")
        try FileManager.default.createDirectory(
            at: checkout.appendingPathComponent("goldens"), withIntermediateDirectories: true)
        for name in ["manifest.json", "scene.json"] {
            var text = try String(
                contentsOf: Self.folder.appendingPathComponent("example/\(name)"), encoding: .utf8)
            if name == "scene.json" { text = change(text) }
            try Data(text.utf8).write(to: checkout.appendingPathComponent("goldens/\(name)"))
        }
        let golden = Self.folder.appendingPathComponent("example/goldens/feed.cost.json")
        try FileManager.default.createDirectory(
            at: checkout.appendingPathComponent("goldens/goldens"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: golden, to: checkout.appendingPathComponent("goldens/goldens/feed.cost.json"))
        let bin = URL(fileURLWithPath: Fixtures.cli).deletingLastPathComponent().path
        var environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
        environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        var result = CheckResult(status: 0, output: "", steps: [])
        for step in steps {
            guard let run = step.run else { continue }
            result.steps.append(step.name)
            if step.name == "Install Backdrop" { continue }  // the programs under test are on the PATH instead
            let ran = try runProcess("/bin/bash", ["-e", "-c", run], in: checkout, environment: environment)
            result.status = ran.status
            result.output += ran.output
        }
        // What the publishing steps read exists, pass or fail (they run `if: always()`).
        for path in steps.flatMap(\.paths) {
            #expect(
                FileManager.default.fileExists(atPath: checkout.appendingPathComponent(path).path),
                "\(path) is missing")
        }
        return (result, checkout)
    }

    struct CheckResult {
        var status: Int32
        var output: String
        var steps: [String]
    }

    @Test func theWorkflowChecksTheExampleSuiteAndPublishesItsReport() throws {
        let (result, checkout) = try runSteps()
        #expect(result.steps == ["Install Backdrop", "Check the pictures and the budgets"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("2 cases, 2 passed, 0 failed"), "\(result.output)")
        let junit = try String(contentsOf: checkout.appendingPathComponent("check-results/junit.xml"), encoding: .utf8)
        #expect(junit.contains("<testcase") && !junit.contains("<failure"), "\(junit)")
        #expect(
            FileManager.default.fileExists(atPath: checkout.appendingPathComponent("check-results/index.html").path))
    }

    /// Shadows without a path on every card: the feed misses its budget on the iPhone 6 and keeps it on the iPhone
    /// 17 Pro, and its cost golden moves; the job fails with those lines, the report still written.
    @Test func aSceneChangeThatMissesTheBudgetFailsTheJob() throws {
        let (result, checkout) = try runSteps { scene in
            scene.replacingOccurrences(
                of: #""scrolls": true,"#,
                with: #""scrolls": true, "shadow": { "radius": 6, "offset": [0, 3], "opacity": 0.4 },"#)
        }
        #expect(result.status == 1, "\(result.output)")
        let failing = result.output.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
        #expect(failing.contains { $0.contains("feed on the oldest and newest [iphone-6]") }, "\(result.output)")
        #expect(!failing.contains { $0.contains("[iphone-17-pro]") }, "\(result.output)")
        #expect(failing.contains { $0.contains("feed cost [iphone-11]") }, "\(result.output)")
        let junit = try String(contentsOf: checkout.appendingPathComponent("check-results/junit.xml"), encoding: .utf8)
        #expect(junit.contains("<failure"))
    }
}
