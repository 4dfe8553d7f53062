/// What a pass is, as data: the renderer executes passes in this form's order and the cost model prices them.
public struct PassDescriptor: Sendable, Codable, Equatable {
    /// A person's name for the pass ("horizontal blur").
    public var name: String
    /// What the pass does.
    public var kind: PassKind
    /// Size of the texture (or region) the pass reads.
    public var inputSize: PixelSize
    /// Size of what the pass writes.
    public var outputSize: PixelSize
    /// Texels the pass reads for each pixel it writes (its taps).
    public var texelsPerPixel: Int
    /// Whether the GPU blends the pass's output over what is already in the target.
    public var blends: Bool
    /// Whether the GPU renders the pass into an offscreen texture, with a render-target switch (an idle gap)
    /// after it (seed figures F3, V2).
    public var offscreen: Bool
    /// Whether the GPU runs this as a render pass of its own. The CPU's final composite is not one: on the GPU
    /// the upscale-and-tint (or tint) pass draws straight into the framebuffer.
    public var isGPURenderPass: Bool

    /// A pass description; `isGPURenderPass` is false only for the CPU-side composite.
    public init(name: String, kind: PassKind, inputSize: PixelSize, outputSize: PixelSize, texelsPerPixel: Int,
                blends: Bool, offscreen: Bool, isGPURenderPass: Bool = true) {
        self.name = name
        self.kind = kind
        self.inputSize = inputSize
        self.outputSize = outputSize
        self.texelsPerPixel = texelsPerPixel
        self.blends = blends
        self.offscreen = offscreen
        self.isGPURenderPass = isGPURenderPass
    }

    /// Pixels the pass writes.
    public var pixelsWritten: Int { outputSize.area }
    /// Texels the pass reads.
    public var texelsRead: Int { outputSize.area * texelsPerPixel }
}

/// The kinds of pass an effect is made of (`../shared/spec/cost-model.md`).
public enum PassKind: String, Sendable, Codable, CaseIterable {
    /// Render the content behind the view (for the CPU: crop the frame and premultiply).
    case capture
    /// Reduce the captured content by the downscale factor k.
    case downscale
    /// Gaussian along rows of the small image.
    case horizontalBlur
    /// Gaussian along columns of the small image.
    case verticalBlur
    /// Bilinear upscale to the frame, with saturation and tint.
    case upscaleTint
    /// The blur-disabled fallback: the tint alone over the content.
    case tintOnly
    /// Render the vibrant content layer into a texture.
    case vibrantContent
    /// Composite the vibrant content over the finished effect with the style's blend.
    case vibrancyFilter
    /// Write the effect into the output picture, straight alpha, quantised.
    case composite
}

/// A pass that turns the rows of its input stage into rows of its output, premultiplied RGBA in `Float`.
///
/// Each conforming type keeps its maths readable in one place (`rows(reading:parallelism:)`); when its rows are
/// computed, and on which thread, is the executor's business (``Renderer``).
public protocol RowPass: Sendable {
    /// The pass as data.
    var descriptor: PassDescriptor { get }
    /// Which input rows an output row reads; decides whether the input is stored or computed inline.
    var inputAccess: RowAccess { get }
    /// A function computing any output row from `input`. `parallelism` is for set-up work the pass may do once.
    func rows(reading input: Stage, parallelism: Parallelism) -> RowFunction
}
