import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// pixelmatch's rule against pixelmatch 7.2.0 itself: its own fixtures, with the counts 7.2.0 returned for them
/// (`Tests/Fixtures/pixelmatch/expected.json`).
@Suite("pixelmatch's rule")
struct PerceptualDifferenceTests {
    struct Expectation: Decodable {
        let a: String
        let b: String
        let threshold: Double
        let includeAA: Bool
        let mismatched: Int
    }

    static func expectations() throws -> [Expectation] {
        let data = try Data(
            contentsOf: URL(fileURLWithPath: Fixtures.path("pixelmatch/expected.json")))
        return try JSONDecoder().decode([Expectation].self, from: data)
    }

    @Test func everyFixtureThresholdAndIncludeAASettingCountsAsPixelmatch720Does() throws {
        let table = try Self.expectations()
        #expect(table.count == 48, "8 pairs × 3 thresholds × includeAA false and true")
        var pictures: [String: RGBAImage<UInt8>] = [:]
        func picture(_ name: String) throws -> RGBAImage<UInt8> {
            if let known = pictures[name] { return known }
            let image = try Fixtures.image("pixelmatch/\(name)")
            pictures[name] = image
            return image
        }
        for row in table {
            let rule = PerceptualRule(threshold: row.threshold, includeAntiAliased: row.includeAA)
            let count = PerceptualDifference.count(try picture(row.a), try picture(row.b), rule: rule)
            #expect(
                count.differing == row.mismatched,
                "\(row.a)/\(row.b) threshold \(row.threshold) includeAA \(row.includeAA): \(count.differing), pixelmatch 7.2.0 \(row.mismatched)"
            )
        }
    }

    @Test func theCountsAndTheDiffPictureAreTheSameForAnyThreadCount() throws {
        let a = try Fixtures.image("pixelmatch/4a.png"), b = try Fixtures.image("pixelmatch/4b.png")
        let rule = PerceptualRule(threshold: 0.05)
        let serial = PerceptualDifference.count(a, b, rule: rule, parallelism: .serial)
        for threads in [2, 3, 7] {
            for scheduler in Scheduler.allCases {
                let parallelism = Parallelism(scheduler: scheduler, threads: threads)
                #expect(PerceptualDifference.count(a, b, rule: rule, parallelism: parallelism) == serial)
                #expect(
                    PerceptualDifference.diffPicture(expected: a, actual: b, rule: rule, parallelism: parallelism)
                        == PerceptualDifference.diffPicture(expected: a, actual: b, rule: rule, parallelism: .serial))
            }
        }
    }

    /// Red for each counted pixel, yellow for each left out as anti-aliasing, grey (r = g = b) for the rest.
    @Test func theDiffPicturePaintsCountedPixelsRedAndAntiAliasingYellow() throws {
        let a = try Fixtures.image("pixelmatch/1a.png"), b = try Fixtures.image("pixelmatch/1b.png")
        let rule = PerceptualRule()
        let count = PerceptualDifference.count(a, b, rule: rule)
        #expect(count.differing == 106 && count.antiAliased > 0)
        let diff = PerceptualDifference.diffPicture(expected: a, actual: b, rule: rule)
        var red = 0, yellow = 0, grey = 0
        for index in stride(from: 0, to: diff.samples.count, by: 4) {
            let (r, g, bl, alpha) = (
                diff.samples[index], diff.samples[index + 1], diff.samples[index + 2], diff.samples[index + 3]
            )
            #expect(alpha == 255)
            if (r, g, bl) == (255, 0, 0) {
                red += 1
            } else if (r, g, bl) == (255, 255, 0) {
                yellow += 1
            } else if r == g && g == bl && r >= 229 {
                grey += 1
            }
        }
        #expect(red == count.differing && yellow == count.antiAliased && red + yellow + grey == a.width * a.height)
    }

    @Test func ignoredPixelsAreNotCountedAndARegionIsComparedAsAPictureOfItsOwn() throws {
        let a = try Fixtures.image("pixelmatch/3a.png"), b = try Fixtures.image("pixelmatch/3b.png")
        let rule = PerceptualRule(includeAntiAliased: true)
        let whole = PerceptualDifference.count(a, b, rule: rule).differing
        let everything = PixelRect(covering: a.size)
        #expect(PerceptualDifference.count(a, b, ignore: [everything], rule: rule).differing == 0)
        // Half the picture ignored, then the other half: the halves' counts add up to the whole's (anti-aliasing
        // included, so no count depends on a neighbour).
        let left = PixelRect(x: 0, y: 0, width: a.width / 2, height: a.height)
        let right = PixelRect(x: a.width / 2, y: 0, width: a.width - a.width / 2, height: a.height)
        #expect(
            PerceptualDifference.count(a, b, ignore: [left], rule: rule).differing
                + PerceptualDifference.count(a, b, ignore: [right], rule: rule).differing == whole)
        #expect(
            PerceptualDifference.count(a, b, region: left, rule: rule).differing
                == PerceptualDifference.count(a, b, ignore: [right], rule: rule).differing)
    }

    @Test func compareCountsByPixelmatchsRuleWithThresholdAndIncludeAA() throws {
        let a = Fixtures.path("pixelmatch/1a.png"), b = Fixtures.path("pixelmatch/1b.png")
        let result = try runCLI(["compare", a, b, "--threshold", "0.2", "--format", "json"])
        #expect(result.status == 1)
        let record = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(record["differingPixels"] as? Int == 69 && record["threshold"] as? Double == 0.2)
        #expect(record["includeAA"] as? Bool == false)
        let included = try runCLI(["compare", a, b, "--include-aa", "--max-differing-pixels", "167"])
        #expect(included.status == 0 && included.standardOutput.contains("167 of 131072 pixels differ"))
    }

    @Test func aThresholdOutsideZeroToOneOrMixedWithThePixelThresholdIsAOneLineErrorAndWritesNothing() throws {
        let directory = try Fixtures.temporaryDirectory()
        let diff = directory.appendingPathComponent("diff.png").path
        let a = Fixtures.path("pixelmatch/1a.png"), b = Fixtures.path("pixelmatch/1b.png")
        for arguments in [
            ["--threshold", "1.5"], ["--threshold=-0.1"], ["--threshold", "nan"],
            ["--threshold", "0.1", "--pixel-threshold", "2"], ["--include-aa", "--pixel-threshold", "2"],
        ] {
            let result = try runCLI(["compare", a, b, "--diff", diff] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(arguments): \(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: diff))
        }
        let manifest = directory.appendingPathComponent("manifest.json")
        try Data(
            #"{"tolerance": {"threshold": 2}, "cases": [{"input": "in.png", "golden": "g.png", "style": "light"}]}"#
                .utf8
        ).write(to: manifest)
        try FileManager.default.copyItem(atPath: a, toPath: directory.appendingPathComponent("in.png").path)
        try FileManager.default.copyItem(atPath: a, toPath: directory.appendingPathComponent("g.png").path)
        let check = try runCLI(["check", manifest.path])
        #expect(check.status == 2 && check.standardOutput.contains("the threshold 2.0 is outside 0…1"))
    }

    /// An ignored region past an edge of the pictures (issue 47's bad input), on the command line and in a manifest:
    /// a one-line error naming the region, no diff picture, no golden recorded.
    @Test func anIgnoredRegionOutsideThePicturesIsAOneLineErrorAndWritesNothing() throws {
        let directory = try Fixtures.temporaryDirectory()
        let diff = directory.appendingPathComponent("diff.png").path
        let a = Fixtures.path("pixelmatch/1a.png"), b = Fixtures.path("pixelmatch/1b.png")  // 512×256
        for region in ["510,0,10,10", "0,250,8,8", "600,300,4,4", "0,0,513,256", "0,0,0,0"] {
            let result = try runCLI(["compare", a, b, "--diff", diff, "--ignore", region])
            #expect(result.status == 2, "\(region): \(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(region): \(result.standardError)")
            #expect(result.standardError.contains("ignored region \(region) (x,y,w,h) is not inside the 512×256"))
            #expect(!FileManager.default.fileExists(atPath: diff), "\(region)")
        }
        #expect(try runCLI(["compare", a, b, "--diff", diff, "--ignore", "0,0,512,256"]).status == 0)

        try FileManager.default.copyItem(atPath: a, toPath: directory.appendingPathComponent("in.png").path)
        try FileManager.default.copyItem(atPath: b, toPath: directory.appendingPathComponent("g.png").path)
        let golden = try Data(contentsOf: directory.appendingPathComponent("g.png"))
        let manifest = directory.appendingPathComponent("manifest.json")
        try Data(
            #"{"cases": [{"input": "in.png", "golden": "g.png", "style": "light", "tolerance": {"ignore": [[510, 0, 10, 10]]}}]}"#
                .utf8
        ).write(to: manifest)
        let check = try runCLI(["check", manifest.path, "--update", "failed"])
        #expect(check.status == 2, "\(check.standardOutput)")
        #expect(
            check.standardOutput.contains("ERROR     g.png: the ignored region 510,0,10,10 (x,y,w,h) is not inside"))
        #expect(check.standardOutput.contains("1 could not run, 0 recorded"), "\(check.standardOutput)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("g.png")) == golden)
    }
}
