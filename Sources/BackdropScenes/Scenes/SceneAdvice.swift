import BackdropImageIO

/// Which layers of a scene cause offscreen passes on a device, and what the usual fix for each would save: the
/// advice the seed talks give (a shadow path, pre-rounded images or an overlay instead of a mask, opacity on the
/// sublayers instead of the group), priced by the same model on the same device.
public struct SceneAdvice: Sendable {
    /// One cause of offscreen passes.
    public struct Item: Sendable {
        /// The layer's name (every copy of it).
        public let layer: String
        /// What makes it go offscreen.
        public let cause: String
        /// The fix, in a sentence.
        public let fix: String
        /// Offscreen passes of this layer in one frame, and render-target switches the frame has now.
        public let offscreenPasses: Int
        /// The frame now and with the fix, ms.
        public let totalMs: Double
        public let fixedTotalMs: Double
        /// What the fix saves, ms.
        public var savedMs: Double { totalMs - fixedTotalMs }
    }

    /// The items, in the order their layers first appear: only layers with offscreen passes on this device, at most
    /// ``maximumItems``.
    public let items: [Item]

    /// The most items: each prices the whole scene again with its fix, so a scene of thousands of differently
    /// named masked layers would cost thousands of estimates (2 000 layers took 8.6 s).
    public static let maximumItems = 16

    /// The advice for `scene` on `device`.
    public init(scene: Scene, device: Device, estimator: Estimator, path: Estimator.PathChoice = .auto)
        throws(BackdropError)
    {
        let now = try estimator.estimate(scene: scene, device: device, path: path).frame
        var items: [Item] = []
        for (name, cause) in Self.causes(in: scene.layers) where items.count < Self.maximumItems {
            // A layer with no offscreen pass on this device has nothing to fix: it is off the screen, or the fix is
            // in place already (an effect view on the tint-only path).
            let passes = now.passes.filter { $0.isOffscreen && $0.gpuPass.layer == name }.count
            guard passes > 0 else { continue }
            var fixed = scene
            fixed.layers = Self.applying(cause, to: name, in: scene.layers)
            let after = try estimator.estimate(scene: fixed, device: device, path: path).frame
            items.append(
                Item(
                    layer: name, cause: cause.description, fix: cause.fix, offscreenPasses: passes,
                    totalMs: now.totalMs, fixedTotalMs: after.totalMs))
        }
        self.items = items
    }

    /// Why a layer goes offscreen.
    public enum Cause: Hashable, Sendable {
        case shadowWithoutPath, roundedCornersMask, explicitMask, groupOpacity, effectView

        var description: String {
            switch self {
            case .shadowWithoutPath: return "shadow without a path (O5)"
            case .roundedCornersMask: return "cornerRadius with masksToBounds (O1, O6)"
            case .explicitMask: return "mask layer (O1)"
            case .groupOpacity: return "group opacity (O3)"
            case .effectView: return "blur effect view (F2)"
            }
        }

        var fix: String {
            switch self {
            case .shadowWithoutPath: return "set shadowPath to the layer's outline: the shadow is drawn on screen"
            case .roundedCornersMask:
                return "pre-round the image, or draw an overlay with the corners in the background colour"
            case .explicitMask: return "draw the content pre-masked, as an image with alpha"
            case .groupOpacity: return "set the opacity on each sublayer, or flatten the group into one image"
            case .effectView:
                return
                    "the tint-only fallback (a blended tint, no offscreen pass), as iOS 7 draws on the iPhone 4, iPad 2 and 3"
            }
        }
    }

    /// Each (layer name, cause) once, in the order of the layer tree.
    static func causes(in layers: [SceneLayer]) -> [(String, Cause)] {
        var seen = Set<String>(), result: [(String, Cause)] = []
        func visit(_ layer: SceneLayer) {
            var causes: [Cause] = []
            if let shadow = layer.shadow, !shadow.path, shadow.opacity > 0 { causes.append(.shadowWithoutPath) }
            if layer.mask { causes.append(.explicitMask) } else if layer.isMasked { causes.append(.roundedCornersMask) }
            if layer.hasGroupOpacity { causes.append(.groupOpacity) }
            if layer.effect != nil { causes.append(.effectView) }
            for cause in causes where seen.insert("\(layer.name)\u{0}\(cause)").inserted {
                result.append((layer.name, cause))
            }
            layer.sublayers.forEach(visit)
        }
        layers.forEach(visit)
        return result
    }

    /// `layers` with `cause` fixed on every layer called `name`.
    static func applying(_ cause: Cause, to name: String, in layers: [SceneLayer]) -> [SceneLayer] {
        layers.map { original in
            var layer = original
            layer.sublayers = applying(cause, to: name, in: layer.sublayers)
            guard layer.name == name else { return layer }
            switch cause {
            case .shadowWithoutPath:
                layer.shadow?.path = true
            case .roundedCornersMask:
                layer.masksToBounds = false
                layer.cornerRadius = 0
                var overlay = SceneLayer(
                    name: "\(name) corner overlay",
                    frame: PointRect(
                        x: 0, y: 0, width: layer.frame.width,
                        height: layer.frame.height))
                overlay.content = .image
                layer.sublayers.append(overlay)
            case .explicitMask:
                layer.mask = false
                layer.opaque = false
            case .groupOpacity:
                layer.opacity = 1
                layer.opaque = false
                layer.sublayers = layer.sublayers.map { sublayer in
                    var copy = sublayer
                    copy.opaque = false
                    return copy
                }
            case .effectView:
                layer.effect = nil
                layer.content = .solid
                layer.opaque = false
            }
            return layer
        }
    }
}
