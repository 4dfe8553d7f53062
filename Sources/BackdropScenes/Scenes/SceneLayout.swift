/// A layer's frame as edges and sizes of its parent, so that one scene lays out on every screen: a toolbar pinned
/// to the bottom, a card as wide as the screen. The parent of a top-level layer is the screen (the device's, in
/// points, cut to the scene's `screen` where it gives one); a sublayer's is its layer's frame.
///
/// Contract: each axis is given by exactly two of its three lengths (left, right and width; top, bottom and
/// height); each length is points or a percentage of the parent's size on that axis. An edge is the distance from
/// the parent's edge inward (`right: 0` touches the parent's right edge). Resolved, the frame's size is never
/// negative: edges that cross leave an empty frame, which draws nothing.
public struct SceneLayout: Sendable, Equatable {
    /// Points, or a percentage (0–100) of the parent's size on the axis.
    public enum Length: Sendable, Equatable, CustomStringConvertible {
        case points(Double)
        case percent(Double)

        /// The length in points in a parent `extent` points long.
        public func points(of extent: Double) -> Double {
            switch self {
            case .points(let value): return value
            case .percent(let value): return value / 100 * extent
            }
        }

        public var description: String {
            switch self {
            case .points(let value): return SceneJSON.number(value)
            case .percent(let value): return "\"\(SceneJSON.number(value))%\""
            }
        }
    }

    /// Two of each axis's three; the third nil.
    public var left, right, width: Length?
    public var top, bottom, height: Length?

    public init(
        left: Length? = nil, right: Length? = nil, width: Length? = nil, top: Length? = nil, bottom: Length? = nil,
        height: Length? = nil
    ) {
        (self.left, self.right, self.width) = (left, right, width)
        (self.top, self.bottom, self.height) = (top, bottom, height)
    }

    /// The frame in a parent of `size` points, relative to the parent's corner.
    public func frame(in size: PointSize) -> PointRect {
        let (x, w) = Self.axis(left, right, width, extent: size.width)
        let (y, h) = Self.axis(top, bottom, height, extent: size.height)
        return PointRect(x: x, y: y, width: w, height: h)
    }

    /// The start and length along one axis from two of its three lengths.
    static func axis(_ start: Length?, _ end: Length?, _ length: Length?, extent: Double) -> (Double, Double) {
        let s = start?.points(of: extent), e = end?.points(of: extent), l = length?.points(of: extent)
        switch (s, e, l) {
        case (let s?, _, let l?): return (s, max(l, 0))
        case (let s?, let e?, nil): return (s, max(extent - s - e, 0))
        case (nil, let e?, let l?): return (extent - e - max(l, 0), max(l, 0))
        default: return (0, 0)  // the parser refuses any other combination
        }
    }

    /// The layout's keys and values, in the order a scene file writes them.
    var fields: [(String, Length)] {
        [
            ("left", left), ("right", right), ("width", width), ("top", top), ("bottom", bottom),
            ("height", height),
        ].compactMap { key, value in value.map { (key, $0) } }
    }
}

extension Scene {
    /// The scene on a screen of `screen` points: every layer's frame that a ``SceneLayout`` gives resolved in its
    /// parent (the screen, cut to ``screen`` where the scene gives one), sublayers and vibrant layers in theirs.
    /// A scene with no layout comes back as it is.
    public func laidOut(on screen: PointSize) -> Scene {
        guard Self.hasLayout(layers) else { return self }
        var scene = self
        let parent =
            self.screen.map { PointSize(width: min($0.width, screen.width), height: min($0.height, screen.height)) }
            ?? screen
        scene.layers = Self.laidOut(layers, in: parent)
        return scene
    }

    static func laidOut(_ layers: [SceneLayer], in parent: PointSize) -> [SceneLayer] {
        layers.map { layer in
            var layer = layer
            if let layout = layer.layout { layer.frame = layout.frame(in: parent) }
            let size = PointSize(width: layer.frame.width, height: layer.frame.height)
            layer.sublayers = laidOut(layer.sublayers, in: size)
            if var effect = layer.effect {
                effect.vibrancy = laidOut(effect.vibrancy, in: size)
                layer.effect = effect
            }
            return layer
        }
    }

    static func hasLayout(_ layers: [SceneLayer]) -> Bool {
        layers.contains {
            $0.layout != nil || hasLayout($0.sublayers) || hasLayout($0.effect?.vibrancy ?? [])
        }
    }
}
