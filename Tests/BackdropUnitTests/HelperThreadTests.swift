import CLibPNG
import Foundation
import Testing

/// `bd_thread_create`, which starts the PNG decoder's inflater and the encoder's helpers: the thread runs its function
/// with its argument, and by the time the call returns it may use every core its creator may (it is only started on
/// another one).
@Suite("Helper threads")
struct HelperThreadTests {
    /// What a helper thread saw, once the creator let it look: that it ran, and the cores it may use.
    final class Probe {
        let mayLook = DispatchSemaphore(value: 0)
        var ran = false
        var cores = ""
    }

    /// The cores the calling thread may use, as Linux lists them ("0-1").
    static func allowedCores() -> String {
        let status = (try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }.map(String.init) ?? ""
    }

    /// On a machine where this process may use one core only, the cores are the same whatever the call does: the test
    /// then shows only that the thread ran.
    @Test func aHelperRunsItsFunctionWithTheCoresItsCreatorMayUse() throws {
        let creator = Self.allowedCores()
        try #require(!creator.isEmpty, "no Cpus_allowed_list in /proc/thread-self/status")
        let probe = Probe()
        var thread = pthread_t()
        let started = bd_thread_create(
            &thread,
            { context in
                let probe = Unmanaged<Probe>.fromOpaque(context!).takeUnretainedValue()
                probe.mayLook.wait()
                probe.cores = HelperThreadTests.allowedCores()
                probe.ran = true
                return nil
            }, Unmanaged.passUnretained(probe).toOpaque())
        try #require(started == 0)
        probe.mayLook.signal()
        pthread_join(thread, nil)
        #expect(probe.ran)
        #expect(probe.cores == creator)
    }
}
