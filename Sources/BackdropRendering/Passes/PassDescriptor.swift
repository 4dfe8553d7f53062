import BackdropImageIO

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
    /// Whether the CPU renderer runs this pass as a step of its own. False for a GPU pass whose maths the CPU
    /// folds into the pass before it (the extra-light tint layer, see ``BlurStyle/tintIsOwnLayer``).
    public var isCPUStep: Bool
    /// GPU texture fetches per pixel written; a bilinear fetch, which reads a 2×2 footprint, counts once.
    public var gpuFetchesPerPixel: Double
    /// Texels the GPU reads from memory: the area of every texture the pass samples, each texel once (the
    /// texture cache absorbs overlapping taps). 0 for a solid colour.
    public var gpuTexelsFromMemory: Int

    /// A pass description. By default a GPU render pass that the CPU also runs, fetching `texelsPerPixel` texels
    /// one by one and reading its input texture once from memory.
    public init(
        name: String, kind: PassKind, inputSize: PixelSize, outputSize: PixelSize, texelsPerPixel: Int,
        blends: Bool, offscreen: Bool, isGPURenderPass: Bool = true, isCPUStep: Bool = true,
        gpuFetchesPerPixel: Double? = nil, gpuTexelsFromMemory: Int? = nil
    ) {
        self.name = name
        self.kind = kind
        self.inputSize = inputSize
        self.outputSize = outputSize
        self.texelsPerPixel = texelsPerPixel
        self.blends = blends
        self.offscreen = offscreen
        self.isGPURenderPass = isGPURenderPass
        self.isCPUStep = isCPUStep
        self.gpuFetchesPerPixel = gpuFetchesPerPixel ?? Double(texelsPerPixel)
        self.gpuTexelsFromMemory = gpuTexelsFromMemory ?? inputSize.area
    }

    /// Pixels the pass writes.
    public var pixelsWritten: Int { outputSize.area }
    /// Texels the pass's maths reads (its taps × pixels written).
    public var texelsRead: Int { outputSize.area * texelsPerPixel }
    /// GPU texture fetches.
    public var gpuFetches: Double { Double(outputSize.area) * gpuFetchesPerPixel }
    /// Bytes the pass itself moves to and from memory, 4 per RGBA8 texel: the textures it samples and, offscreen,
    /// the store of the texture it renders. Drawing on screen, blending included, stays in the tile-based GPU's
    /// on-chip memory; the framebuffer's own stores and loads are the timeline's (``CostModel/frame(of:on:)``).
    public var bytesMoved: Int { 4 * (gpuTexelsFromMemory + (offscreen ? pixelsWritten : 0)) }
    /// Memory for the offscreen texture the pass renders into (RGBA8); 0 when it draws on screen.
    public var textureBytes: Int { offscreen ? 4 * pixelsWritten : 0 }
}

/// The kinds of pass an effect is made of (`docs/cost-model.md`).
public enum PassKind: String, Sendable, Codable, CaseIterable {
    /// Render the content behind the view (for the CPU: crop the frame and premultiply).
    case capture
    /// Reduce the captured content by the downscale factor k.
    case downscale
    /// A system material's colour filters (luminance curve, saturation, brightness) before its blur.
    case materialFilters
    /// Liquid Glass's face over its blur: shape, rim refraction, face matrix, highlight (``GlassFacePass``).
    case glassFace
    /// Gaussian along rows of the small image.
    case horizontalBlur
    /// Gaussian along columns of the small image.
    case verticalBlur
    /// Bilinear upscale to the frame, with saturation and tint.
    case upscaleTint
    /// The tint drawn as a layer of its own over the upscaled blur (extra light on the GPU).
    case tintLayer
    /// The blur-disabled fallback: the tint alone over the content.
    case tintOnly
    /// Render the vibrant content layer into a texture.
    case vibrantContent
    /// Composite the vibrant content over the finished effect with the style's blend.
    case vibrancyFilter
    /// Write the effect into the output picture, straight alpha, quantised.
    case composite
    /// A scene layer's own content: a solid colour, an image or glyphs.
    case layer
    /// A layer's mask rendered into a texture (seed O1).
    case mask
    /// A masked layer's content composited through its mask (O1).
    case maskedComposite
    /// A layer's shape rendered offscreen to find its shadow (O5).
    case shadowShape
    /// A shadow drawn under its layer: from the blurred shape, or from an explicit path.
    case shadow
    /// A texture drawn on screen: a group rendered offscreen for its opacity (O3), or a rasterized layer
    /// from the cache (O2).
    case offscreenComposite
}

