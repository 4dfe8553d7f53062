import BackdropRendering

/// How Core Animation draws a layer's shadow: the one rule the planner prices, the picture draws and the overlay
/// shows. No public source gives what iOS 7 and 8 ran on the SGX GPUs; this is the rule chosen from what public
/// sources do say (`docs/shadows.md` lists them), kept in this one place so that a better source replaces it here.
///
/// - **Three ways, as QuartzCore's `ShadowNode::apply` branches** (a public decompile): a layer with a
///   `shadowPath` draws the path's shadow (``Kind/path``); a layer whose alpha is its own rounded rectangle (a
///   solid fill with nothing drawn over it) gets the analytic rounded-rectangle shadow of
///   `emit_shadow_corner_contents`, one draw and no blur (``Kind/roundedRectangle``); any other layer's shadow is
///   made from its composited alpha, rendered offscreen (Apple's `CALayer.shadowPath` documentation), then
///   blurred (``Kind/composited``).
/// - **σ = the radius** in points × the scale (Bjango: a `shadowRadius` of r matches a CSS blur of 2r, σ = r).
/// - **The blur runs at a reduced resolution**: Core Animation's Gaussian (`Context::blur_surface`, states
///   `downsample_blur_2`/`_4`, shaders `downsample_4_frag`, `downsample_8_frag`, `single_pass_blur_3`) reduces the
///   picture by 2, 4 or 8 before short passes. The rule: the smallest of 1, 2, 4 and 8 that brings σ to at most
///   ``largestReducedSigma`` pixels of the reduced picture (8 past σ = 8 px), reached by halving, one render a
///   halving (``halvings``: the states that step the reduction), then a horizontal and a vertical Gaussian of
///   σ ÷ that factor there, and the result scaled back up as the shadow is drawn. So a shadow costs what its
///   pixels cost at full resolution (its shape, the first halving's reads, the final draw) plus renders on
///   pictures 4 to 64 times smaller: it grows with the pixels it covers, not with its radius, and its chain of
///   dependent renders, each waiting for the one before, is what makes it dear on a tile-based GPU.
/// - **A path's shadow is cached** (WWDC 2010: `shadowPath` "lets the compositor cache a shadow bitmap"): its
///   first frame renders it offscreen as a composited shadow is, later frames draw it from the cache. Over time
///   (``SceneRun``) it is kept, at its reduced size, in the same cache as rasterized layers (O2: 2.5 screens, an
///   entry unused for 100 ms evicted).
/// - **Its reach**: the reduced kernel's radius (⌈4σ⌉ reduced pixels, ``GaussianKernel``) × the factor.
public struct ShadowRule: Sendable, Equatable {
    /// Which of Core Animation's three ways draws the shadow.
    public enum Kind: String, Sendable, Codable {
        /// `shadowPath` is set: the path's shadow, cached after its first frame.
        case path
        /// The layer is a solid rounded rectangle: its shadow is drawn analytically, without a blur.
        case roundedRectangle = "rounded rectangle"
        /// The layer's composited alpha rendered offscreen and blurred, every frame.
        case composited
    }

    /// The way.
    public let kind: Kind
    /// The Gaussian's σ at full resolution, pixels.
    public let sigmaPixels: Double
    /// How much the blur reduces the picture first: 1, 2, 4 or 8.
    public let downsample: Int
    /// The Gaussian run on the reduced picture (σ ÷ ``downsample``).
    public let reducedKernel: GaussianKernel

    /// The most σ, in reduced pixels, before the next reduction is taken.
    public static let largestReducedSigma = 1.0
    /// The reductions Core Animation's blur has.
    public static let downsampleFactors = [1, 2, 4, 8]

    /// The rule for `shadow` under `layer` at `scale` pixels a point.
    public init(_ shadow: SceneLayer.Shadow, of layer: SceneLayer, scale: Double) {
        self.init(kind: Self.kind(of: shadow, under: layer), sigmaPixels: shadow.radius * scale)
    }

    /// The way `shadow` under `layer` is drawn.
    public static func kind(of shadow: SceneLayer.Shadow, under layer: SceneLayer) -> Kind {
        if shadow.path { return .path }
        if layer.content == .solid, layer.sublayers.isEmpty, layer.effect == nil, !layer.mask {
            return .roundedRectangle
        }
        return .composited
    }

    /// The rule of `kind` for a Gaussian of σ `sigmaPixels`.
    public init(kind: Kind, sigmaPixels: Double) {
        let sigma = max(sigmaPixels, 0)
        let factor =
            Self.downsampleFactors.first { sigma / Double($0) <= Self.largestReducedSigma }
            ?? Self.downsampleFactors.last!
        self.kind = kind
        self.sigmaPixels = sigma
        downsample = factor
        reducedKernel = GaussianKernel(sigma: sigma / Double(factor))
    }

    /// The renders that reduce the picture, each by half: log₂ ``downsample``.
    public var halvings: Int { downsample.trailingZeroBitCount }

    /// How far the shadow reaches beyond its shape, full-resolution pixels.
    public var reachPixels: Int { reducedKernel.radius * downsample }

    /// Whether this frame renders the shadow offscreen: always for a composited one, on a cache miss for a path's.
    public func rendersOffscreen(cached: Bool) -> Bool {
        switch kind {
        case .composited: return true
        case .path: return !cached
        case .roundedRectangle: return false
        }
    }

    /// The most passes a shadow of `kind` adds to a frame: its shape, three halvings, two blurs and the draw; one
    /// draw for the rounded rectangle's.
    public static func maximumPassCount(_ kind: Kind) -> Int { kind == .roundedRectangle ? 1 : 7 }
}
