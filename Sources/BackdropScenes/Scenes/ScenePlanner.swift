import BackdropImageIO
import BackdropRendering

/// Turns a ``Scene`` into the GPU passes of one frame on a device: what Core Animation's render server draws,
/// in its order (back to front, depth first), each offscreen pass at the place of the layer that needs it.
///
/// How each layer becomes passes (`docs/scene-format.md`; seed figures in brackets):
/// - its content: one draw of its visible pixels; `text` covers a third of them; blended unless opaque;
///   an image reads its texture once from memory;
/// - a shadow, as ``ShadowRule`` says Core Animation draws it: without a path [O5], the layer's alpha rendered
///   offscreen over the shadow's bounds, reduced by the rule's factor, a horizontal and a vertical blur of the
///   reduced texture (the renderer's own ``GaussianKernel`` and passes), each into a texture of its own, then the
///   shadow drawn from it; with a path, the same in the frame that misses the cache, one draw after it; a solid
///   rounded rectangle's shadow, one draw;
/// - a mask, or rounded corners that clip [O1]: the mask rendered into a texture, the layer and its
///   sublayers into another, then both composited;
/// - group opacity [O3]: the layer and its sublayers into a texture, then composited;
/// - rasterization [O2]: the same as group opacity in the first frame; after it, one draw from the cache while
///   the rasterized layers fit in 2.5 screens, rendered again every frame beyond that;
/// - an effect view: the render plan's GPU passes for its visible frame (``RenderPlan``), vibrant layers as
///   passes 6 and 7 over their union. On the tint-only path the content behind is already on screen, so the
///   plan's capture is left out when anything was drawn before the view; the blur path renders it again
///   into a texture, as seed F2's pass 1 does.
///
/// Layers wholly off the screen, or outside a parent that masks to its bounds, add nothing; layers partly off
/// it add their visible part. In a static scene a frame after the first draws only animating layers [B5].
public struct ScenePlanner {
    /// The device the frame is for.
    public let device: Device
    /// Blur or tint-only for an effect view of `style` on this device.
    public let path: @Sendable (BlurStyle) -> Effect.Path
    /// The device's display settings: under Reduce Transparency every effect view is drawn and priced on the
    /// tint-only path with its reduced-transparency look (``Effect/applying(_:)``). Off by default.
    public var accessibility = AccessibilitySettings.none
    /// The path of a system material's or a glass's effect view: blur (the default: every device that runs iOS 13
    /// or 26 blurs them, a what-if on the older ones), or tint-only when a caller asks for it outright (`--path
    /// tint-only` on one view: the material's flat average colour, glass's face over it, as ``RenderPlan`` draws it).
    public var materialPath = Effect.Path.blur

    /// A planner for `device`, choosing each effect view's path with `path`.
    public init(device: Device, path: @escaping @Sendable (BlurStyle) -> Effect.Path) {
        self.device = device
        self.path = path
    }

    /// A planner for `device` that puts every effect view on `path`.
    public init(device: Device, path: Effect.Path) {
        self.init(device: device, path: { _ in path })
    }

    /// A planner for `device` with each effect view's path as `choice` gives it, the one rule for a whole screen:
    /// an iOS 7 style's from `estimator` (`auto`: the device's decision); a system material or glass blurred,
    /// unless tint-only is asked for outright (``materialPath``), as one view of it is drawn.
    public init(device: Device, choice: Estimator.PathChoice, estimator: Estimator = Estimator()) {
        self.init(device: device, path: estimator.path(choice, on: device))
        materialPath = choice == .tintOnly ? .tintOnly : .blur
    }

    /// The most passes `layer` adds to a frame itself (its sublayers add their own): its content, its shadow, its
    /// group's mask and composite, its effect view's plan. ``SceneWork`` bounds a scene's frames with it before
    /// planning: it must never count fewer than the walk below adds.
    static func maximumPasses(ownedBy layer: SceneLayer) -> Int {
        let content = layer.content == .none ? 0 : 1
        let shadow = layer.shadow.map { ShadowRule.maximumPassCount(ShadowRule.kind(of: $0, under: layer)) } ?? 0
        let group = layer.isMasked ? 2 : (layer.hasGroupOpacity || layer.rasterize) ? 1 : 0
        let effect = layer.effect == nil ? 0 : RenderPlan.maximumPassCount
        return content + shadow + group + effect
    }