extension PassKind {
    /// The kind in words, for legends and people ("horizontal blur", "masked composite"); the raw value stays the
    /// name in JSON.
    public var words: String {
        switch self {
        case .capture: return "capture"
        case .downscale: return "downscale"
        case .materialFilters: return "material filters"
        case .glassFace: return "glass face"
        case .horizontalBlur: return "horizontal blur"
        case .verticalBlur: return "vertical blur"
        case .upscaleTint: return "upscale and tint"
        case .tintLayer: return "tint layer"
        case .tintOnly: return "tint only"
        case .vibrantContent: return "vibrant content"
        case .vibrancyFilter: return "vibrancy filter"
        case .composite: return "composite"
        case .layer: return "layer content"
        case .mask: return "mask"
        case .maskedComposite: return "masked composite"
        case .shadowShape: return "shadow shape"
        case .shadow: return "shadow"
        case .offscreenComposite: return "offscreen texture drawn"
        }
    }

    /// Whether the pass samples a texture an earlier pass of the frame rendered: the blur chain, a composite
    /// of a mask, a group, a cached layer or the vibrant content, a shadow drawn from its blurred shape. When
    /// such a pass opens a render, that render must wait for the one before it (``CostModel/frame(of:on:)``).
    /// A shadow drawn from a path also has kind `shadow` but never follows an offscreen render, so it never waits.
    public var readsEarlierRender: Bool {
        switch self {
        case .downscale, .materialFilters, .glassFace, .horizontalBlur, .verticalBlur, .upscaleTint, .vibrancyFilter,
            .maskedComposite, .shadow,
            .offscreenComposite, .composite:
            return true
        case .capture, .tintLayer, .tintOnly, .vibrantContent, .layer, .mask, .shadowShape:
            return false
        }
    }
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
    /// The pass's output as the next pass reads it; `consumer` is how that pass reads its input. By default the
    /// rows of `rows(reading:parallelism:)`, computed inline or stored as `consumer` needs
    /// (``Stage/rows(_:size:for:parallelism:)``). A pass whose rows cannot be computed one by one (a recursive
    /// filter down the columns) computes its whole output here instead.
    func output(reading input: Stage, for consumer: RowAccess, parallelism: Parallelism) -> Stage
}

extension RowPass {
    public func output(reading input: Stage, for consumer: RowAccess, parallelism: Parallelism) -> Stage {
        .rows(
            rows(reading: input, parallelism: parallelism), size: descriptor.outputSize, for: consumer,
            parallelism: parallelism)
    }
}

/// The pass that finishes the effect's colour (the upscale and tint, or the tint-only fallback): it hands the
/// composite its rows at output scale instead of premultiplied rows, so that the full-resolution work (upscale,
/// vibrancy, quantisation) happens in one pass over the output.
public protocol ColorPass: Sendable {
    /// The pass as data.
    var descriptor: PassDescriptor { get }
    /// Which input rows an output row reads; decides whether the input is stored or computed inline.
    var inputAccess: RowAccess { get }
    /// The finished effect as the composite reads it, for samples whose 1.0 is `maximum`.
    func outputRows(reading input: Stage, maximum: Float, parallelism: Parallelism) -> OutputRows
}
