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
