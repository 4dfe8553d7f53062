import BackdropImageIO
import BackdropRendering

/// What ``ScenePlanner`` decided for one frame, in the form a picture is drawn from: the draws in the GPU's order
/// (``Command``) and each drawn layer with the decisions Instruments' colour debug options show (``Layer``). The
/// planner records both at the very places it appends the passes the cost model prices, so a scene's picture,
/// its overlays and its price cannot disagree. Coordinates are the device's screen pixels (points × scale), not
/// rounded: edges between pixels are drawn anti-aliased.
public struct SceneDrawing: Sendable {
    /// A rectangle in pixels with rounded corners (radius 0: square), not necessarily on whole pixels.
    public struct Shape: Sendable, Equatable {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double
        public var radius: Double

        public init(x: Double, y: Double, width: Double, height: Double, radius: Double = 0) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.radius = radius
        }

        /// `rect` (points) at `scale`, its corners rounded by `radius` points.
        init(_ rect: PointRect, scale: Double, radius: Double = 0) {
            self.init(
                x: rect.x * scale, y: rect.y * scale, width: rect.width * scale, height: rect.height * scale,
                radius: radius * scale)
        }

        /// Whether every edge lies on a whole pixel.
        public var isPixelAligned: Bool {
            [x, y, x + width, y + height].allSatisfy { $0.rounded() == $0 }
        }
    }

    /// Where an image layer's pixels come from.
    public enum Picture: Sendable, Equatable {
        /// A PNG file (the scene's `image` key, resolved) drawn scaled to the layer's frame.
        case file(String)
        /// A deterministic placeholder, its colours chosen by `seed` (from the layer's name).
        case placeholder(seed: UInt64)
    }

    /// One step of the picture, in order.
    public indirect enum Command: Sendable, Equatable {
        /// A solid shape in `color`, times `opacity`, clipped to `clip`.
        case fill(Shape, color: SceneColor, opacity: Double, clip: Shape)
        /// `layer`'s picture scaled to its frame, cut to its corners' shape, times `opacity`, clipped to `clip`.
        case image(Shape, layer: String, picture: Picture, opacity: Double, clip: Shape)
        /// Placeholder glyph runs over about a third of `frame`, in `color`.
        case text(Shape, color: SceneColor, opacity: Double, clip: Shape)
        /// A shadow: `shape` (already offset) blurred as `rule` says (reduced, blurred there, scaled back up),
        /// black at `opacity`, clipped to `clip`.
        case shadow(Shape, rule: ShadowRule, opacity: Double, clip: Shape)
        /// The start of a group drawn into a texture of its own covering `bounds` (masks, group opacity,
        /// rasterization).
        case beginGroup(bounds: PixelRect)
        /// The group's texture composited over what lies below: times `opacity`, and through `mask` when the
        /// layer masks (anti-aliased rounded corners).
        case endGroup(opacity: Double, mask: Shape?)
        /// An effect view: the render plan of `style` on `path` over what lies below inside `frame`, exactly as
        /// `backdrop render --frame` draws it over a picture; `vibrancy`'s draws are its vibrant content, placed at
        /// `vibrancyFrame`.
        case effect(
            frame: PixelRect, style: BlurStyle, path: Effect.Path, vibrancyFrame: PixelRect?, vibrancy: [Command])
    }

    /// One drawn layer (a copy of a repeated one counts once each) and what the planner decided for it.
    public struct Layer: Sendable, Equatable {
        /// The layer's name.
        public var name: String
        /// Its frame on the screen, corners rounded as it draws them.
        public var shape: Shape
        /// The part of the screen it may touch (its parents' clips).
        public var clip: Shape
        /// The offscreen passes the layer itself adds (mask, group, shadow, effect view), not its sublayers'.
        public var offscreenPasses: Int
        /// Whether its own content is drawn blended; nil when it draws no content.
        public var blended: Bool?
        /// For a rasterized layer: whether this frame draws it from the cache (a hit) or renders it (a miss).
        public var rasterCacheHit: Bool?
        /// The picture an image layer draws (the picture step knows whether a file's is scaled); nil for others.
        public var picture: Picture?
    }

    /// The draws, in order.
    public var commands: [Command] = []
    /// The drawn layers, in the order they are drawn.
    public var layers: [Layer] = []

    /// The effect views drawn on the blur path (``ScenePlanner/Frame/blurredEffectViews`` of the frame drawn).
    public var blurredEffectViews: Int {
        commands.count { command in
            if case .effect(_, _, let path, _, _) = command { path == .blur } else { false }
        }
    }
}

extension SceneDrawing {
    /// A placeholder's seed from a layer's name (FNV-1a of its UTF-8): the same name, the same picture.
    public static func seed(_ name: String) -> UInt64 {
        FNV1a.hash(name.utf8)
    }
}
