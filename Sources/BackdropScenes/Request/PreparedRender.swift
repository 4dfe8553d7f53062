import BackdropImageIO
import BackdropRendering

/// A ``RenderRequest`` checked and with its files read: everything but the input picture, so that a batch draws many
/// inputs with one. ``render(_:renderer:maxImagePixels:cancellation:stage:)`` is the one function every front end
/// draws with.
public struct PreparedRender: Sendable {
    /// What is drawn, resolved.
    public enum Work: Sendable {
        /// The system blur: the effect, its vibrant content, and the output depth (8 or 16).
        case effect(Effect, vibrantContent: RGBAImage<UInt8>?, depth: Int)
        /// `UIImage+ImageEffects` with its style, scale, frame and mask.
        case imageEffects(ImageEffectsStyle, scale: Double, frame: PixelRect?, mask: RGBAImage<UInt8>?)
        /// A scene on a device, its effect views on the paths `path` gives
        /// (``ScenePlanner/init(device:choice:estimator:)``).
        case scene(
            Scene, device: Device, path: Estimator.PathChoice, overlay: SceneOverlay?, steady: Bool,
            scrollOffset: Double)
    }

    public let request: RenderRequest
    public let work: Work
    /// Why the path was chosen when a device chose it ("; iphone-4: tint-only, …"), or "".
    public let note: String
    /// The device's display settings (an effect over a picture has them applied already; a scene's planner applies
    /// them to each effect view).
    public var accessibility = AccessibilitySettings.none

    /// What becomes of the input's colour space (the request's `color-space`, checked): `keep` asks the front end to
    /// decode the input unconverted (``ImageDecoder/decode(_:name:choice:)``) and to write its space into the output.
    public var colorSpace: ColorSpaceChoice { ColorSpaceChoice(rawValue: request.colorSpace ?? "") ?? .srgb }

    /// What a render made: the picture, the words `backdrop render` prints after "wrote PATH " (its size, style
    /// or scene, path, frame and plan, in parentheses), and its notes.
    public struct Outcome: Sendable {
        public var picture: RenderedPicture
        public var summary: String
        /// One-line notes for the user beside the picture, each starting "note: " or "warning: " (a front end prints
        /// them on standard error): the frame clipped to the picture (``RenderPlan/clippedFrame(_:in:)``), vibrant
        /// content that cannot show on the style (``VibrancyBlend/invisibilityWarning(for:style:)``). Empty when
        /// there is nothing to say.
        public var notes: [String] = []
    }

    /// Draws the work: over `source` (nil for a scene) with `renderer`, scene image files up to `maxImagePixels`,
    /// stopping between passes and between the pieces of a pass once `cancellation` is cancelled (then throwing
    /// `.cancelled`). `stage` hears each stage's name ("rendering
    /// 600×400, fast").
    public func render(
        _ source: RGBAImage<UInt8>?, renderer: Renderer = Renderer(),
        maxImagePixels: Int = PNGDecoder.defaultMaxPixels, cancellation: RenderCancellation? = nil,
        stage: (String) -> Void = { _ in }
    ) throws(BackdropError) -> Outcome {
        var renderer = renderer
        renderer.parallelism.cancellation = cancellation
        let outcome = try draw(
            source, renderer: renderer, maxImagePixels: maxImagePixels, overSource: false, stage: stage)
        // A pass cut short by the cancellation left rows unwritten: its picture is never returned.
        try cancellation?.check()
        return outcome
    }

    /// ``render(_:renderer:maxImagePixels:cancellation:stage:)``, not cancellable, for a caller done with `source`:
    /// the effect may be drawn over the source's own buffer (``Renderer/render(over:plan:vibrantContent:)``), one
    /// picture-sized buffer fewer; the same bytes.
    public func render(
        consuming source: consuming RGBAImage<UInt8>?, renderer: Renderer = Renderer(),
        maxImagePixels: Int = PNGDecoder.defaultMaxPixels, stage: (String) -> Void = { _ in }
    ) throws(BackdropError) -> Outcome {
        var renderer = renderer
        renderer.parallelism.cancellation = nil  // never cut short: every row of the picture is written
        return try draw(
            consume source, renderer: renderer, maxImagePixels: maxImagePixels, overSource: true, stage: stage)
    }

