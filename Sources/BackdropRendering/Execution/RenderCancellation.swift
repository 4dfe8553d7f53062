import BackdropImageIO
import Synchronization

/// A request to stop a render, set from any thread (the preview server's, when a client goes or a render's time
/// runs out) and read by the renderer between passes.
///
/// Contract: once ``cancel()`` is called, ``Renderer/render(_:effect:vibrantContent:cancellation:)`` starts no
/// further pass and throws ``BackdropError/Kind/cancelled``; a pass already running finishes first, so the delay is
/// at most one pass (a full-resolution pass of the exact path is the longest: about 40 ms for a 12-megapixel
/// picture on a 2-core x86-64 machine).
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
