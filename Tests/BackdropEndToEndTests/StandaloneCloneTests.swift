import BackdropTestSupport
import Foundation
import Testing

/// A clone stands alone: no file of the repository reads or points to a folder beside the checkout. The files are
/// the ones git tracks (`git ls-files`), or every file under the package root but `.build` and `.git` when the
/// checkout has no git metadata (a copied tree); either way the list must not be empty.
@Suite("A clone that stands alone")
struct StandaloneCloneTests {
    /// The sibling folder the test data used to live in, spelled in two pieces so that this file does not match.
    static let siblingFolder = ".." + "/shared"

    static func repositoryFiles() throws -> [String] {
        let root = Fixtures.packageRoot
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "-C", root.path, "ls-files", "-z"]
        let out = Pipe()
        git.standardOutput = out
        git.standardError = Pipe()
        if (try? git.run()) != nil {
            let data = out.fileHandleForReading.readDataToEndOfFile()
            git.waitUntilExit()
            if git.terminationStatus == 0 {
                return String(decoding: data, as: UTF8.self).split(separator: "\0").map(String.init)
            }
        }
        var files: [String] = []
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            let relative = String(url.path.dropFirst(root.path.count + 1))
            if relative.hasPrefix(".build") || relative.hasPrefix(".git") || relative.contains("/.build") {
                enumerator?.skipDescendants()
                continue
            }
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { files.append(relative) }
        }
        return files
    }

    @Test func noFileOfTheRepositoryRefersToTheSiblingFolder() throws {
        let files = try Self.repositoryFiles()
        #expect(files.count > 100, "only \(files.count) files found under \(Fixtures.packageRoot.path)")
        #expect(
            files.contains("Tests/Fixtures/reference/manifest.json"),
            "Tests/Fixtures/reference/manifest.json is not among the \(files.count) files (not committed?)")
        let needle = Data(Self.siblingFolder.utf8)
        let offending = files.filter { name in
            guard
                let data = FileManager.default.contents(atPath: Fixtures.packageRoot.appendingPathComponent(name).path)
            else { return false }
            return data.range(of: needle) != nil
        }
        #expect(offending.isEmpty, "files that refer to \(Self.siblingFolder): \(offending)")
    }

    /// The fixtures the tests read are in the repository, each folder with its sources and licences.
    @Test func everyFixtureFolderNamesItsSources() throws {
        for folder in ["photos", "png", "pixelmatch", "reference"] {
            let names = try Fixtures.files(in: folder)
            #expect(names.contains("SOURCES.md"), "Tests/Fixtures/\(folder) has no SOURCES.md")
            #expect(names.contains { $0.hasSuffix(".png") } || folder == "png", "Tests/Fixtures/\(folder) has no PNG")
        }
    }
}
