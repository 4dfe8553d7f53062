import ArgumentParser
import Backdrop
import Foundation

struct MergeReportsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-reports",
        abstract: "Join the --output folders of a sharded 'backdrop check' into one report.",
        discussion: """
            Reads each folder's summary.json and writes into --output the index.html, junit.xml, summary.json and \
            summary.md one unsharded run would write (the cases in the manifest's order; only the times differ), \
            with the failures' pictures copied. Refuses summaries of another format version, shards of different \
            manifests or counts, a shard missing or given twice, and a case in two shards.

            Exit codes: 0 every case passed (or was recorded) · 1 a case was outside its tolerance · 2 a case could \
            not run, or the shards cannot be merged. The same rule as 'backdrop check'.

            Examples:
              backdrop merge-reports shard-1 shard-2 shard-3 --output report
            """
    )

    @Argument(help: ArgumentHelp("The shards' --output folders.", valueName: "dir"))
    var folders: [String] = []

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Where to write the merged report (created if missing).", valueName: "dir"))
    var output: String

    func run() throws {
        guard !folders.isEmpty else { throw BackdropError(.badOption, "give the shards' --output folders") }
        let shards = try folders.map { folder throws(BackdropError) in
            (folder: folder, summary: try GoldenSummary.read(folder + "/summary.json"))
        }
        if let inside = folders.first(where: {
            FileLocation.lies(output, inside: $0) || FileLocation.lies($0, inside: output)
        }) {
            throw BackdropError(.badOption, "--output \(output): overlaps the shard folder \(inside)")
        }
        let (files, copies) = try GoldenArtifacts.merged(shards, outputFolder: output)
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            for (from, to) in copies {
                let destination = output + "/" + to
                try FileManager.default.createDirectory(
                    atPath: PathComponents.folder(of: destination), withIntermediateDirectories: true)
                try AtomicFile.write(
                    try InputFile.bytes(of: from, limit: 1 << 30, what: "a shard's picture"), to: destination)
            }
        } catch let error as BackdropError {
            throw error
        } catch {
            throw BackdropError(.output, "\(output): cannot write the merged report (\(error.localizedDescription))")
        }
        for (path, bytes) in files { try AtomicFile.write(bytes, to: output + "/" + path) }
        let summary = try GoldenSummary.read(output + "/summary.json")
        print(
            "merged \(Plural.count(shards.count, "shard")): \(Plural.count(summary.cases.count, "case")), \(summary.passed) passed, \(summary.failed) failed, \(summary.errors) could not run, \(summary.recorded) recorded"
        )
        print("wrote \(output)/index.html, junit.xml, summary.json and summary.md")
        if summary.errors > 0 { throw ExitCode(2) }
        if summary.failed > 0 { throw ExitCode(1) }
    }
}