    /// The rasterization cache's limit: 2.5 screens of RGBA8 (seed O2).
    public var rasterCacheLimitBytes: Int { Int(2.5 * Double(4 * device.screen.area)) }

    /// One frame's passes.
    public struct Frame: Sendable {
        /// The passes in the order the GPU runs them.
        public var passes: [GPUPass] = []
        /// Bytes of rasterized layers the cache holds (or would have to).
        public var rasterCacheBytes = 0
        /// The picture's draws and the layers' decisions, when asked for (``SceneDrawing``).
        public var drawing: SceneDrawing?
        /// The effect views planned on the blur path: on a device whose path is tint-only, the system materials and
        /// glass that still blur (``materialPath``).
        public var blurredEffectViews = 0
    }

    /// The words for where a frame's effect views go: `path`'s ("blurred", "tint-only"), and on the tint-only path
    /// with views that still blur (system materials and glass, a what-if), "tint-only; materials and glass blurred".
    public static func effectViewWords(path: Effect.Path, blurredEffectViews: Int) -> String {
        path == .blur ? "blurred" : blurredEffectViews == 0 ? "tint-only" : "tint-only; materials and glass blurred"
    }

    /// Whether a rasterized layer's texture is drawn from the cache this frame: asked once per visible rasterized
    /// layer, in drawing order, with its identity and its texture's bytes (``SceneRun`` keeps the cache).
    public typealias RasterCache = (_ key: RasterKey, _ bytes: Int) -> Bool

