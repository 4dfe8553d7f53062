import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// `backdrop check --shard i/n` and `backdrop merge-reports`: every case in exactly one shard for any n,
/// and the merged report the same as one unsharded run's but for the times.
@Suite("backdrop check: shards and merged reports", .serialized)
struct ShardTests {
    /// A suite of nine cases of different sizes: seven pass, one fails (its golden altered), one cannot run.
    static func suite(in directory: URL) throws -> String {
        var cases: [String] = []
        for (index, size) in [(1, 64), (2, 200), (3, 96), (4, 320), (5, 48), (6, 150), (7, 256)] {
            let input = "in/p\(index).png"
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent("in"), withIntermediateDirectories: true)
            try PNGEncoder().write(
                noiseImage(width: size, height: size * 3 / 4, seed: UInt64(index)),
                to: directory.appendingPathComponent(input).path)
            cases.append(
                #"{ "name": "p\#(index)", "input": "\#(input)", "golden": "golden/p\#(index).png", "style": "\#(["light", "dark", "extraLight"][index % 3])" }"#
            )
        }
        cases.append(#"{ "name": "failing", "input": "in/p1.png", "golden": "golden/failing.png", "style": "dark" }"#)
        cases.append(
            #"{ "name": "broken", "input": "in/missing.png", "golden": "golden/broken.png", "style": "dark" }"#)
        let manifest = directory.appendingPathComponent("manifest.json").path
        try Data(#"{ "tolerance": { "minimumPSNR": 60 }, "cases": [ \#(cases.joined(separator: ", ")) ] }"#.utf8)
            .write(to: URL(fileURLWithPath: manifest))
        _ = try runCLI(["check", manifest, "--update", "missing"])
        // The failing case's golden is another picture.
        try PNGEncoder().write(
            noiseImage(width: 64, height: 48, seed: 99), to: directory.appendingPathComponent("golden/failing.png").path
        )
        return manifest
    }

    /// summary.json's cases without their times.
    static func cases(_ folder: String) throws -> [GoldenSummary.Case] {
        try GoldenSummary.read(folder + "/summary.json").cases.map {
            var entry = $0
            entry.seconds = 0
            return entry
        }
    }

    static func withoutTimes(_ text: String) -> String {
        text.replacingOccurrences(of: #"time="[0-9.]+""#, with: "time=\"\"", options: .regularExpression)
    }

    @Test(arguments: [2, 3, 5])
    func shardsCoverEveryCaseOnceAndMergeIntoTheUnshardedReport(_ count: Int) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifest = try Self.suite(in: directory)
        let whole = directory.appendingPathComponent("whole").path
        let one = try runCLI(["check", manifest, "--output", whole])
        #expect(one.status == 2, "a case could not run: \(one.standardOutput)")
        var folders: [String] = []
        var seen: [String] = []
        for index in 1...count {
            let folder = directory.appendingPathComponent("shard-\(index)").path
            let shard = try runCLI(["check", manifest, "--shard", "\(index)/\(count)", "--output", folder])
            #expect([0, 1, 2].contains(shard.status), "\(shard.standardError)")
            let summary = try GoldenSummary.read(folder + "/summary.json")
            #expect(summary.suite.shard == GoldenSummary.Shard(index: index, count: count))
            seen += summary.cases.map(\.name)
            folders.append(folder)
        }
        #expect(seen.sorted() == (try Self.cases(whole)).map(\.name).sorted(), "every case in exactly one shard")
        let merged = directory.appendingPathComponent("merged").path
        let merge = try runCLI(["merge-reports"] + folders + ["--output", merged])
        #expect(merge.status == 2, "the merged suite has a case that could not run: \(merge.standardError)")
        #expect(try Self.cases(merged) == Self.cases(whole))
        for file in ["junit.xml", "summary.md", "index.html"] {
            // junit.xml names the failure's picture under the folder it was written to.
            let a = try String(contentsOfFile: whole + "/" + file, encoding: .utf8)
                .replacingOccurrences(of: whole + "/", with: merged + "/")
            let b = try String(contentsOfFile: merged + "/" + file, encoding: .utf8)
            #expect(Self.withoutTimes(a) == Self.withoutTimes(b), "\(file)")
        }
        let threeUp = try #require(try Self.cases(merged).first { $0.name == "failing" }?.threeUp)
        #expect(FileManager.default.fileExists(atPath: merged + "/" + threeUp), "the failure's picture was copied")
    }

    @Test func theSplitIsDeterministicAndBalancedByCost() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifest = try Self.suite(in: directory)
        let parsed = try GoldenManifest.read(manifest)
        let first = GoldenShards.assign(parsed.cases, in: directory.path, shards: 3)
        #expect(first == GoldenShards.assign(parsed.cases, in: directory.path, shards: 3))
        let costs = parsed.cases.map { GoldenShards.cost(of: $0, in: directory.path) }
        // The most costly case (320 px wide) alone outweighs several small ones: it is not with the next two.
        let largest = costs.indices.max { costs[$0] < costs[$1] }!
        let loads = (0..<3).map { shard in first.indices.filter { first[$0] == shard }.map { costs[$0] }.reduce(0, +) }
        #expect(loads.max()! <= costs[largest] + loads.min()!, "longest-processing-time balance: \(loads)")
    }

    @Test func mergingRefusesMissingDuplicateAndForeignShards() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifest = try Self.suite(in: directory)
        for index in 1...2 {
            _ = try runCLI([
                "check", manifest, "--shard", "\(index)/2", "--output",
                directory.appendingPathComponent("s\(index)").path,
            ])
        }
        let other = directory.appendingPathComponent("other.json").path
        try Data(#"{ "cases": [ { "input": "in/p1.png", "golden": "golden/p1.png", "style": "light" } ] }"#.utf8)
            .write(to: URL(fileURLWithPath: other))
        _ = try runCLI(["check", other, "--shard", "2/2", "--output", directory.appendingPathComponent("o2").path])
        let s1 = directory.appendingPathComponent("s1").path, s2 = directory.appendingPathComponent("s2").path
        let out = directory.appendingPathComponent("out").path
        for (folders, message) in [
            ([s1], "shard 2/2 is missing"), ([s1, s1], "are both shard 1/2"),
            ([s1, directory.appendingPathComponent("o2").path], "a run of another manifest"),
            ([s1, directory.appendingPathComponent("nowhere").path], "summary.json"),
        ] {
            let result = try runCLI(["merge-reports"] + folders + ["--output", out])
            #expect(result.status == 2, "\(folders)")
            #expect(result.standardError.contains(message), "\(result.standardError)")
        }
        _ = s2
        #expect(try runCLI(["check", manifest, "--shard", "4/3"]).standardError.contains("--shard '4/3'"))
    }

    @Test func recordedGoldensGoIntoTheUpdateFolderAndQuietPrintsOnlyWhatDidNotPass() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifest = try Self.suite(in: directory)
        let artifact = directory.appendingPathComponent("new-goldens").path
        let before = try Data(contentsOf: directory.appendingPathComponent("golden/failing.png"))
        let update = try runCLI(["check", manifest, "--update", "failed", "--update-into", artifact])
        #expect(update.standardOutput.contains("recorded  failing: \(artifact)/golden/failing.png"))
        #expect(FileManager.default.fileExists(atPath: artifact + "/golden/failing.png"))
        #expect(try Data(contentsOf: directory.appendingPathComponent("golden/failing.png")) == before)
        let quiet = try runCLI(["check", manifest, "-q"])
        let lines = quiet.standardOutput.split(separator: "\n")
        #expect(lines.count == 3, "FAIL, ERROR and the summary: \(quiet.standardOutput)")
        #expect(!quiet.standardOutput.contains("ok "))
    }
}