    /// ``render(_:renderer:maxImagePixels:cancellation:stage:)``'s work, with the cancellation in `renderer`'s
    /// parallelism.
    /// `overSource`: the caller is done with `source` (``render(consuming:renderer:maxImagePixels:stage:)``).
    private func draw(
        _ source: consuming RGBAImage<UInt8>?, renderer: Renderer, maxImagePixels: Int, overSource: Bool,
        stage: (String) -> Void
    ) throws(BackdropError) -> Outcome {
        let cancellation = renderer.parallelism.cancellation
        switch work {
        case .scene(let scene, let device, let path, let overlay, let steady, let scrollOffset):
            stage("drawing \(scene.name) on \(device.id)")
            let drawer = ScenePicture(device: device, parallelism: renderer.parallelism, maxImagePixels: maxImagePixels)
            let (result, drawing) = try drawer.draw(
                scene, choice: path, steady: steady, scrollOffset: scrollOffset, accessibility: accessibility,
                cancellation: cancellation)
            let picture =
                overlay.map {
                    $0.applied(
                        to: result.image, drawing: drawing, imageSizes: result.imageSizes,
                        parallelism: renderer.parallelism)
                } ?? result.image
            return Outcome(
                picture: .eight(picture),
                summary:
                    "(\(picture.width)×\(picture.height), \(scene.name) on \(device.id), \(Plural.count(drawing.layers.count, "layer")), effect views \(ScenePlanner.effectViewWords(path: accessibility.reduceTransparency ? .tintOnly : Estimator().path(path, on: device), blurredEffectViews: drawing.blurredEffectViews))\(accessibility.summaryWords)\(overlay.map { ", --show \($0.rawValue)" } ?? "")\(Estimator.styleNotes(scene.effectStyles, on: device).map { "; \($0)" }.joined()))"
            )
        case .imageEffects(let style, let scale, let frame, let mask):
            let source = source ?? RGBAImage(width: 0, height: 0, samples: [])
            let notes = try notes(inputSize: source.size)
            let plan = try ImageEffectsPlan(style: style, scale: scale, frame: frame, imageSize: source.size)
            stage("rendering \(source.width)×\(source.height), image-effects")
            let picture = try renderer.render(source, imageEffects: plan, mask: mask)
            let blur = plan.boxWidth.map { "three box blurs \($0) px wide" } ?? "no blur"
            return Outcome(
                picture: .eight(picture),
                summary:
                    "(\(source.width)×\(source.height), \(style.name), image-effects, frame \(plan.frame), \(blur)\(note))",
                notes: notes
            )
        case .effect(let effect, let content, let depth):
            let source = (consume source) ?? RGBAImage(width: 0, height: 0, samples: [])
            let notes = try notes(inputSize: source.size)
            let plan = try RenderPlan(effect: effect, imageSize: source.size)
            stage("rendering \(source.width)×\(source.height), \(effect.quality == .exact ? "exact" : "fast")")
            let summary =
                "(\(source.width)×\(source.height), \(effect.style.name), \(Self.pathWords(plan))\(accessibility.summaryWords), frame \(plan.frame)\(note))"
            let picture: RenderedPicture
            if depth == 16 {
                picture = .sixteen(renderer.render(source, plan: plan, vibrantContent: content, as: UInt16.self))
            } else if let cancellation {
                picture = .eight(
                    try renderer.render(source, effect: effect, vibrantContent: content, cancellation: cancellation))
            } else if overSource {
                picture = .eight(renderer.render(over: consume source, plan: plan, vibrantContent: content))
            } else {
                picture = .eight(renderer.render(source, plan: plan, vibrantContent: content, as: UInt8.self))
            }
            return Outcome(picture: picture, summary: summary, notes: notes)
        }
    }
}

extension PreparedRender {
    /// The notes a render of a picture of `inputSize` comes with (``Outcome/notes``), known before drawing: what the
    /// preview shows beside its picture and the command line prints. Throws the frame's error when it lies wholly
    /// outside the picture. A scene has none.
    public func notes(inputSize: PixelSize) throws(BackdropError) -> [String] {
        switch work {
        case .scene: return []
        case .imageEffects(_, _, let frame, _):
            return try RenderPlan.clippedFrame(frame, in: inputSize).note.map { ["note: " + $0] } ?? []
        case .effect(let effect, let content, _):
            return [
                try RenderPlan.clippedFrame(effect.frame, in: inputSize).note.map { "note: " + $0 },
                content.flatMap { effect.style.vibrancyBlend.invisibilityWarning(for: $0, style: effect.style.name) }
                    .map { "warning: " + $0 },
            ].compactMap { $0 }
        }
    }

    /// How a plan draws, in words for its summary line: "tint-only"; "blurred at full size" (exact, or a blur too
    /// small to downsample); "blurred downsampled 6×" (the fast path's downscale factor k: the blur runs on a
    /// picture 1/k as wide and high, then is scaled back up).
    static func pathWords(_ plan: RenderPlan) -> String {
        switch plan.effect.path {
        case .tintOnly: return "tint-only"
        case .blur:
            return plan.downscaleFactor > 1 ? "blurred downsampled \(plan.downscaleFactor)×" : "blurred at full size"
        }
    }
}

