import CLibPNG
import Foundation
import Testing

/// `bd_thread_create`, which starts the PNG decoder's inflater and the encoder's helpers: the thread runs its function
/// with its argument, and once it runs it may use the cores its creator may (it starts on another one: a hint only).
@Suite("Helper threads")
struct HelperThreadTests {
    /// What a helper thread saw: that it ran, and the cores it may use.
    final class Probe {
        var ran = false
        var cores = ""
    }

    /// The cores the calling thread may use, as Linux lists them ("0-1").
    static func allowedCores() -> String {
        let status = (try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }.map(String.init) ?? ""
    }

    @Test func aHelperRunsItsFunctionWithTheCoresItsCreatorMayUse() throws {
        let creator = Self.allowedCores()
        try #require(!creator.isEmpty, "no Cpus_allowed_list in /proc/thread-self/status")
        let probe = Probe()
        var thread = pthread_t()
        let started = bd_thread_create(
            &thread,
            { context in
                let probe = Unmanaged<Probe>.fromOpaque(context!).takeUnretainedValue()
                probe.cores = HelperThreadTests.allowedCores()
                probe.ran = true
                return nil
            }, Unmanaged.passUnretained(probe).toOpaque())
        #expect(started == 0)
        pthread_join(thread, nil)
        #expect(probe.ran)
        #expect(probe.cores == creator)
    }
}
