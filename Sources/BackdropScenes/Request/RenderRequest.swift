import BackdropImageIO
import BackdropRendering

/// What to draw, as every front end asks for it: `backdrop render`'s options, the preview's query, a golden
/// manifest's case and `BackdropTesting` all decode into this one value, which ``validate(spelling:)`` checks once
/// (one table of conflicts, the same one-line errors everywhere) and ``prepare(files:spelling:)`` then
/// ``PreparedRender`` draw in one function.
///
/// Three kinds of picture, chosen by the fields given:
/// - an effect over `input` (the system blur: `style` and its custom numbers, `frame`, `scale`, `exact`, `path` or
///   `tint-only`, `device`, vibrant content `vibrancy` at `at` and its `vibrancy-style`, output `depth`);
/// - `algorithm: image-effects`: Apple's `UIImage+ImageEffects` over `input` (`style` light, extraLight, dark,
///   `tint` with `tint`, or `custom`; `frame`, `scale`, `device`, `mask`);
/// - a `scene` on a `device`, with the overlay `show`, `steady`, `scroll-offset` and `path`.
///
/// Materials (iOS 10 and later) will be a further `algorithm`: ``Algorithm`` lists what exists, and the conflict
/// table says which fields each takes.
///
/// Every field is optional and named as `backdrop render`'s option without its dashes (the coding keys); values are
/// kept as given (text for frames, corners, colours and enums) so that each error names the value the user wrote.
public struct RenderRequest: Codable, Sendable, Equatable {
    /// The algorithms `algorithm` names.
    public enum Algorithm: String, Sendable, CaseIterable {
        /// UIBlurEffect's look, drawn by the renderer's plans (the default).
        case system
        /// Apple's `UIImage+ImageEffects` sample category (``ImageEffectsPlan``).
        case imageEffects = "image-effects"
    }

    /// The picture to draw over (a path, or a name the front end's ``RequestFiles`` knows).
    public var input: String?
    /// A scene to draw instead: a built-in scene's name or a scene file.
    public var scene: String?
    /// The device whose scale and path are used; a scene's screen.
    public var device: String?
    /// With `scene`: an overlay, as Instruments colours layers (``SceneOverlay``).
    public var show: String?
    /// With `scene`: the frame after the first.
    public var steady: Bool?
    /// With `scene`: points the scrolling layers move up.
    public var scrollOffset: Double?
    /// ``Algorithm``'s raw value (default `system`).
    public var algorithm: String?
    /// A style's name (default `light`), or `custom` with `sigma`, `saturation`, `tint` ("r,g,b"), `tint-alpha`,
    /// and optionally `fallback-alpha` and `vibrancy-blend` (``StyleChoice``).
    public var style: String?
    public var sigma: Double?
    public var saturation: Double?
    public var tint: String?
    public var tintAlpha: Double?
    public var fallbackAlpha: Double?
    public var vibrancyBlend: String?
    /// An adaptive style's appearance: `light` (default) or `dark` (``StyleCatalogue``).
    public var appearance: String?
    /// Glass's shape: corners of this radius in points, or a capsule (``GlassParameters/Shape``).
    public var cornerRadius: Double?
    public var capsule: Bool?
    /// The view's frame, "x,y,w,h" in pixels of the input (default: the whole picture).
    public var frame: String?
    /// Pixels per point (default: the device's, or 1).
    public var scale: Double?
    /// `auto` (default), `blur` or `tint-only` (``Estimator/PathChoice``).
    public var path: String?
    /// The full-resolution Gaussian instead of the fast pipeline.
    public var exact: Bool?
    /// The tint-only fallback (the same as `path: tint-only`).
    public var tintOnly: Bool?
    /// Vibrant content drawn over the effect (a PNG with alpha), its top-left corner at `at` ("x,y").
    public var vibrancy: String?
    public var at: String?
    /// Over a system material: the content's vibrancy level (``VibrancyLevel``'s raw value, `secondaryLabel`).
    public var vibrancyStyle: String?
    /// With image-effects: where the blur shows (a PNG of the frame's size).
    public var mask: String?
    /// Output bits per sample, 8 (default) or 16.
    public var depth: Int?
    /// ``ColorSpaceChoice``'s raw value: `srgb` (default: an input's profile converted to sRGB before the effect, the
    /// output tagged sRGB) or `keep` (drawn in the input's own space, its profile written into the output).
    public var colorSpace: String?
    /// The device's Reduce Transparency setting: no blur (``AccessibilitySettings``).
    public var reduceTransparency: Bool?
    /// The device's Increase Contrast setting: the vibrancy level's raised alpha (``AccessibilitySettings``).
    public var increaseContrast: Bool?

