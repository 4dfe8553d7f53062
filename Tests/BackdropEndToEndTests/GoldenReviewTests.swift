import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// `check --output`'s folder reviewed: the failures listed, a failed case accepted exactly as `check --update-into`
/// would write it and nowhere else, and the review view in headless Chromium.
@Suite("Reviewing a check's failures")
struct GoldenReviewTests {
    /// A manifest of cases over a small picture: "a" in the light style and each of `failing` in the dark style, all
    /// recorded, then the goldens of `failing` replaced so that those cases fail.
    func failingSuite(failing: [String] = ["b"]) throws -> (directory: URL, manifest: URL, results: URL) {
        let directory = try Fixtures.temporaryDirectory()
        try PNGEncoder().write(
            noiseImage(width: 64, height: 48, seed: 3), to: directory.appendingPathComponent("in.png").path)
        let manifest = directory.appendingPathComponent("manifest.json")
        let cases =
            [#"{"name": "a", "input": "in.png", "golden": "golden/a.png", "style": "light"}"#]
            + failing.map { #"{"name": "\#($0)", "input": "in.png", "golden": "golden/\#($0).png", "style": "dark"}"# }
        try Data(#"{"cases": [\#(cases.joined(separator: ", "))]}"#.utf8).write(to: manifest)
        #expect(try runCLI(["check", manifest.path, "--update", "all"]).status == 0)
        for name in failing {
            try PNGEncoder().write(
                noiseImage(width: 64, height: 48, seed: 5),
                to: directory.appendingPathComponent("golden/\(name).png").path)
        }
        let results = directory.appendingPathComponent("results")
        let check = try runCLI(["check", manifest.path, "--output", results.path])
        #expect(check.status == 1, "\(check.standardOutput)")
        return (directory, manifest, results)
    }

    func bytes(_ url: URL) throws -> Data { try Data(contentsOf: url) }

    @Test func theFailuresAreListedWithTheirFiguresAndTheLimitTheyBroke() throws {
        let suite = try failingSuite()
        let review = try GoldenReview(folder: suite.results.path)
        let failures = review.failures
        #expect(failures.map(\.name) == ["b"])
        #expect(failures.first?.failedLimits == ["identical"] && failures.first?.differingPixels ?? 0 > 0)
        #expect(failures.first?.differingBox != nil)
        let listed = try runCLI(["review", suite.results.path])
        #expect(listed.status == 0 && listed.standardOutput.contains("FAIL      b: PSNR"), "\(listed.standardOutput)")
        #expect(listed.standardOutput.contains("failed: identical") && listed.standardOutput.contains("1 failed case"))
    }

    /// Issue 70, item 7: `c0` given 2,000 times rewrote one golden 2,000 times. Each name now counts once, in the
    /// order given, and the lookups are tables, so an accept naming every case of a suite many times is one pass.
    @Test func aNameGivenManyTimesIsAcceptedOnce() throws {
        let suite = try failingSuite(failing: ["b", "c"])
        let into = suite.directory.appendingPathComponent("into")
        let review = try GoldenReview(folder: suite.results.path, manifest: suite.manifest.path)
        let written = try review.accept(
            Array(repeating: "c", count: 2_000) + ["b"] + Array(repeating: "c", count: 8_000), into: into.path)
        #expect(
            written.map { $0.split(separator: "/").last.map(String.init) ?? "" } == ["c.png", "b.png"], "\(written)")
        #expect(try review.accepted(into: into.path).sorted() == ["b", "c"])
    }

    @Test func acceptingWritesTheGoldenCheckWouldAndNothingElse() throws {
        let suite = try failingSuite()
        let byCheck = suite.directory.appendingPathComponent("by-check")
        #expect(
            try runCLI(["check", suite.manifest.path, "--update", "failed", "--update-into", byCheck.path]).status == 0)
        let byReview = suite.directory.appendingPathComponent("by-review")
        let accepted = try runCLI([
            "review", suite.results.path, "--accept", "b", "--into", byReview.path, "--manifest", suite.manifest.path,
        ])
        #expect(accepted.status == 0, "\(accepted.standardError)")
        #expect(
            try FileManager.default.subpathsOfDirectory(atPath: byReview.path).sorted() == ["golden", "golden/b.png"])
        #expect(
            try bytes(byReview.appendingPathComponent("golden/b.png"))
                == bytes(byCheck.appendingPathComponent("golden/b.png")))
        // A case is found accepted where its golden holds the bytes of its actual picture, which are those written.
        let review = try GoldenReview(folder: suite.results.path, manifest: suite.manifest.path)
        let actual = suite.results.appendingPathComponent(try #require(review.failures.first?.actual))
        #expect(try bytes(actual) == bytes(byCheck.appendingPathComponent("golden/b.png")))
        #expect(try review.accepted(into: byReview.path) == ["b"])
        #expect(try review.accepted() == [] && review.accepted(into: suite.directory.path + "/none") == [])
        // Over the golden itself, as `--update failed` writes it: the check passes afterwards.
        let golden = suite.directory.appendingPathComponent("golden/b.png")
        #expect(try bytes(golden) != bytes(byCheck.appendingPathComponent("golden/b.png")))
        #expect(
            try runCLI(["review", suite.results.path, "--accept-all", "--manifest", suite.manifest.path]).status == 0)
        #expect(try bytes(golden) == bytes(byCheck.appendingPathComponent("golden/b.png")))
        #expect(try review.accepted() == ["b"])
        #expect(try runCLI(["check", suite.manifest.path]).status == 0)
    }

    @Test func aCaseThatDidNotFailAFolderCheckDidNotWriteOrAChangedManifestIsAOneLineErrorAndWritesNothing() throws {
        let suite = try failingSuite()
        let into = suite.directory.appendingPathComponent("into")
        let goldenA = suite.directory.appendingPathComponent("golden/a.png")
        let before = try bytes(goldenA)
        for arguments in [
            [suite.results.path, "--accept", "a"], [suite.results.path, "--accept", "b", "--accept", "nobody"],
            [suite.directory.path, "--accept", "b"], [suite.directory.appendingPathComponent("none").path],
            [suite.results.path, "--accept", "b", "--accept-all"],
        ] {
            let result = try runCLI(["review"] + arguments + ["--into", into.path, "--manifest", suite.manifest.path])
            #expect(result.status == 2, "\(arguments): \(result.standardOutput)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(arguments): \(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: into.path), "\(arguments)")
        }
        #expect(try bytes(goldenA) == before)
        let notFailed = try runCLI(["review", suite.results.path, "--accept", "a", "--manifest", suite.manifest.path])
        #expect(notFailed.standardError.contains("did not fail (passed)"))
        try Data(try bytes(suite.manifest) + Data(" ".utf8)).write(to: suite.manifest)
        let changed = try runCLI([
            "review", suite.results.path, "--accept", "b", "--into", into.path, "--manifest", suite.manifest.path,
        ])
        #expect(changed.status == 2 && changed.standardError.contains("changed since the check"))
        #expect(!FileManager.default.fileExists(atPath: into.path))
    }

    /// Issue 70, item 7: a `summary.json` is not signed, and a tampered one naming another suite's manifest of the
    /// same bytes made `review --accept` write that suite's golden. The summary's manifest is now taken only when it
    /// lies inside the working directory; otherwise the one named with `--manifest` is used, and nothing else.
    @Test func aSummaryNamingAManifestOutsideTheWorkingDirectoryNeedsItNamed() throws {
        let suite = try failingSuite()
        // Another suite, a copy of the first, elsewhere: its manifest has the same bytes.
        let other = try Fixtures.temporaryDirectory()
        try FileManager.default.copyItem(at: suite.manifest, to: other.appendingPathComponent("manifest.json"))
        try FileManager.default.copyItem(
            at: suite.directory.appendingPathComponent("golden"), to: other.appendingPathComponent("golden"))
        let otherGolden = other.appendingPathComponent("golden/b.png")
        let before = try bytes(otherGolden)
        // The summary edited to name the other suite's manifest.
        let summaryFile = suite.results.appendingPathComponent("summary.json")
        let summary = String(decoding: try bytes(summaryFile), as: UTF8.self)
        try Data(summary.replacingOccurrences(of: suite.directory.path, with: other.path).utf8).write(to: summaryFile)
        let refused = try runCLI(["review", suite.results.path, "--accept", "b"])
        #expect(refused.status == 2 && refused.standardError.contains("name it with --manifest"), "\(refused)")
        #expect(refused.standardError.split(separator: "\n").count == 1)
        #expect(try bytes(otherGolden) == before)
        // Named: the goldens go beside the manifest named, the first suite's.
        let named = try runCLI(["review", suite.results.path, "--accept", "b", "--manifest", suite.manifest.path])
        #expect(named.status == 0, "\(named.standardError)")
        #expect(try bytes(otherGolden) == before)
        #expect(try runCLI(["check", suite.manifest.path]).status == 0)
        // A summary whose manifest lies inside the working directory needs no option (a check run from there).
        let inside = try failingSuite()
        let relative = try runCLI(["check", "manifest.json", "--output", "here"], in: inside.directory.path)
        #expect(relative.status == 1)
        let accepted = try runCLI(["review", "here", "--accept", "b"], in: inside.directory.path)
        #expect(accepted.status == 0, "\(accepted.standardError)")
        #expect(try runCLI(["check", inside.manifest.path]).status == 0)
    }

    /// The page opened on the swipe view at a quarter: the slider's clip follows, and every picture loads.
    @Test func theReviewViewSwipesInHeadlessChromium() throws {
        let suite = try failingSuite()
        let files = try FileManager.default.contentsOfDirectory(atPath: suite.results.path)
        #expect(files.contains("review.js") && files.contains("review.css"))
        let chromium = try HeadlessChromium.executable()
        for (hash, expected) in [
            ("#swipe=0.25", #"data-mode="swipe" data-swipe="0.250""#), ("#zoom", #"data-mode="zoom""#),
            ("", #"data-mode="side""#),
        ] {
            let page = try runProcess(
                chromium,
                [
                    "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000", "--dump-dom",
                    "file://" + suite.results.appendingPathComponent("index.html").path + hash,
                ])
            #expect(page.output.contains(expected), "\(hash): \(page.output.prefix(3000))")
            #expect(page.output.contains("data-loaded=\"yes\"") && page.output.contains("data-broken=\"\""), "\(hash)")
        }
    }
}
