import BackdropImageIO
import BackdropRendering

/// A whole screen as the GPU draws it: layers back to front, as in `docs/scene-format.md`. Frames are in
/// points, in the parent's coordinates. ``ScenePlanner`` turns a scene into the passes of one frame on a device;
/// ``SceneParser`` reads the JSON form.
public struct Scene: Sendable, Equatable {
    /// How the screen changes from frame to frame.
    public enum Redraw: String, Sendable, Codable, CaseIterable {
        /// Every layer is drawn every frame.
        case scrolling
        /// Nothing changes: a frame after the first draws only what is animating (seed B5).
        case `static`
    }

    /// The scene's name, e.g. "photos-table-shadows".
    public var name: String
    /// What the scene shows and where its geometry comes from.
    public var description: String
    /// How the screen changes.
    public var redraw: Redraw
    /// The screen in points; nil: the device's own screen.
    public var screen: PointSize?
    /// The layers, back to front.
    public var layers: [SceneLayer]
    /// The folder that the layers' `image` paths are relative to (the scene file's); nil for a built-in scene or
    /// one read from bytes, which may not name images.
    public var folder: String?

    /// A scene.
    public init(
        name: String, description: String = "", redraw: Redraw = .scrolling, screen: PointSize? = nil,
        layers: [SceneLayer], folder: String? = nil
    ) {
        self.name = name
        self.description = description
        self.redraw = redraw
        self.screen = screen
        self.layers = layers
        self.folder = folder
    }

    /// The styles of the scene's effect views, each once (by name), back to front and sublayers after their layer.
    public var effectStyles: [BlurStyle] {
        var styles: [BlurStyle] = []
        func visit(_ layers: [SceneLayer]) {
            for layer in layers {
                if let style = layer.effect?.style, !styles.contains(where: { $0.name == style.name }) {
                    styles.append(style)
                }
                visit(layer.sublayers)
            }
        }
        visit(layers)
        return styles
    }
}