    /// Which rasterized texture a layer draws: its place in the tree (names and copy numbers) and, for a copy of a
    /// scrolling repeated layer, how many times the table has reused it (a reused cell's content is new).
    public struct RasterKey: Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var reuse: Int
        public init(path: String, reuse: Int = 0) {
            self.path = path
            self.reuse = reuse
        }
        public var description: String { reuse == 0 ? path : "\(path) (reused \(reuse)×)" }
    }

    /// The passes of `scene`'s first frame (`steady` false), or of a frame after it (`steady` true): the same for
    /// a scrolling scene; for a static one, only what animates. With `drawing`, also what the picture of that
    /// frame draws, decided in the same walk. `scrollOffset` (points) moves the layers that scroll up, copies of a
    /// repeated scrolling layer that leave the top coming back at the bottom; `rasterCache` decides each
    /// rasterized layer's hit or miss (without it: hits in a steady frame while they fit in the cache, misses in
    /// a first frame).
    public func frame(
        of scene: Scene, steady: Bool, drawing: Bool = false, scrollOffset: Double = 0,
        rasterCache: RasterCache? = nil
    ) throws(BackdropError) -> Frame {
        let points = device.screenPoints
        let scene = scene.laidOut(on: PointSize(width: points.width, height: points.height))
        var walk = Walk(planner: self, steady: steady, isStatic: scene.redraw == .static, folder: scene.folder)
        walk.scrollOffset = scrollOffset
        walk.rasterCache = rasterCache
        if drawing { walk.frame.drawing = SceneDrawing() }
        let screen = PointRect(x: 0, y: 0, width: device.screenPoints.width, height: device.screenPoints.height)
        let clip =
            scene.screen.map { screen.intersection(PointRect(x: 0, y: 0, width: $0.width, height: $0.height)) }
            ?? screen
        try walk.add(scene.layers, originX: 0, originY: 0, clip: clip, target: .screen, animating: false)
        return walk.frame
    }

    /// The state of one walk over the layer tree.
    struct Walk {
        let planner: ScenePlanner
        let steady: Bool
        let isStatic: Bool
        /// Where image paths are relative to.
        let folder: String?
        var frame = Frame()
        var textures = 0
        /// The textures each layer being walked has added itself, innermost last.
        var ownTextures: [Int] = []
        /// While a rasterized layer's cached picture is walked for the drawing only: no passes, no cache bytes.
        var drawingOnly = false
        /// How far the scrolling layers have moved up, points.
        var scrollOffset = 0.0
        /// The caller's cache, when it keeps one.
        var rasterCache: RasterCache?
        /// The raster key of the layer being walked, innermost last.
        var keyPath: [String] = []
        var reuse = 0
        var drewOnScreen = false
        /// Shadow rules by kind and σ in pixels: a table repeats one shadow thousands of times, and a rule's kernel
        /// is computed once (a 1000 pt shadow radius repeated 10 000 times took 7.5 s without it).
        var shadowRules: [ShadowKey: ShadowRule] = [:]
        /// The shadow blurs' descriptors (the reduction, if any, and the two blurs) by σ, reduction and size:
        /// setting a blur pass up prepares its weights.
        var shadowBlurs: [BlurKey: ([PassDescriptor], PassDescriptor, PassDescriptor)] = [:]
        /// The glass container being walked, innermost last: the union of its glass views' visible frames (points),
        /// and whether its one capture and blur have been planned (by its first glass view).
        var glassContainers: [(union: PointRect, shared: Bool)] = []

        /// A shadow's reduction (a halving a render) and its two blurs on the reduced picture, for a shape of `size`.
        static func shadowBlur(_ rule: ShadowRule, size: PixelSize) -> (
            [PassDescriptor], PassDescriptor, PassDescriptor
        ) {
            var halvings: [PassDescriptor] = []
            var reduced = size
            for _ in 0..<rule.halvings {
                let halving = DownscalePass(factor: 2, inputSize: reduced).descriptor
                halvings.append(halving)
                reduced = halving.outputSize
            }
            return (
                halvings, HorizontalBlurPass(kernel: rule.reducedKernel, size: reduced).descriptor,
                VerticalBlurPass(kernel: rule.reducedKernel, size: reduced).descriptor
            )
        }

        struct ShadowKey: Hashable {
            let kind: ShadowRule.Kind
            let sigma: Double
        }

        struct BlurKey: Hashable {
            let sigma: Double
            let downsample: Int
            let size: PixelSize
        }

        var scale: Double { planner.device.scale }

        mutating func newTexture() -> RenderTarget {
            textures += 1
            if !ownTextures.isEmpty { ownTextures[ownTextures.count - 1] += 1 }
            return .texture(textures)
        }

        /// Adds `command` to the picture, when one is recorded.
        mutating func record(_ command: SceneDrawing.Command) {
            frame.drawing?.commands.append(command)
        }

        /// `rect` in pixels, its corners rounded by `radius` points.
        func shape(_ rect: PointRect, radius: Double = 0) -> SceneDrawing.Shape {
            SceneDrawing.Shape(rect, scale: scale, radius: radius)
        }

        /// `descriptor` drawn into `target`: offscreen (its pixels stored when it ends) unless on screen.
        mutating func append(_ descriptor: PassDescriptor, _ layer: String, _ target: RenderTarget) {
            guard descriptor.pixelsWritten > 0, !drawingOnly else { return }
            var pass = descriptor
            pass.offscreen = target != .screen
            frame.passes.append(GPUPass(pass, layer: layer, target: target))
            if target == .screen { drewOnScreen = true }
        }

        mutating func add(
            _ layers: [SceneLayer], originX: Double, originY: Double, clip: PointRect,
            target: RenderTarget, animating: Bool
        ) throws(BackdropError) {
            for layer in layers {
                let copies = layer.repeats?.count ?? 1
                for copy in 0..<copies {
                    // For a caller that did not check the scene's work first (``SceneWork/Budget``).
                    let limit = SceneWork.Budget.standard.passesPerFrame
                    guard frame.passes.count <= limit else {
                        throw BackdropError(
                            .badInput,
                            "the scene's frame needs more than \(limit) passes (at layer '\(layer.name)')")
                    }
                    let dx = Double(copy) * (layer.repeats?.dx ?? 0)
                    var dy = Double(copy) * (layer.repeats?.dy ?? 0)
                    let outerReuse = reuse
                    defer { reuse = outerReuse }
                    if layer.scrolls {
                        dy -= scrollOffset
                        // A copy wholly above the top comes back below the last one, as a table reuses a cell.
                        if let repeats = layer.repeats, repeats.dy > 0 {
                            let span = Double(repeats.count) * repeats.dy
                            let bottom = originY + layer.frame.y + dy + layer.frame.height
                            if bottom <= 0 {
                                let times = ((-bottom) / span).rounded(.down) + 1
                                dy += times * span
                                reuse += Int(min(times, 1e9))
                            }
                        }
                    }
                    keyPath.append("\(layer.name)#\(copy)")
                    defer { keyPath.removeLast() }
                    let frame = layer.frame.offsetBy(originX + dx, originY + dy)
                    try add(layer, at: frame, clip: clip, target: target, animating: animating || layer.animating)
                }
            }
        }

        /// A draw of `rect`'s visible pixels.
        func draw(
            _ name: String, _ kind: PassKind, _ rect: PointRect, fetchesPerPixel: Double, fromMemory: Bool,
            blends: Bool, coverage: Double = 1
        ) -> PassDescriptor {
            let visible = rect.pixels(scale: scale).size
            let pixels = Int((Double(visible.area) * coverage).rounded(.up))
            let size = PixelSize(
                width: pixels == visible.area ? visible.width : pixels,
                height: pixels == visible.area ? visible.height : 1)
            return PassDescriptor(
                name: name, kind: kind, inputSize: size, outputSize: size,
                texelsPerPixel: Int(fetchesPerPixel.rounded(.up)), blends: blends, offscreen: false,
                gpuFetchesPerPixel: fetchesPerPixel, gpuTexelsFromMemory: fromMemory ? size.area : 0)
        }

        mutating func add(
            _ layer: SceneLayer, at frame: PointRect, clip: PointRect, target: RenderTarget,
            animating: Bool
        ) throws(BackdropError) {
            let visible = frame.intersection(clip)
            let drawn = !(steady && isStatic) || animating
            let childClip = layer.masksToBounds ? visible : clip
            // The layer's entry in the drawing, filled in as the walk decides.
            var entry: Int?
            if drawn, !visible.isEmpty, !drawingOnly, let drawing = self.frame.drawing {
                entry = drawing.layers.count
                self.frame.drawing!.layers.append(
                    SceneDrawing.Layer(
                        name: layer.name, shape: shape(frame, radius: layer.cornerRadius), clip: shape(clip),
                        offscreenPasses: 0,
                        blended: layer.content == .none ? nil : layer.content == .text || Self.blends(layer),
                        rasterCacheHit: nil, picture: picture(of: layer)))
            }
            ownTextures.append(0)
            defer {
                let own = ownTextures.removeLast()
                if let entry { self.frame.drawing!.layers[entry].offscreenPasses = own }
            }
            if drawn, !visible.isEmpty, let shadow = layer.shadow, shadow.opacity > 0 {
                addShadow(shadow, of: layer, frame: frame, clip: clip, target: target)
            }
            let needsGroup = layer.isMasked || layer.hasGroupOpacity || layer.rasterize
            if drawn, needsGroup, !visible.isEmpty {
                let group = PointRect(x: visible.x, y: visible.y, width: visible.width, height: visible.height)
                let bytes = 4 * group.pixels(scale: scale).size.area
                let mask = layer.isMasked ? shape(frame, radius: layer.cornerRadius) : nil
                if layer.rasterize, !layer.isMasked, !drawingOnly {
                    self.frame.rasterCacheBytes += bytes
                    let cached =
                        rasterCache?(RasterKey(path: keyPath.joined(separator: "/"), reuse: reuse), bytes)
                        ?? (steady && self.frame.rasterCacheBytes <= planner.rasterCacheLimitBytes)
                    if let entry { self.frame.drawing!.layers[entry].rasterCacheHit = cached }
                    if cached {
                        append(
                            draw(
                                "\(layer.name) (cached)", .offscreenComposite, group, fetchesPerPixel: 1,
                                fromMemory: true, blends: !layer.opaque || layer.opacity < 1), layer.name, target)
                        if self.frame.drawing != nil {
                            // The cache holds the pixels the layer rendered: the picture draws them again.
                            record(.beginGroup(bounds: group.pixels(scale: scale)))
                            drawingOnly = true
                            defer { drawingOnly = false }
                            try addOwn(
                                layer, frame: frame, visible: visible, clip: clip, childClip: childClip,
                                target: target, animating: animating, opacity: 1)
                            record(.endGroup(opacity: layer.opacity, mask: nil))
                        }
                        return
                    }
                }
                record(.beginGroup(bounds: group.pixels(scale: scale)))
                if layer.isMasked {
                    append(
                        draw("\(layer.name) mask", .mask, group, fetchesPerPixel: 0, fromMemory: false, blends: false),
                        layer.name, newTexture())
                }
                let texture = newTexture()
                try addOwn(
                    layer, frame: frame, visible: visible, clip: clip, childClip: childClip, target: texture,
                    animating: animating, opacity: 1)
                record(.endGroup(opacity: layer.opacity, mask: mask))
                append(
                    draw(
                        layer.isMasked ? "\(layer.name) masked composite" : "\(layer.name) composite",
                        layer.isMasked ? .maskedComposite : .offscreenComposite, group,
                        fetchesPerPixel: layer.isMasked ? 2 : 1, fromMemory: true, blends: true
                    )
                    .withTexelsFromMemory(multiplier: layer.isMasked ? 2 : 1), layer.name, target)
                return
            }
            try addOwn(
                layer, frame: frame, visible: visible, clip: clip, childClip: childClip, target: target,
                animating: animating, opacity: layer.opacity)
        }

        /// The union of the visible frames of the glass effect views among `layer`'s sublayers (at any depth, their
        /// copies included; a nested container's are its own), `frame` being the layer's, or nil when it has none.
        /// Scrolling is not followed: a container's glass sits in bars and buttons, which stay put.
        static func glassUnion(of layer: SceneLayer, frame: PointRect, clip: PointRect) -> PointRect? {
            var union: PointRect?
            let childClip = layer.masksToBounds ? frame.intersection(clip) : clip
            for sublayer in layer.sublayers {
                for copy in 0..<(sublayer.repeats?.count ?? 1) {
                    let placed = sublayer.frame.offsetBy(
                        frame.x + Double(copy) * (sublayer.repeats?.dx ?? 0),
                        frame.y + Double(copy) * (sublayer.repeats?.dy ?? 0))
                    var found: PointRect?
                    if sublayer.effect?.style.glass != nil {
                        let visible = placed.intersection(childClip)
                        if !visible.isEmpty { found = visible }
                    }
                    if !sublayer.glassContainer, let inner = glassUnion(of: sublayer, frame: placed, clip: childClip) {
                        found = found.map { $0.union(inner) } ?? inner
                    }
                    if let found { union = union.map { $0.union(found) } ?? found }
                }
            }
            return union
        }

        /// Whether the layer's own content is drawn blended.
        static func blends(_ layer: SceneLayer) -> Bool {
            !layer.opaque || layer.opacity < 1 || layer.cornerRadius > 0
        }

        /// The layer's effect, content and sublayers into `target`; the picture draws the content at `opacity`
        /// (1 where the layer's group applies its opacity).
        mutating func addOwn(
            _ layer: SceneLayer, frame: PointRect, visible: PointRect, clip: PointRect, childClip: PointRect,
            target: RenderTarget, animating: Bool, opacity: Double
        ) throws(BackdropError) {
            let drawn = !(steady && isStatic) || animating
            if drawn, !visible.isEmpty {
                if let effect = layer.effect {
                    try addEffect(effect, of: layer, frame: frame, visible: visible, target: target)
                }
                // A masked layer's corners are cut by its group's mask, not a second time by its content.
                if let command = contentCommand(
                    layer, frame: frame, clip: clip, opacity: opacity, rounded: !layer.isMasked)
                {
                    record(command)
                }
                let blends = Self.blends(layer)
                switch layer.content {
                case .solid:
                    append(
                        draw(layer.name, .layer, visible, fetchesPerPixel: 0, fromMemory: false, blends: blends),
                        layer.name, target)
                case .image:
                    append(
                        draw(layer.name, .layer, visible, fetchesPerPixel: 1, fromMemory: true, blends: blends),
                        layer.name, target)
                case .text:
                    append(
                        draw(
                            layer.name, .layer, visible, fetchesPerPixel: 1, fromMemory: false, blends: true,
                            coverage: 1.0 / 3), layer.name, target)
                case .none:
                    break
                }
            }
            let container = layer.glassContainer ? Self.glassUnion(of: layer, frame: frame, clip: clip) : nil
            if let container { glassContainers.append((container, false)) }
            defer { if container != nil { glassContainers.removeLast() } }
            try add(
                layer.sublayers, originX: frame.x, originY: frame.y, clip: childClip, target: target,
                animating: animating)
        }

        mutating func addShadow(
            _ shadow: SceneLayer.Shadow, of layer: SceneLayer, frame: PointRect, clip: PointRect,
            target: RenderTarget
        ) {
            let kind = ShadowRule.kind(of: shadow, under: layer), sigma = shadow.radius * scale
            let key = ShadowKey(kind: kind, sigma: sigma)
            let rule = shadowRules[key] ?? ShadowRule(kind: kind, sigmaPixels: sigma)
            shadowRules[key] = rule
            let margin = Double(rule.reachPixels) / scale
            let bounds = frame.offsetBy(shadow.offsetX, shadow.offsetY).insetBy(-margin).intersection(clip)
            guard !bounds.isEmpty else { return }
            record(
                .shadow(
                    shape(frame.offsetBy(shadow.offsetX, shadow.offsetY), radius: layer.cornerRadius), rule: rule,
                    opacity: shadow.opacity, clip: shape(clip)))
            let size = bounds.pixels(scale: scale).size
            let f = rule.downsample
            // The reduced texture (the halvings' last output, or no smaller).
            let reduced = PixelSize(width: (size.width + f - 1) / f, height: (size.height + f - 1) / f)
            var cached = false
            if kind == .path, !drawingOnly {
                let cacheKey = RasterKey(path: keyPath.joined(separator: "/") + "/shadow")
                cached = rasterCache?(cacheKey, 4 * reduced.area) ?? steady
            }
            if rule.rendersOffscreen(cached: cached) {
                // The layer's alpha (or the path) into a texture of the shadow's bounds, reduced, blurred there.
                let fromContent = kind == .composited && layer.content == .image
                append(
                    draw(
                        "\(layer.name) shadow shape", .shadowShape, bounds, fetchesPerPixel: fromContent ? 1 : 0,
                        fromMemory: fromContent, blends: false), layer.name, newTexture())
                let blurKey = BlurKey(sigma: rule.reducedKernel.sigma, downsample: f, size: size)
                let passes = shadowBlurs[blurKey] ?? Self.shadowBlur(rule, size: size)
                shadowBlurs[blurKey] = passes
                for var halving in passes.0 {
                    halving.name = "\(layer.name) shadow \(halving.name)"
                    append(halving, layer.name, newTexture())
                }
                var horizontal = passes.1
                horizontal.name = "\(layer.name) shadow blur (horizontal)"
                append(horizontal, layer.name, newTexture())
                var vertical = passes.2
                vertical.name = "\(layer.name) shadow blur (vertical)"
                append(vertical, layer.name, newTexture())
            }
            // The shadow drawn from its small texture, scaled up: the reduced texels come from memory (for the
            // rounded rectangle, its corners' texture).
            let suffix =
                kind == .composited
                ? "" : kind == .path ? (cached ? " (path, cached)" : " (path)") : " (rounded rectangle)"
            var drawn = draw(
                "\(layer.name) shadow\(suffix)", .shadow, bounds, fetchesPerPixel: 1, fromMemory: false, blends: true)
            let reach = 2 * rule.reachPixels
            drawn.gpuTexelsFromMemory = kind == .roundedRectangle ? min(size.area, reach * reach) : reduced.area
            append(drawn, layer.name, target)
        }

        mutating func addEffect(
            _ effect: SceneLayer.EffectView, of layer: SceneLayer, frame: PointRect, visible: PointRect,
            target: RenderTarget
        ) throws(BackdropError) {
            let device = planner.device
            let pixels = visible.pixels(scale: scale)
            guard pixels.width > 0, pixels.height > 0 else { return }
            var vibrancy: Vibrancy?
            if let first = effect.vibrancy.first {
                let union = effect.vibrancy.dropFirst().reduce(first.frame) { $0.union($1.frame) }
                    .offsetBy(frame.x, frame.y).intersection(visible)
                if !union.isEmpty {
                    let content = union.pixels(scale: scale)
                    vibrancy = Vibrancy(x: content.x, y: content.y, contentSize: content.size)
                }
            }
            // A system material or glass blurs on every device that runs its iOS unless asked otherwise
            // (``materialPath``); without blur (Reduce Transparency) it draws its average colour
            // (``MaterialAverageColourPass``; glass its face over it).
            let newStyle = effect.style.material != nil || effect.style.glass != nil
            let planned = try Effect(
                style: effect.style, frame: pixels, scale: device.scale,
                path: newStyle ? planner.materialPath : planner.path(effect.style),
                vibrancy: vibrancy
            ).applying(planner.accessibility)
            let path = planned.path
            if path == .blur { self.frame.blurredEffectViews += 1 }
            if self.frame.drawing != nil {
                var vibrantDraws: [SceneDrawing.Command] = []
                for vibrant in effect.vibrancy {
                    vibrantContent(vibrant, originX: frame.x, originY: frame.y, clip: visible, into: &vibrantDraws)
                }
                record(
                    .effect(
                        frame: pixels, style: planned.style, path: path,
                        vibrancyFrame: vibrancy.map {
                            PixelRect(x: $0.x, y: $0.y, width: $0.contentSize.width, height: $0.contentSize.height)
                        }, vibrancy: vibrantDraws))
            }
            let plan = try RenderPlan(effect: planned, imageSize: device.screen)
            let skipCapture = path == .tintOnly && drewOnScreen
            // Glass in a container on the blur path: the container's first glass view captures and blurs the
            // backdrop behind all of its glass views at once, and every view skips those passes of its own.
            var skipped: Set<PassKind> = []
            if effect.style.glass != nil, path == .blur, let container = glassContainers.last {
                skipped = Self.sharedGlassPasses
                if !container.shared {
                    glassContainers[glassContainers.count - 1].shared = true
                    let union = container.union.pixels(scale: scale)
                    var sharedEffect = Effect(style: planned.style, frame: union, scale: device.scale, path: .blur)
                    sharedEffect.increaseContrast = planned.increaseContrast
                    let shared = try RenderPlan(effect: sharedEffect, imageSize: device.screen)
                    for pass in shared.passes where pass.isGPURenderPass && skipped.contains(pass.kind) {
                        append(pass, "\(layer.name) (glass container)", pass.offscreen ? newTexture() : target)
                    }
                }
            }
            for pass in plan.passes where pass.isGPURenderPass && !skipped.contains(pass.kind) {
                if skipCapture, pass.kind == .capture { continue }
                append(pass, layer.name, pass.offscreen ? newTexture() : target)
            }
        }
    }
}