    /// The keys, in the order a command line prints them.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case input, scene, device, show, steady
        case scrollOffset = "scroll-offset"
        case algorithm, style, sigma, saturation, tint
        case tintAlpha = "tint-alpha"
        case fallbackAlpha = "fallback-alpha"
        case vibrancyBlend = "vibrancy-blend"
        case appearance
        case cornerRadius = "corner-radius"
        case capsule
        case frame, scale, path, exact
        case tintOnly = "tint-only"
        case vibrancy, at
        case vibrancyStyle = "vibrancy-style"
        case mask, depth
        case colorSpace = "color-space"
        case reduceTransparency = "reduce-transparency"
        case increaseContrast = "increase-contrast"
    }

    /// A request with every field at its default.
    public init() {}

    /// The style fields as ``StyleChoice`` reads them.
    public var styleChoice: StyleChoice {
        StyleChoice(
            name: style ?? "light", sigma: sigma, saturation: saturation, tint: tint, tintAlpha: tintAlpha,
            fallbackAlpha: fallbackAlpha ?? 0.9,
            vibrancyBlend: VibrancyBlend(rawValue: vibrancyBlend ?? "") ?? .plusDarker, appearance: appearance,
            cornerRadius: cornerRadius, capsule: capsule ?? false)
    }

    /// How errors name a field: as a command-line option (`--frame`) or as a key (`frame`, a query's or a
    /// manifest's).
    public enum Spelling: Sendable {
        case option
        case key

        /// The field `key` as this spelling writes it.
        public func callAsFunction(_ key: CodingKeys) -> String { prefix + key.rawValue }

        /// `--` or nothing.
        public var prefix: String { self == .option ? "--" : "" }
    }
}

// The fields' rules, beside the fields: a field is declared in this file once, with its property and key above, its
// row of the conflict table below, and in that row the check of its value and how it shapes the effect
// (`FieldRule.check`, `FieldRule.shape`; the older fields' checks are in `checkValues`). Its spelling is the command
// line's (`RenderOptionGroups.swift`); every other front end decodes it by its key.
extension RenderRequest {
    /// A request's fields read and checked (no file read yet): what ``prepare(files:spelling:)`` draws from.
    public struct Checked: Sendable {
        public var kind: Kind
        public var device: Device?
        public var frame: PixelRect?
        public var path: Estimator.PathChoice
        public var overlay: SceneOverlay?
        /// The system blur's style (light for the other kinds).
        public var style: BlurStyle = .light
        /// image-effects' style.
        public var imageEffectsStyle: ImageEffectsStyle?
        public var depth = 8
        /// The vibrant content's level over a system material, if given.
        public var vibrancyLevel: VibrancyLevel? = nil
        /// The device's display settings, as the fields' rules set them (`reduce-transparency`, `increase-contrast`).
        public var accessibility = AccessibilitySettings.none

        init(kind: Kind, path: Estimator.PathChoice) {
            self.kind = kind
            self.path = path
        }
    }

    /// One row of the conflict table: a field (or a group of fields) and the kinds that take it.
    struct FieldRule: Sendable {
        /// How an error names the field.
        let name: @Sendable (RenderRequest, Spelling, Kind) -> String
        let isGiven: @Sendable (RenderRequest) -> Bool
        /// The kinds that take it (an array: a set of them is a type the runtime builds by name, on every command's
        /// first render).
        let takenBy: [Kind]
        /// The refusal's words when the system blur does not take it.
        var systemRefusal: (@Sendable (String, Spelling) -> String)? = nil
        /// The check of the field's value, when given and taken, after the values ``checkValues(_:_:into:)`` reads.
        var check: (@Sendable (RenderRequest, Spelling, Checked) throws(BackdropError) -> Void)? = nil
        /// How the field, when given and taken, shapes what is drawn: the checked values (run by
        /// ``validate(spelling:)``, the effect nil; a scene's effect views read ``Checked/accessibility``), then the
        /// effect ``prepare(files:spelling:)`` planned over a picture (run again, with the effect).
        var shape: (@Sendable (RenderRequest, inout Checked, inout Effect?) -> Void)? = nil
    }