/// A size in points.
public struct PointSize: Sendable, Equatable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// A rectangle in points.
public struct PointRect: Sendable, Equatable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The part inside `other`; empty (zero size) when they do not overlap.
    public func intersection(_ other: PointRect) -> PointRect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        return PointRect(
            x: x0, y: y0, width: max(0, min(maxX, other.maxX) - x0), height: max(0, min(maxY, other.maxY) - y0))
    }

    /// This rectangle moved by (dx, dy).
    public func offsetBy(_ dx: Double, _ dy: Double) -> PointRect {
        PointRect(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// This rectangle moved in by `inset` on every side; a negative inset grows it.
    public func insetBy(_ inset: Double) -> PointRect {
        PointRect(x: x + inset, y: y + inset, width: width - 2 * inset, height: height - 2 * inset)
    }

    /// The smallest rectangle holding both.
    public func union(_ other: PointRect) -> PointRect {
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return PointRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// The pixels of this rectangle at `scale`, edges rounded to whole pixels; an edge beyond
    /// ±``PixelRect/coordinateLimit`` (a layer repeated far off the screen) is held at the limit, which lies off
    /// every screen just as well.
    public func pixels(scale: Double) -> PixelRect {
        func edge(_ value: Double) -> Int {
            PixelRect.coordinate(value) ?? (value < 0 ? -PixelRect.coordinateLimit : PixelRect.coordinateLimit)
        }
        let x0 = edge(x * scale), y0 = edge(y * scale), x1 = edge(maxX * scale), y1 = edge(maxY * scale)
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// "x,y,w,h" in points.
    public var description: String {
        [x, y, width, height].map { $0.rounded() == $0 ? String(Int($0)) : String($0) }.joined(separator: ",")
    }
}

/// One layer of a scene (a CALayer, or a UIVisualEffectView with `effect`).
public struct SceneLayer: Sendable, Equatable {
    /// What the layer draws itself.
    public enum Content: String, Sendable, CaseIterable {
        /// A solid colour.
        case solid
        /// A picture: one texel read per pixel.
        case image
        /// Glyphs: blended, covering about a third of the frame.
        case text
        /// Nothing of its own.
        case none
    }

    /// A Core Animation shadow.
    public struct Shadow: Sendable, Equatable {
        /// Blur radius in points (CALayer.shadowRadius, taken as the Gaussian's σ).
        public var radius: Double
        /// Offset in points.
        public var offsetX: Double
        public var offsetY: Double
        /// Opacity, 0–1.
        public var opacity: Double
        /// Whether the layer sets shadowPath: the shadow is drawn from the path, with no offscreen pass (O5).
        public var path: Bool

        public init(radius: Double, offsetX: Double = 0, offsetY: Double = 0, opacity: Double = 1, path: Bool = false) {
            self.radius = radius
            self.offsetX = offsetX
            self.offsetY = offsetY
            self.opacity = opacity
            self.path = path
        }
    }

    /// A visual effect view over what lies behind the layer's frame.
    public struct EffectView: Sendable, Equatable {
        /// The blur style.
        public var style: BlurStyle
        /// Vibrant layers inside the view: their union is the vibrant content (passes 6 and 7).
        public var vibrancy: [SceneLayer]

        public init(style: BlurStyle, vibrancy: [SceneLayer] = []) {
            self.style = style
            self.vibrancy = vibrancy
        }
    }

    /// Copies of a layer (table cells).
    public struct Repeat: Sendable, Equatable {
        /// How many copies, the layer itself included.
        public var count: Int
        /// The offset from one copy to the next, points.
        public var dx: Double
        public var dy: Double

        public init(count: Int, dx: Double, dy: Double) {
            self.count = count
            self.dx = dx
            self.dy = dy
        }
    }

    public var name: String
    /// In the parent's coordinates, points.
    public var frame: PointRect
    /// The frame as edges and sizes of the parent, when the scene gives it so: ``frame`` is then its layout on the
    /// largest screen, and the planner lays it out again on each device's (``Scene/laidOut(on:)``).
    public var layout: SceneLayout?
    public var content: Content = .none
    /// The colour a `solid` layer fills with or a `text` layer's glyphs take (nil: ``SceneColor/defaultFill`` or
    /// ``SceneColor/defaultText``). Only the picture uses it: the price of a draw does not depend on its colour.
    public var color: SceneColor?
    /// An `image` layer's PNG, relative to ``Scene/folder`` and inside it, drawn scaled to the frame (nil: a
    /// deterministic placeholder picture).
    public var image: String?
    /// Drawn without blending.
    public var opaque = false
    /// Below 1 with sublayers: group opacity, one offscreen pass for the group (O3).
    public var opacity = 1.0
    public var cornerRadius = 0.0
    public var masksToBounds = false
    /// An explicit mask layer (O1).
    public var mask = false
    public var shadow: Shadow?
    /// shouldRasterize (O2).
    public var rasterize = false
    public var effect: EffectView?
    /// Groups the Liquid Glass effect views among its sublayers as SwiftUI's `GlassEffectContainer` does: they
    /// share one capture and one blur of the backdrop behind all of them, each adding only its own face and
    /// composite (``ScenePlanner``). False: each glass view captures and blurs on its own.
    public var glassContainer = false
    /// Redrawn every frame even in a static scene.
    public var animating = false
    /// Moves up as the screen scrolls (`backdrop estimate --duration --scroll`); a repeated scrolling layer's copies
    /// are reused at the bottom as they leave the top, as a table's cells are.
    public var scrolls = false
    public var repeats: Repeat?
    public var sublayers: [SceneLayer] = []

    /// A layer named `name` at `frame`; every other property as the scene format's defaults.
    public init(name: String, frame: PointRect) {
        self.name = name
        self.frame = frame
    }

    /// Whether the layer's content is drawn through a mask: an explicit mask, or rounded corners that clip.
    public var isMasked: Bool { mask || (cornerRadius > 0 && masksToBounds) }
    /// Whether the layer is composited as a group: opacity below 1 over sublayers.
    public var hasGroupOpacity: Bool { opacity < 1 && !sublayers.isEmpty }
}