extension ScenePlanner.Walk {
    /// The passes a glass container's views share: the backdrop's capture and its blur, planned once over the union
    /// of the views (``SceneLayer/glassContainer``); each view keeps its upscale, face and composite.
    static let sharedGlassPasses: Set<PassKind> = [.capture, .downscale, .horizontalBlur, .verticalBlur]

    /// The draw of `layer`'s own content at `frame`, clipped to `clip`, its corners `rounded` by its corner radius,
    /// or nil when it has none.
    func contentCommand(
        _ layer: SceneLayer, frame: PointRect, clip: PointRect, opacity: Double, rounded: Bool = true
    ) -> SceneDrawing.Command? {
        let drawn = shape(frame, radius: rounded ? layer.cornerRadius : 0), clipShape = shape(clip)
        switch layer.content {
        case .solid:
            return .fill(drawn, color: layer.color ?? .defaultFill, opacity: opacity, clip: clipShape)
        case .image:
            return .image(
                drawn, layer: layer.name, picture: picture(of: layer)!, opacity: opacity, clip: clipShape)
        case .text:
            return .text(drawn, color: layer.color ?? .defaultText, opacity: opacity, clip: clipShape)
        case .none:
            return nil
        }
    }

    /// What an image layer draws: its file, resolved against the scene's folder, or a placeholder; nil for a
    /// layer of other content.
    func picture(of layer: SceneLayer) -> SceneDrawing.Picture? {
        guard layer.content == .image else { return nil }
        guard let image = layer.image, let folder else { return .placeholder(seed: SceneDrawing.seed(layer.name)) }
        return .file(folder.isEmpty ? image : folder + "/" + image)
    }

