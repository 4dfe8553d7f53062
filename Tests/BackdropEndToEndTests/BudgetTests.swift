import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// Frame budgets and cost goldens in golden manifests (issue 65). Only today's device ids are used; the figures the
/// expectations compare are computed here from the estimator, so a refit of the model moves both sides.
@Suite("Frame budgets and cost goldens")
struct BudgetTests {
    /// A feed: six cells whose thumbnails have a shadow, with a path (`path: true`: cheap) or without (an offscreen
    /// pass each), under a light blur bar.
    static func feed(shadowPath: Bool) -> String {
        """
        { "name": "feed", "redraw": "scrolling", "layers": [
            { "name": "background", "frame": [0, 0, 320, 568], "content": "solid", "opaque": true },
            { "name": "cell", "frame": [0, 64, 320, 100], "content": "solid", "opaque": true,
              "repeat": { "count": 6, "dx": 0, "dy": 100 },
              "sublayers": [
                { "name": "thumbnail", "frame": [10, 10, 80, 80], "content": "image", "opaque": true,
                  "shadow": { "radius": 4, "offset": [0, 3], "opacity": 0.5, "path": \(shadowPath) } },
                { "name": "title", "frame": [100, 25, 200, 20], "content": "text" } ] },
            { "name": "bar", "frame": [0, 0, 320, 64], "effect": { "blur": "light" } } ] }
        """
    }

    /// A folder holding `manifest` as m.json and the feed scene as feed.json.
    func suite(_ manifest: String, shadowPath: Bool = true) throws -> URL {
        let directory = try Fixtures.temporaryDirectory()
        try Data(manifest.utf8).write(to: directory.appendingPathComponent("m.json"))
        try Data(Self.feed(shadowPath: shadowPath).utf8).write(to: directory.appendingPathComponent("feed.json"))
        return directory
    }

    func frameMs(_ scene: String, _ device: String) throws -> Double {
        let loaded = try BuiltInScenes.named(scene) ?? SceneParser.parse(fileAt: scene)
        return try Estimator().estimate(scene: loaded, device: Device.lookup(device)).tableFrame.totalMs
    }

    func lines(_ output: String, _ prefix: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { $0.hasPrefix(prefix) }
    }