    /// The one table of fields and the kinds that take them; every front end's refusals come from it. The order is
    /// the order in which they are checked, so the first conflict named is the same everywhere. The last row is the
    /// scene's own fields, which a picture refuses before reading any value.
    static let fieldRules: [FieldRule] = [
        FieldRule(
            name: { _, s, _ in s == .option ? "an input PNG" : s(.input) }, isGiven: { $0.input != nil },
            takenBy: [.system, .imageEffects]),
        FieldRule(name: { _, s, _ in s(.frame) }, isGiven: { $0.frame != nil }, takenBy: [.system, .imageEffects]),
        FieldRule(name: { _, s, _ in s(.vibrancy) }, isGiven: { $0.vibrancy != nil }, takenBy: [.system]),
        FieldRule(name: { _, s, _ in s(.at) }, isGiven: { $0.at != nil }, takenBy: [.system]),
        FieldRule(
            name: { _, s, _ in s(.vibrancyStyle) }, isGiven: { $0.vibrancyStyle != nil }, takenBy: [.system],
            shape: { _, checked, effect in effect?.vibrancy?.level = checked.vibrancyLevel }),
        FieldRule(
            name: { _, s, _ in s(.style) },
            isGiven: {
                $0.style != nil || $0.sigma != nil || $0.saturation != nil || $0.tint != nil || $0.tintAlpha != nil
                    || $0.fallbackAlpha != nil || $0.vibrancyBlend != nil
            }, takenBy: [.system, .imageEffects]),
        FieldRule(name: { _, s, _ in s(.appearance) }, isGiven: { $0.appearance != nil }, takenBy: [.system]),
        FieldRule(
            name: { _, s, _ in "\(s(.cornerRadius)) and \(s(.capsule))" },
            isGiven: { $0.cornerRadius != nil || $0.capsule == true }, takenBy: [.system]),
        FieldRule(name: { _, s, _ in s(.scale) }, isGiven: { $0.scale != nil }, takenBy: [.system, .imageEffects]),
        FieldRule(name: { _, s, _ in s(.exact) }, isGiven: { $0.exact == true }, takenBy: [.system]),
        FieldRule(name: { _, s, _ in s(.tintOnly) }, isGiven: { $0.tintOnly == true }, takenBy: [.system]),
        FieldRule(
            name: { _, s, _ in s(.path) }, isGiven: { ($0.path ?? "auto") != "auto" }, takenBy: [.system, .scene]),
        FieldRule(
            name: { request, s, kind in kind == .scene ? s(.depth) : "\(s(.depth)) \(request.depth ?? 8)" },
            isGiven: { ($0.depth ?? 8) != 8 }, takenBy: [.system]),
        FieldRule(
            name: { _, s, _ in s(.algorithm) }, isGiven: { $0.algorithm != nil && $0.scene != nil },
            takenBy: [.system, .imageEffects]),
        FieldRule(
            name: { _, s, _ in s(.colorSpace) }, isGiven: { $0.colorSpace != nil },
            takenBy: [.system, .imageEffects],
            check: { request, s, _ throws(BackdropError) in
                _ = try Self.choice(request.colorSpace, .colorSpace, s, default: ColorSpaceChoice.srgb)
            }),
        FieldRule(
            name: { _, s, _ in s(.mask) }, isGiven: { $0.mask != nil }, takenBy: [.imageEffects],
            systemRefusal: { name, s in "\(name) goes with \(s(.algorithm)) image-effects" }),
        reduceTransparencyRule, increaseContrastRule,
        FieldRule(
            name: { _, s, _ in "\(s(.show)), \(s(.steady)) and \(s(.scrollOffset))" },
            isGiven: { $0.show != nil || $0.steady != nil || $0.scrollOffset != nil }, takenBy: [.scene],
            systemRefusal: { name, s in "\(name) go with \(s(.scene))" }),
    ]

    /// The fields a command line spells as a bare flag (``arguments(output:)``).
    static let flags: Set<CodingKeys> = [.steady, .exact, .tintOnly, .capsule, .reduceTransparency, .increaseContrast]