/// A rendered picture at the depth it was asked for.
public enum RenderedPicture: Sendable {
    case eight(RGBAImage<UInt8>)
    case sixteen(RGBAImage<UInt16>)

    /// The 8-bit picture (nil for a 16-bit one).
    public var eightBit: RGBAImage<UInt8>? {
        if case .eight(let image) = self { return image }
        return nil
    }

    /// Writes the picture to `path` atomically with `encoder`, reusing its buffer (it is left empty).
    public mutating func write(with encoder: PNGEncoder, to path: String) throws(BackdropError) {
        switch self {
        case .eight(var image):
            self = .eight(RGBAImage(width: 0, height: 0, samples: []))
            try encoder.write(destroying: &image, to: path)
        case .sixteen(var image):
            self = .eight(RGBAImage(width: 0, height: 0, samples: []))
            try encoder.write(destroying: &image, to: path)
        }
    }

    /// The PNG bytes `encoder` makes of it.
    public func encoded(with encoder: PNGEncoder) throws(BackdropError) -> [UInt8] {
        switch self {
        case .eight(let image): return try encoder.encode(image)
        case .sixteen(let image): return try encoder.encode(image)
        }
    }
}

extension RenderRequest {
    /// The request checked (``validate(spelling:)``) and its files read through `files`: the vibrant content (and
    /// its placement), the mask, the scene (within the scene work budget). Errors name fields in `spelling`.
    public func prepare(files: RequestFiles, spelling: Spelling) throws(BackdropError) -> PreparedRender {
        var checked = try validate(spelling: spelling)
        if checked.kind == .scene, let scene, let device = checked.device {
            let loaded = try files.scene(scene)
            try SceneWork.Budget.standard.check(loaded, run: .picture)
            return PreparedRender(
                request: self,
                work: .scene(
                    loaded, device: device, path: checked.path, overlay: checked.overlay, steady: steady ?? false,
                    scrollOffset: scrollOffset ?? 0), note: "", accessibility: checked.accessibility)
        }
        let content = try vibrancy.map { name throws(BackdropError) in try files.picture(name, .vibrancy) }
        let options = EffectOptions(
            style: checked.style, frame: checked.frame, scale: scale, device: checked.device,
            quality: exact == true ? .exact : .fast, path: checked.path, vibrantContentSize: content?.size,
            vibrancyCorner: at, cornerOptionName: spelling(.at))
        let planned = try options.effect()
        // Under Reduce Transparency no device blurs: the device's own path and its reason do not apply; glass keeps
        // its note that it is an approximation.
        let note =
            !checked.accessibility.reduceTransparency
            ? planned.note
            : checked.style.glass != nil ? "; \(GlassParameters.approximationNote)" : ""
        var shaped: Effect? = planned.effect
        for rule in Self.fieldRules where rule.takenBy.contains(checked.kind) && rule.isGiven(self) {
            rule.shape?(self, &checked, &shaped)
        }
        let effect = try shaped!.applying(checked.accessibility)
        if let style = checked.imageEffectsStyle {
            let mask = try mask.map { name throws(BackdropError) in try files.picture(name, .mask) }
            return PreparedRender(
                request: self, work: .imageEffects(style, scale: effect.scale, frame: effect.frame, mask: mask),
                note: note)
        }
        return PreparedRender(
            request: self, work: .effect(effect, vibrantContent: content, depth: checked.depth), note: note,
            accessibility: checked.accessibility)
    }
}

extension RenderRequest {
    /// The 8-bit picture the request draws, every file (the input too, as `.input`; with `color-space keep` through
    /// `files.keptInput`, unconverted) read through `files`: what golden checks compare. A 16-bit `depth` is refused:
    /// goldens are 8-bit.
    public func picture(
        files: RequestFiles, spelling: Spelling = .key, renderer: Renderer = Renderer()
    ) throws(BackdropError) -> RGBAImage<UInt8> {
        let prepared = try prepare(files: files, spelling: spelling)
        let source = try input.map { name throws(BackdropError) in
            try prepared.colorSpace == .keep ? files.input(keepingColorSpace: name).image : files.picture(name, .input)
        }
        guard let picture = try prepared.render(source, renderer: renderer).picture.eightBit else {
            throw BackdropError(.badOption, "goldens are 8-bit pictures: leave out \(spelling(.depth))")
        }
        return picture
    }
}
