import BackdropTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An install puts both programs on a prefix, and `backdrop preview` finds its server beside itself or on
/// the PATH; the server reads its page's files from the resource bundle installed beside it. (CI also runs the real
/// `scripts/install --prefix`, build included, on a clean clone.)
@Suite("scripts/install")
struct InstallTests {
    /// SwiftNIO is the preview server's alone: `backdrop` (the README's first command) neither builds nor links it.
    /// Its module names are in every binary that links it (its symbols and type metadata): the server has them.
    @Test func onlyThePreviewsServerLinksSwiftNIO() throws {
        let folder = URL(fileURLWithPath: Fixtures.cli).deletingLastPathComponent()
        let command = try Data(contentsOf: folder.appendingPathComponent("backdrop"))
        let server = try Data(contentsOf: folder.appendingPathComponent("backdrop-preview"))
        for module in ["NIOCore", "NIOPosix", "NIOHTTP1"] {
            #expect(command.range(of: Data(module.utf8)) == nil, "backdrop links \(module)")
            #expect(server.range(of: Data(module.utf8)) != nil, "backdrop-preview does not link \(module)")
        }
    }

    @Test func anInstallIntoAnEmptyFolderRunsThePreviewsHelp() throws {
        let prefix = try Fixtures.temporaryDirectory().appendingPathComponent("prefix")
        let script = Fixtures.packageRoot.appendingPathComponent("scripts/install").path
        let install = try runProcess(script, ["--skip-build", "--prefix", prefix.path])
        #expect(install.status == 0, "\(install.output)")
        let installed = try FileManager.default.contentsOfDirectory(atPath: prefix.appendingPathComponent("bin").path)
        #expect(installed.sorted() == ["Backdrop_BackdropPreview.resources", "backdrop", "backdrop-preview"])
        let help = try runProcess(prefix.appendingPathComponent("bin/backdrop").path, ["preview", "--help"])
        #expect(help.status == 0 && help.output.contains("--max-pixels"), "\(help.output)")
        let bad = try runProcess(script, ["--prefix"])
        #expect(bad.status == 2 && bad.output.contains("--prefix needs a folder"))
    }

    /// The installed server serves both pages from the installed bundle (a mark written into the installed copy of
    /// the shared style sheet shows in both), a second install replaces the bundle, and a server whose bundle lacks
    /// a file refuses to start, naming the file.
    @Test func theInstalledServerServesThePagesFromTheInstalledBundle() async throws {
        let prefix = try Fixtures.temporaryDirectory().appendingPathComponent("prefix")
        let script = Fixtures.packageRoot.appendingPathComponent("scripts/install").path
        for _ in 0..<2 {
            let install = try runProcess(script, ["--skip-build", "--prefix", prefix.path])
            #expect(install.status == 0, "\(install.output)")
        }
        let page = prefix.appendingPathComponent("bin/Backdrop_BackdropPreview.resources/Page")
        let mark = "/* the installed copy */"
        let css = page.appendingPathComponent("page.css")
        try (String(contentsOf: css, encoding: .utf8) + mark + "\n").write(to: css, atomically: true, encoding: .utf8)
        do {
            let server = try PreviewProcess(command: prefix.appendingPathComponent("bin/backdrop").path)
            defer { #expect(server.stop() == 0) }
            for path in ["", "scenes"] {
                let (data, response) = try await URLSession.shared.data(from: URL(string: server.address + path)!)
                let html = String(decoding: data, as: UTF8.self)
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                #expect(html.contains(mark) && html.contains("<script>") && !html.contains("<script src="), "/\(path)")
            }
        }
        try FileManager.default.removeItem(at: page.appendingPathComponent("page.js"))
        let broken = try runProcess(prefix.appendingPathComponent("bin/backdrop-preview").path, ["--port", "0"])
        #expect(broken.status != 0 && broken.output.contains("Page/page.js is missing"), "\(broken.output)")
    }

    @Test func thePreviewsServerIsFoundOnThePathWhenItIsNotBesideTheCommand() throws {
        let directory = try Fixtures.temporaryDirectory()
        let alone = directory.appendingPathComponent("alone"), server = directory.appendingPathComponent("server")
        for url in [alone, server] {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        let built = URL(fileURLWithPath: Fixtures.cli).deletingLastPathComponent()
        try FileManager.default.copyItem(
            atPath: built.appendingPathComponent("backdrop").path, toPath: alone.appendingPathComponent("backdrop").path
        )
        try FileManager.default.copyItem(
            atPath: built.appendingPathComponent("backdrop-preview").path,
            toPath: server.appendingPathComponent("backdrop-preview").path)
        let command = alone.appendingPathComponent("backdrop").path
        // A binary copied a moment ago can fail to start with ETXTBSY ("Text file busy") while a process another
        // test forks at that moment still holds the copy's descriptor open; try again then, a few times.
        func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
            var result = try runProcess("/usr/bin/env", arguments)
            for _ in 0..<10 where result.output.contains("Text file busy") {
                Thread.sleep(forTimeInterval: 0.2)
                result = try runProcess("/usr/bin/env", arguments)
            }
            return result
        }
        let missing = try run(["PATH=/usr/bin:/bin", command, "preview", "--help"])
        #expect(missing.status == 1 && missing.output.contains("backdrop-preview is missing"), "\(missing.output)")
        let found = try run(["PATH=\(server.path):/usr/bin:/bin", command, "preview", "--help"])
        #expect(found.status == 0 && found.output.contains("--max-pixels"), "\(found.output)")
    }
}
