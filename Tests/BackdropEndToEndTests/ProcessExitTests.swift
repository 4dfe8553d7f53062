import BackdropTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A command ends with `_exit` (no exit handler runs: `endProcess`), so anything that outlives a process must be
/// released before it: OpenMP's runtime registers each process in a file of /dev/shm, which its exit handler would
/// have removed. Where other threads used OpenMP too, the command ends with `exit`, and the handler removes it.
@Suite("What a command leaves when it ends")
struct ProcessExitTests {
    /// The file libomp keeps for process `pid` while its runtime is up (`__KMP_REGISTERED_LIB_<pid>_<uid>`).
    func registration(of pid: Int32) -> String { "/dev/shm/__KMP_REGISTERED_LIB_\(pid)_\(getuid())" }

    /// Runs `backdrop arguments` to its end; its exit status and its process ID.
    func run(_ arguments: [String]) throws -> (status: Int32, pid: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Fixtures.cli)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        process.waitUntilExit()
        return (process.terminationStatus, pid)
    }

    /// The main thread alone uses OpenMP: the default thread count (which asks the runtime) and two threads.
    @Test func aRenderLeavesNoOpenMPRegistrationBehind() throws {
        let output = try Fixtures.temporaryDirectory().appendingPathComponent("out.png").path
        let render = [
            "render", Fixtures.path("photos/wallpaper-2048x1536.png"), "-o", output, "--force", "--scale", "2",
        ]
        for threads in [[], ["--threads", "2"]] {
            let (status, pid) = try run(render + threads)
            #expect(status == 0)
            #expect(!FileManager.default.fileExists(atPath: registration(of: pid)), "\(threads)")
        }
    }

    /// `check --jobs 2`: two workers render at once, each a thread of its own in OpenMP's runtime.
    @Test func aCheckOnTwoJobsLeavesNoOpenMPRegistrationBehind() throws {
        let directory = try Fixtures.temporaryDirectory()
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("golden"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Fixtures.path("photos/wallpaper-2048x1536.png"),
            toPath: directory.appendingPathComponent("wallpaper.png").path)
        let manifest = directory.appendingPathComponent("manifest.json")
        try Data(
            """
            { "cases": [
                { "name": "light", "input": "wallpaper.png", "golden": "golden/light.png", "style": "light" },
                { "name": "dark", "input": "wallpaper.png", "golden": "golden/dark.png", "style": "dark" }
              ] }
            """.utf8
        ).write(to: manifest)
        for arguments in [["--update", "all"], []] {
            let (status, pid) = try run(["check", manifest.path, "--jobs", "2"] + arguments)
            #expect(status == 0, "\(arguments)")
            #expect(!FileManager.default.fileExists(atPath: registration(of: pid)), "\(arguments)")
        }
    }

    /// The preview renders on a queue's thread; stopped with Ctrl-C, it leaves nothing behind either.
    @Test func thePreviewLeavesNoOpenMPRegistrationBehind() async throws {
        let server = try PreviewProcess([Fixtures.path("photos/wallpaper-2048x1536.png")])
        let pid = server.process.processIdentifier
        let (_, response) = try await URLSession.shared.data(
            from: URL(string: server.address + "render.png?style=light")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(server.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: registration(of: pid)))
    }
}
