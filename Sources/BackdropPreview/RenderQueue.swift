import Backdrop
import Dispatch
import Foundation

/// Renders one request at a time on a thread of its own (the renderer's threads already use every core), each with
/// a time limit, and stops a render nobody waits for any more.
///
/// Contract: ``run(limit:clientHasGone:_:)`` answers within `limit` seconds (plus 50 ms). When the limit passes, it
/// answers 503 with `{"error": "…"}` naming the limit; when the client goes first, it answers nothing useful (no one
/// reads it). Either way the render is cancelled (``RenderCancellation``): it starts no further pass, and a render
/// still queued never starts, so the queue holds only work that someone waits for.
final class RenderQueue: Sendable {
    let queue = DispatchQueue(label: "backdrop.preview.render")
    let log: @Sendable (String) -> Void

    init(log: @escaping @Sendable (String) -> Void) { self.log = log }

    func run(
        limit: Double, clientHasGone: () -> Bool,
        _ work: @escaping @Sendable (RenderCancellation) throws(BackdropError) -> HTTPResponse
    ) -> HTTPResponse {
        let cancellation = RenderCancellation()
        let finished = DispatchSemaphore(value: 0)
        let answer = RenderAnswer()
        queue.async {
            if !cancellation.isCancelled {
                do throws(BackdropError) {
                    answer.response = try work(cancellation)
                } catch {
                    answer.response = .error(error.kind == .cancelled ? 503 : 400, error.message)
                }
            }
            finished.signal()
        }
        let deadline = ContinuousClock.now + .seconds(limit)
        while finished.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if clientHasGone() {
                cancellation.cancel()
                log("a render was cancelled: its client closed the connection")
                return .error(503, "the client closed the connection")
            }
            if ContinuousClock.now >= deadline {
                cancellation.cancel()
                log("a render was cancelled: it ran over the \(limit.formatted()) s limit")
                return .error(
                    503,
                    "the render ran over the \(limit.formatted()) s limit (--render-timeout) and was cancelled; "
                        + "a smaller frame or the fast path renders sooner")
            }
        }
        return answer.response ?? .error(503, "the render was cancelled")
    }
}

/// A render's answer, written on the render thread before it signals and read after the wait.
private final class RenderAnswer: @unchecked Sendable {
    var response: HTTPResponse?
}

extension Double {
    /// `15` or `0.5`: a number of seconds as a person writes it.
    fileprivate func formatted() -> String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