    /// The draws of a vibrant layer and its sublayers (their content only: vibrant content has no offscreen
    /// features of its own), at `originX`, `originY` (points), inside `clip`.
    func vibrantContent(
        _ layer: SceneLayer, originX: Double, originY: Double, clip: PointRect,
        into draws: inout [SceneDrawing.Command]
    ) {
        for copy in 0..<(layer.repeats?.count ?? 1) {
            let frame = layer.frame.offsetBy(
                originX + Double(copy) * (layer.repeats?.dx ?? 0), originY + Double(copy) * (layer.repeats?.dy ?? 0))
            guard !frame.intersection(clip).isEmpty else { continue }
            if let command = contentCommand(layer, frame: frame, clip: clip, opacity: layer.opacity) {
                draws.append(command)
            }
            let childClip = layer.masksToBounds ? frame.intersection(clip) : clip
            for sublayer in layer.sublayers {
                vibrantContent(sublayer, originX: frame.x, originY: frame.y, clip: childClip, into: &draws)
            }
        }
    }
}

extension PassDescriptor {
    /// The pass reading `multiplier` textures of its own size from memory.
    func withTexelsFromMemory(multiplier: Int) -> PassDescriptor {
        var copy = self
        copy.gpuTexelsFromMemory = multiplier * outputSize.area
        return copy
    }
}