    /// The values of the fields `kind` reads, checked into `checked` in the order their errors come: a scene's
    /// device, overlay and scroll offset; a picture's depth, frame, input, vibrancy blend, system style, corner,
    /// vibrancy level, device and `tint-only` (against `path`). Errors name the fields in `s`.
    func checkValues(_ kind: Kind, _ s: Spelling, into checked: inout Checked) throws(BackdropError) {
        checked.depth = depth ?? 8
        if kind == .scene {
            checked.device = try Device.lookup(device ?? "")
            checked.overlay = try show.map { text throws(BackdropError) in
                try Self.choice(text, .show, s, default: SceneOverlay.offscreen)
            }
            let offset = scrollOffset ?? 0
            guard offset.isFinite, abs(offset) <= 1e6 else {
                throw BackdropError(
                    .badOption, "\(s(.scrollOffset)) \(offset) is out of range (±1000000 points)")
            }
            return
        }
        guard checked.depth == 8 || checked.depth == 16 else {
            throw BackdropError(.badOption, "\(s(.depth)) \(checked.depth) must be 8 or 16")
        }
        checked.frame = try frame.map { text throws(BackdropError) in try PixelRect.parsed(text, as: s(.frame)) }
        guard input != nil else {
            throw BackdropError(.badOption, "give the PNG to render (see 'backdrop render --help')")
        }
        _ = try Self.choice(vibrancyBlend, .vibrancyBlend, s, default: VibrancyBlend.plusDarker)
        if kind == .system { checked.style = try styleChoice.resolve(optionPrefix: s.prefix) }
        if at != nil, vibrancy == nil { throw BackdropError(.badOption, "\(s(.at)) goes with \(s(.vibrancy))") }
        if kind == .system, let text = vibrancyStyle {
            let level = try Self.choice(text, .vibrancyStyle, s, default: VibrancyLevel.label)
            guard vibrancy != nil else {
                throw BackdropError(.badOption, "\(s(.vibrancyStyle)) goes with \(s(.vibrancy)) (the content it draws)")
            }
            guard checked.style.material != nil || checked.style.glass?.levelRecipe != nil else {
                throw BackdropError(
                    .badOption,
                    "\(s(.vibrancyStyle)) \(text) goes with a system material (systemMaterial, …) or glass: \(checked.style.name) has no vibrancy levels"
                )
            }
            checked.vibrancyLevel = level
        }
        checked.device = try device.map { id throws(BackdropError) in try Device.lookup(id) }
        if tintOnly == true, checked.path == .blur {
            throw BackdropError(.badOption, "\(s(.tintOnly)) contradicts \(s(.path)) blur")
        }
        if tintOnly == true { checked.path = .tintOnly }
    }
}

extension RenderRequest {
    /// The request a URL query spells (``OptionTextDecoder``): every key but those not in `accepting` (default: all),
    /// an unknown one being an error naming it.
    public init(query: [String: String], accepting keys: Set<CodingKeys> = Set(CodingKeys.allCases))
        throws(BackdropError)
    {
        if let unknown = query.keys.sorted().first(where: { CodingKeys(rawValue: $0).map(keys.contains) != true }) {
            throw BackdropError(.badOption, "unknown parameter '\(unknown)'")
        }
        self = try OptionTextDecoder.decode(RenderRequest.self, keys: CodingKeys.self, from: query)
    }
}

// Reduce Transparency: effects over a picture and scenes' effect views; no blur, so it contradicts `path blur` and
// `exact`. Liquid Glass draws its face over the backdrop's average colour (``Effect/applying(_:)``).
extension RenderRequest {
    /// Reduce Transparency draws no blur: `path` blur beside it is refused, in `s`'s words. The one refusal of every
    /// front end that takes the setting (requests, `estimate`, the preview's `/scene.json`).
    public static func checkReduceTransparency(path: Estimator.PathChoice, spelling s: Spelling) throws(BackdropError) {
        if path == .blur {
            throw BackdropError(.badOption, "\(s(.reduceTransparency)) draws no blur: it contradicts \(s(.path)) blur")
        }
    }

    static let reduceTransparencyRule = FieldRule(
        name: { _, s, _ in s(.reduceTransparency) }, isGiven: { $0.reduceTransparency == true },
        takenBy: [.system, .scene],
        check: { request, s, checked throws(BackdropError) in
            try checkReduceTransparency(path: checked.path, spelling: s)
            if request.exact == true {
                throw BackdropError(
                    .badOption, "\(s(.reduceTransparency)) draws no blur: leave out \(s(.exact)) (the blur's quality)")
            }
        },
        shape: { _, checked, _ in checked.accessibility.reduceTransparency = true })
}

// Increase Contrast: raises a vibrancy level's alpha, so it goes with `vibrancy-style`; nothing else changes
// under it (``AccessibilitySettings``), so anything else is refused.
extension RenderRequest {
    static let increaseContrastRule = FieldRule(
        name: { _, s, _ in s(.increaseContrast) }, isGiven: { $0.increaseContrast == true }, takenBy: [.system],
        check: { request, s, _ throws(BackdropError) in
            guard request.vibrancyStyle != nil else {
                throw BackdropError(
                    .badOption,
                    "\(s(.increaseContrast)) goes with \(s(.vibrancyStyle)): it raises the level's alpha, and changes nothing else"
                )
            }
        },
        shape: { _, checked, _ in checked.accessibility.increaseContrast = true })
}
