import BackdropRendering

/// Where a GPU pass draws: the framebuffer, or an offscreen texture of its own.
public enum RenderTarget: Hashable, Sendable {
    /// The framebuffer, on screen.
    case screen
    /// Offscreen texture number n of the frame.
    case texture(Int)
}

/// One pass as the GPU runs it in a frame: what it does (``PassDescriptor``), which layer of a scene it comes
/// from, and the render target it draws into. Consecutive passes into different targets are a render-target
/// switch (``CostModel/frame(of:on:)``).
public struct GPUPass: Sendable, Equatable {
    /// What the pass does.
    public let descriptor: PassDescriptor
    /// The layer it draws (a scene layer's name, or "effect view").
    public let layer: String
    /// Where it draws.
    public let target: RenderTarget

    /// A pass of `layer` into `target`.
    public init(_ descriptor: PassDescriptor, layer: String, target: RenderTarget) {
        self.descriptor = descriptor
        self.layer = layer
        self.target = target
    }
}
