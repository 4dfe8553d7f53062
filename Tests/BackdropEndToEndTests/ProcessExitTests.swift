import BackdropTestSupport
import Foundation
import Testing

/// A command ends with `_exit` (no exit handler runs: `endProcess`), so anything that outlives a process must be
/// released before it: OpenMP's runtime registers each process in a file of /dev/shm, which its exit handler would
/// have removed.
@Suite("What a command leaves when it ends")
struct ProcessExitTests {
    /// The file libomp keeps for process `pid` while its runtime is up (`__KMP_REGISTERED_LIB_<pid>_<uid>`).
    func registration(of pid: Int32) -> String { "/dev/shm/__KMP_REGISTERED_LIB_\(pid)_\(getuid())" }

    @Test func aRenderOnTwoThreadsLeavesNoOpenMPRegistrationBehind() throws {
        let output = try Fixtures.temporaryDirectory().appendingPathComponent("out.png").path
        for threads in ["1", "2"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Fixtures.cli)
            process.arguments = [
                "render", Fixtures.path("photos/wallpaper-2048x1536.png"), "-o", output, "--force", "--scale", "2",
                "--threads", threads,
            ]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let pid = process.processIdentifier
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(!FileManager.default.fileExists(atPath: registration(of: pid)), "\(threads) thread(s)")
        }
    }
}
