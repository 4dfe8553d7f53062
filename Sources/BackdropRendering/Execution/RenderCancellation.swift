import BackdropImageIO
import Synchronization

/// A request to stop a render, set from any thread (the preview server's, when a client goes or a render's time
/// runs out) and read by the renderer between passes and between the pieces of a pass.
///
/// Contract: once ``cancel()`` is called, ``Renderer/render(_:effect:vibrantContent:cancellation:)`` starts no
/// further pass nor piece of a pass (``Parallelism/cancellation``: a band cut in up to 16 pieces) and throws
/// ``BackdropError/Kind/cancelled``; the pieces already running finish first, so the delay is at most a piece of one
/// pass on each thread.
public final class RenderCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public func cancel() { flag.store(true, ordering: .relaxed) }

    public var isCancelled: Bool { flag.load(ordering: .relaxed) }

    /// Throws ``BackdropError/Kind/cancelled`` once ``cancel()`` was called: work of other kinds (a scene's
    /// layers, its devices) calls it between its steps.
    public func check() throws(BackdropError) {
        if isCancelled { throw BackdropError(.cancelled, "the render was cancelled") }
    }
}