    @Test func aBudgetFailsOnExactlyTheDevicesWhoseFrameMissesIt() throws {
        // contacts-table-masks: under 16.7 ms on the iPhone 5, far over it on the iPad Air's four times the pixels.
        #expect(try frameMs("contacts-table-masks", "iphone-5") < 1000.0 / 60)
        #expect(try frameMs("contacts-table-masks", "ipad-air") > 1000.0 / 60)
        let directory = try suite(
            #"{ "cases": [ { "name": "masks", "scene": "contacts-table-masks", "budget": { "fps": 60, "devices": ["iphone-5", "ipad-air"] } } ] }"#
        )
        let result = try runCLI(["check", directory.appendingPathComponent("m.json").path])
        #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
        let failing = lines(result.standardOutput, "FAIL")
        #expect(failing.count == 1, "\(result.standardOutput)")
        let line = try #require(failing.first)
        let ms = try frameMs("contacts-table-masks", "ipad-air")
        #expect(line.hasPrefix("FAIL      masks [ipad-air]: "), "\(line)")
        #expect(
            line.contains(String(format: "%.0f fps (", 1000 / ms)) && line.contains(String(format: ", %.1f ms (", ms)))
        #expect(line.contains("misses the budget 60 fps (16.7 ms) by " + String(format: "%.1f ms", ms - 1000.0 / 60)))
        #expect(line.contains("costliest layer: thumbnail ("), "\(line)")
        #expect(lines(result.standardOutput, "ok        masks [iphone-5]: ").count == 1, "\(result.standardOutput)")
        #expect(result.standardOutput.contains("1 case, 0 passed, 1 failed"), "\(result.standardOutput)")
        // -q prints only the failing device.
        let quiet = try runCLI(["check", "-q", directory.appendingPathComponent("m.json").path])
        #expect(!quiet.standardOutput.contains("[iphone-5]") && quiet.standardOutput.contains("[ipad-air]"))
    }

    /// A budget's devices may be a filter's terms (issue 65 item 1, "a device class"): a line per device selected.
    @Test func aBudgetOverADeviceClassHasALinePerDevice() throws {
        let directory = try suite(
            #"{ "cases": [ { "name": "masks", "scene": "contacts-table-masks", "budget": { "fps": 60, "devices": ["ipod", "2013"] } } ] }"#
        )
        let result = try runCLI(["check", directory.appendingPathComponent("m.json").path])
        let selected = try DeviceSelection.select(["ipod,2013"]).map(\.id)
        #expect(selected.count > 2)
        let printed = result.standardOutput.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("masks ["), let open = line.firstIndex(of: "["), let close = line.firstIndex(of: "]")
            else { return nil }
            return String(line[line.index(after: open)..<close])
        }
        #expect(printed == selected, "\(result.standardOutput)")
        let bad = try suite(
            #"{ "cases": [ { "name": "masks", "scene": "contacts-table-masks", "budget": { "fps": 60, "devices": ["2030+"] } } ] }"#
        )
        let refused = try runCLI(["check", bad.appendingPathComponent("m.json").path])
        #expect(refused.status == 2, "\(refused.standardError)")
        #expect(
            refused.standardError.contains("budget.devices: '2030+': '2030+' is outside the table's years"),
            "\(refused.standardError)")
        #expect(!refused.standardError.contains("--devices"))
    }

    @Test func aBudgetInMillisecondsAndAStyleCaseAreJudgedByTheirOwnFigures() throws {
        let ms = try Estimator().estimate(
            scene: Estimator.effectViewScene(
                style: .light, vibrancy: false, view: Device.lookup("ipad-3").screen, on: Device.lookup("ipad-3")),
            device: Device.lookup("ipad-3")
        ).tableFrame.totalMs
        let under = String(format: "%.3f", ms - 0.05), over = String(format: "%.3f", ms + 0.05)
        let directory = try suite(
            #"{ "cases": [ { "name": "tight", "style": "light", "budget": { "ms": \#(under), "devices": ["ipad-3"] } },"#
                + #"{ "name": "roomy", "style": "light", "budget": { "ms": \#(over), "devices": ["ipad-3"] } } ] }"#)
        let result = try runCLI(["check", directory.appendingPathComponent("m.json").path])
        #expect(result.status == 1)
        #expect(lines(result.standardOutput, "FAIL      tight [ipad-3]: ").count == 1, "\(result.standardOutput)")
        #expect(lines(result.standardOutput, "ok        roomy [ipad-3]: ").count == 1, "\(result.standardOutput)")
        #expect(result.standardOutput.contains("costliest layer: effect view"))
    }

    @Test func strictJudgesTheSlowEndOfTheRange() throws {
        let frame = try Estimator().estimate(
            scene: #require(BuiltInScenes.named("contacts-table-masks")), device: Device.lookup("iphone-5")
        ).tableFrame
        let high = frame.ranges().totalMs[1]
        // A budget between the central prediction and the slow end: met, unless strict.
        let budget = String(format: "%.3f", (frame.totalMs + high) / 2)
        for strict in [false, true] {
            let directory = try suite(
                #"{ "cases": [ { "name": "masks", "scene": "contacts-table-masks", "budget": { "ms": \#(budget), "devices": ["iphone-5"], "strict": \#(strict) } } ] }"#
            )
            let result = try runCLI(["check", directory.appendingPathComponent("m.json").path])
            #expect(result.status == (strict ? 1 : 0), "\(result.standardOutput)")
            if strict {
                #expect(result.standardOutput.contains(String(format: "judged at its slow end %.1f ms", high)))
            }
        }
    }

    @Test func aCostGoldenIsRecordedThenASceneChangeBeyondTheToleranceFailsNamingWhatMoved() throws {
        let directory = try suite(
            #"{ "cases": [ { "name": "feed", "scene": "feed.json", "devices": ["iphone-5", "ipad-air"], "costGolden": "goldens/feed.cost.json" } ] }"#
        )
        let manifest = directory.appendingPathComponent("m.json").path
        let golden = directory.appendingPathComponent("goldens/feed.cost.json").path
        let missing = try runCLI(["check", manifest])
        #expect(missing.status == 2 && missing.standardOutput.contains("--update missing"), "\(missing.standardOutput)")
        let record = try runCLI(["check", manifest, "--update", "missing"])
        #expect(record.status == 0, "\(record.standardOutput)\(record.standardError)")
        #expect(lines(record.standardOutput, "recorded  feed [").count == 2, "\(record.standardOutput)")
        let recorded = try CostGolden.read(golden)
        #expect(recorded.devices.map(\.device) == ["iphone-5", "ipad-air"])
        #expect(recorded.devices.allSatisfy { $0.model == CostGolden.modelVersion && !$0.passes.isEmpty })
        let bytes = try Data(contentsOf: URL(fileURLWithPath: golden))
        // Unchanged: passes, and the golden is not rewritten (same bytes after --update missing).
        let again = try runCLI(["check", manifest, "--update", "missing"])
        #expect(again.status == 0 && again.standardOutput.contains("as recorded"), "\(again.standardOutput)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: golden)) == bytes)
        // The shadows lose their path: every device's frame moves far beyond 5 %.
        try Data(Self.feed(shadowPath: false).utf8).write(to: directory.appendingPathComponent("feed.json"))
        let changed = try runCLI(["check", manifest])
        #expect(changed.status == 1, "\(changed.standardOutput)")
        let failing = lines(changed.standardOutput, "FAIL      feed [")
        #expect(failing.count == 2, "\(changed.standardOutput)")
        let before = try #require(recorded.entry(for: "iphone-5")).ms
        let after = try frameMs(directory.appendingPathComponent("feed.json").path, "iphone-5")
        let line = try #require(failing.first)
        #expect(line.contains(String(format: "cost %.2f → %.2f ms", before, after)), "\(line)")
        #expect(line.contains("tolerance 5 %") && line.contains("the scene changed (its passes differ)"), "\(line)")
        #expect(!line.contains("cost model changed"), "\(line)")
        #expect(line.contains("passes moved: thumbnail shadow"), "\(line)")
        // A tolerance wide enough accepts the change.
        try Data(
            #"{ "cases": [ { "name": "feed", "scene": "feed.json", "devices": ["iphone-5", "ipad-air"], "costGolden": "goldens/feed.cost.json", "costTolerance": 100000 } ] }"#
                .utf8
        ).write(to: URL(fileURLWithPath: manifest))
        #expect(try runCLI(["check", manifest]).status == 0)
        // --update failed re-records it; then it passes at the default tolerance.
        try Data(
            #"{ "cases": [ { "name": "feed", "scene": "feed.json", "devices": ["iphone-5", "ipad-air"], "costGolden": "goldens/feed.cost.json" } ] }"#
                .utf8
        ).write(to: URL(fileURLWithPath: manifest))
        let update = try runCLI(["check", manifest, "--update", "failed"])
        #expect(update.status == 0 && update.standardOutput.contains("re-recorded cost"), "\(update.standardOutput)")
        #expect(try runCLI(["check", manifest]).status == 0)
    }

    @Test func aModelChangeIsToldApartFromASceneChange() throws {
        let directory = try suite(
            #"{ "cases": [ { "name": "nav", "scene": "navbar-tabbar-blur", "device": "iphone-5", "costGolden": "g/nav.cost.json" } ] }"#
        )
        let manifest = directory.appendingPathComponent("m.json").path
        #expect(try runCLI(["check", manifest, "--update", "missing"]).status == 0)
        // As if recorded by another model: another version, every pass 20 % cheaper.
        let path = directory.appendingPathComponent("g/nav.cost.json").path
        var golden = try CostGolden.read(path)
        golden.devices[0].model = "0123456789abcdef"
        golden.devices[0].ms *= 0.8
        for index in golden.devices[0].passes.indices { golden.devices[0].passes[index].ms *= 0.8 }
        try Data(golden.json()).write(to: URL(fileURLWithPath: path))
        let result = try runCLI(["check", manifest])
        #expect(result.status == 1, "\(result.standardOutput)")
        #expect(
            result.standardOutput.contains(
                "the cost model changed (version 0123456789abcdef → \(CostGolden.modelVersion))"),
            "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("the scene changed"), "\(result.standardOutput)")
    }

    @Test func badInputIsOneLineNamingTheCaseAndKeyBeforeAnyCaseRuns() throws {
        let scene = #""scene": "navbar-tabbar-blur""#
        let cases: [(String, String)] = [
            (
                #"{\#(scene), "budget": { "fps": 60, "devices": ["iphone-99"] } }"#,
                "case 1: budget.devices: unknown device 'iphone-99'"
            ),
            (
                #"{\#(scene), "budget": { "fps": 0, "devices": ["iphone-5"] } }"#,
                "case 1: budget.fps 0: give a frame rate above 0"
            ),
            (#"{\#(scene), "budget": { "fps": -30, "devices": ["iphone-5"] } }"#, "case 1: budget.fps -30:"),
            (#"{\#(scene), "budget": { "ms": 0, "devices": ["iphone-5"] } }"#, "case 1: budget.ms 0:"),
            (
                #"{\#(scene), "budget": { "ms": 12, "fps": 60, "devices": ["iphone-5"] } }"#,
                "case 1: budget: give 'fps' or 'ms'"
            ),
            (#"{\#(scene), "budget": { "fps": 60, "devices": [] } }"#, "case 1: budget.devices is empty"),
            (
                #"{\#(scene), "budget": { "fps": 60, "devices": ["iphone-5"], "stric": true } }"#,
                "unknown key 'cases[1].budget.stric'"
            ),
            (
                #"{ "style": "lihgt", "budget": { "fps": 60, "devices": ["iphone-5"] } }"#,
                "case 1: style: unknown style 'lihgt'"
            ),
            (
                #"{\#(scene), "devices": ["ipad-99"], "costGolden": "c.json" }"#,
                "case 1: devices: unknown device 'ipad-99'"
            ),
            (
                #"{\#(scene), "device": "iphone-5", "costGolden": "c.json", "costTolerance": -1 }"#,
                "case 1: costTolerance -1: give a per cent of 0 or more"
            ),
            (
                #"{\#(scene), "device": "iphone-5", "costGolden": "not-cost.json" }"#,
                "case 1: costGolden 'not-cost.json': not a cost golden"
            ),
            (#"{\#(scene), "costGolden": "c.json" }"#, "case 1: costGolden needs 'device' or 'devices'"),
            (
                #"{\#(scene), "golden": "p.png", "budget": { "fps": 60, "devices": ["iphone-5"] } }"#,
                "case 1: 'golden' is a picture"
            ),
        ]
        for (entry, expected) in cases {
            // Case 0 is whole and would be recorded if any case ran: nothing may be written.
            let directory = try suite(
                #"{ "cases": [ { "scene": "navbar-tabbar-blur", "device": "iphone-5", "costGolden": "first.cost.json" }, \#(entry) ] }"#
            )
            try Data(#"{ "format": "something else" }"#.utf8).write(
                to: directory.appendingPathComponent("not-cost.json"))
            let result = try runCLI(["check", directory.appendingPathComponent("m.json").path, "--update", "missing"])
            #expect(result.status == 2, "\(entry): \(result.standardOutput)")
            let errorLines = result.standardError.split(separator: "\n")
            #expect(
                errorLines.count == 1 && result.standardError.contains(expected), "\(entry): \(result.standardError)")
            #expect(result.standardOutput.isEmpty, "\(entry): \(result.standardOutput)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("first.cost.json").path))
        }
    }

    @Test func junitHasATestCasePerDeviceAndTheSummaryCarriesTheDevices() throws {
        let directory = try suite(
            #"{ "cases": [ { "name": "masks", "scene": "contacts-table-masks", "budget": { "fps": 60, "devices": ["iphone-5", "ipad-air"] } } ] }"#
        )
        let output = directory.appendingPathComponent("out").path
        let result = try runCLI(["check", directory.appendingPathComponent("m.json").path, "--output", output])
        #expect(result.status == 1)
        let junit = try String(contentsOfFile: output + "/junit.xml", encoding: .utf8)
        #expect(junit.contains(#"tests="2" failures="1" errors="0""#), "\(junit)")
        #expect(junit.contains(#"<testcase classname="backdrop.budget" name="masks [iphone-5]""#))
        #expect(junit.contains(#"name="masks [ipad-air]""#) && junit.contains(#"<failure type="budget""#))
        let summary = try GoldenSummary.read(output + "/summary.json")
        let devices = try #require(summary.cases.first?.devices)
        #expect(devices.map(\.device) == ["iphone-5", "ipad-air"] && devices.map(\.status) == ["passed", "failed"])
        #expect(abs((devices[1].budgetMs ?? 0) - 1000.0 / 60) < 1e-5 && devices[1].costliestLayer == "thumbnail")
        #expect(summary.failed == 1)
    }

    @Test func theReportPageShowsABarPerDeviceAgainstItsBudget() throws {
        let directory = try suite(
            #"{ "cases": [ { "name": "masks", "scene": "contacts-table-masks", "budget": { "fps": 60, "devices": ["iphone-5", "ipad-air"] } } ] }"#
        )
        let output = directory.appendingPathComponent("out").path
        _ = try runCLI(["check", directory.appendingPathComponent("m.json").path, "--output", output])
        let html = try String(contentsOfFile: output + "/index.html", encoding: .utf8)
        #expect(html.contains(#"<section class="budget failed" data-case="masks">"#), "\(html)")
        // One scale per case: the largest figure is the iPad Air's slow end, so its budget mark sits at
        // 16.7 ms ÷ that.
        let air = try Estimator().estimate(
            scene: #require(BuiltInScenes.named("contacts-table-masks")), device: Device.lookup("ipad-air")
        ).tableFrame
        let mark = String(format: "%.1f%%", 1000.0 / 60 / CostGolden.rounded(air.ranges().totalMs[1]) * 100)
        #expect(html.contains(#"<tr class="failed" data-device="ipad-air">"#))
        #expect(html.contains(#"<tr class="passed" data-device="iphone-5">"#))
        #expect(html.contains(#"<span class="budget" style="left:\#(mark)""#), "\(mark)")
    }

    @Test func shardsCarryTheDevicesIntoTheMergedReport() throws {
        let directory = try suite(
            #"{ "cases": [ { "name": "masks", "scene": "contacts-table-masks", "budget": { "fps": 60, "devices": ["iphone-5", "ipad-air"] } },"#
                + #"{ "name": "nav", "scene": "navbar-tabbar-blur", "budget": { "fps": 60, "devices": ["iphone-5"] } } ] }"#
        )
        let manifest = directory.appendingPathComponent("m.json").path
        var folders: [String] = []
        for shard in 1...2 {
            let folder = directory.appendingPathComponent("shard-\(shard)").path
            _ = try runCLI(["check", manifest, "--shard", "\(shard)/2", "--output", folder])
            folders.append(folder)
        }
        let merged = directory.appendingPathComponent("merged").path
        let merge = try runCLI(["merge-reports"] + folders + ["--output", merged])
        #expect(merge.status == 1, "\(merge.standardError)")  // the iPad Air misses its budget
        let summary = try GoldenSummary.read(merged + "/summary.json")
        #expect(summary.cases.map { $0.devices?.map(\.device) ?? [] } == [["iphone-5", "ipad-air"], ["iphone-5"]])
        let junit = try String(contentsOfFile: merged + "/junit.xml", encoding: .utf8)
        #expect(junit.contains(#"tests="3" failures="1""#), "\(junit)")
        #expect(junit.contains(#"name="nav [iphone-5]""#) && junit.contains(#"name="masks [ipad-air]""#))
    }

    @Test func reviewAcceptsACostGoldenAsCheckUpdateFailedWouldWriteIt() throws {
        let directory = try suite(
            #"{ "cases": [ { "name": "feed", "scene": "feed.json", "devices": ["iphone-5", "ipad-air"], "costGolden": "g/feed.cost.json" },"#
                + #"{ "name": "masks", "scene": "contacts-table-masks", "budget": { "fps": 60, "devices": ["ipad-air"] } } ] }"#
        )
        let manifest = directory.appendingPathComponent("m.json").path
        #expect(try runCLI(["check", manifest, "--update", "missing"]).status == 1)  // masks misses its budget
        try Data(Self.feed(shadowPath: false).utf8).write(to: directory.appendingPathComponent("feed.json"))
        let output = directory.appendingPathComponent("out").path
        #expect(try runCLI(["check", manifest, "--output", output]).status == 1)
        let proposed = try CostGolden.read(output + "/001-feed/actual.cost.json")
        let review = try GoldenReview(folder: output, manifest: manifest)
        #expect(review.costFailures == ["feed"] && review.failures.isEmpty)
        let budgetOnly = try runCLI(["review", output, "--accept", "masks", "--manifest", manifest])
        #expect(budgetOnly.status == 2 && budgetOnly.standardError.contains("missed its budget"))
        // Accepting writes what --update failed writes, byte for byte.
        let copy = directory.appendingPathComponent("copy").path
        try FileManager.default.copyItem(atPath: directory.path + "/g", toPath: copy)
        let accept = try runCLI(["review", output, "--accept", "feed", "--manifest", manifest])
        #expect(accept.status == 0 && accept.standardOutput.contains("accepted  "), "\(accept.standardError)")
        #expect(try CostGolden.read(directory.path + "/g/feed.cost.json") == proposed)
        #expect(try review.accepted() == ["feed"])
        let accepted = try Data(contentsOf: URL(fileURLWithPath: directory.path + "/g/feed.cost.json"))
        try FileManager.default.removeItem(atPath: directory.path + "/g")
        try FileManager.default.moveItem(atPath: copy, toPath: directory.path + "/g")
        _ = try runCLI(["check", manifest, "--update", "failed"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path + "/g/feed.cost.json")) == accepted)
        let after = try runCLI(["check", manifest, "--filter", "feed"])
        #expect(after.status == 0, "\(after.standardOutput)")
    }
}
