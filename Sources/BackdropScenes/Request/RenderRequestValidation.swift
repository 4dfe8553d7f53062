import BackdropImageIO
import BackdropRendering

extension RenderRequest {
    /// What a request draws.
    public enum Kind: Sendable, Equatable {
        /// The system blur over `input`.
        case system
        /// `UIImage+ImageEffects` over `input`.
        case imageEffects
        /// A whole screen.
        case scene
    }

    /// A request's fields read and checked (no file read yet): what ``prepare(files:spelling:)`` draws from.
    public struct Checked: Sendable {
        public var kind: Kind
        public var device: Device?
        public var frame: PixelRect?
        public var path: Estimator.PathChoice
        public var overlay: SceneOverlay?
        /// The system blur's style (light for the other kinds).
        public var style: BlurStyle
        /// image-effects' style.
        public var imageEffectsStyle: ImageEffectsStyle?
        public var depth: Int
        /// The vibrant content's level over a system material, if given.
        public var vibrancyLevel: VibrancyLevel? = nil
    }

    /// One row of the conflict table: a field (or a group of fields) and the kinds that take it.
    struct FieldRule: Sendable {
        /// How an error names the field.
        let name: @Sendable (RenderRequest, Spelling, Kind) -> String
        let isGiven: @Sendable (RenderRequest) -> Bool
        let takenBy: Set<Kind>
        /// The refusal's words when the system blur does not take it.
        var systemRefusal: (@Sendable (String, Spelling) -> String)? = nil
    }

    /// The one table of fields and the kinds that take them; every front end's refusals come from it. The order is
    /// the order in which they are checked, so the first conflict named is the same everywhere.
    static let fieldRules: [FieldRule] = [
        FieldRule(
            name: { _, s, _ in s == .option ? "an input PNG" : s(.input) }, isGiven: { $0.input != nil },
            takenBy: [.system, .imageEffects]),
        FieldRule(name: { _, s, _ in s(.frame) }, isGiven: { $0.frame != nil }, takenBy: [.system, .imageEffects]),
        FieldRule(name: { _, s, _ in s(.vibrancy) }, isGiven: { $0.vibrancy != nil }, takenBy: [.system]),
        FieldRule(name: { _, s, _ in s(.at) }, isGiven: { $0.at != nil }, takenBy: [.system]),
        FieldRule(
            name: { _, s, _ in s(.vibrancyStyle) }, isGiven: { $0.vibrancyStyle != nil }, takenBy: [.system]),
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
            name: { _, s, _ in s(.mask) }, isGiven: { $0.mask != nil }, takenBy: [.imageEffects],
            systemRefusal: { name, s in "\(name) goes with \(s(.algorithm)) image-effects" }),
        FieldRule(
            name: { _, s, _ in "\(s(.show)), \(s(.steady)) and \(s(.scrollOffset))" },
            isGiven: { $0.show != nil || $0.steady != nil || $0.scrollOffset != nil }, takenBy: [.scene],
            systemRefusal: { name, s in "\(name) go with \(s(.scene))" }),
    ]

    /// The first field of the table the request's kind does not take, refused in that kind's words.
    func checkConflicts(_ kind: Kind, _ s: Spelling) throws(BackdropError) {
        guard let rule = Self.fieldRules.first(where: { !$0.takenBy.contains(kind) && $0.isGiven(self) }) else {
            return
        }
        let name = rule.name(self, s, kind)
        switch kind {
        case .scene:
            throw BackdropError(
                .badOption, "\(s(.scene)) draws the scene's own layers and effect views: leave out \(name)")
        case .imageEffects:
            throw BackdropError(.badOption, "\(name) is for the system algorithm, not image-effects")
        case .system:
            throw BackdropError(.badOption, rule.systemRefusal?(name, s) ?? "\(name) is not for the system blur")
        }
    }

    /// The kind the fields ask for, checked against the conflict table alone (no value is read): what a golden
    /// manifest checks of every case before running any. A scene needs a device.
    public func checkKind(spelling s: Spelling) throws(BackdropError) -> Kind {
        let kind: Kind =
            scene != nil ? .scene : algorithm == Algorithm.imageEffects.rawValue ? .imageEffects : .system
        try checkConflicts(kind, s)
        if kind == .scene, device == nil {
            throw BackdropError(.badOption, "\(s(.scene)) needs \(s(.device)) ID (see 'backdrop devices')")
        }
        return kind
    }

    /// The request's fields read and checked, with errors naming them in `spelling`: the kind, the conflict table,
    /// then each value. Reads no file.
    public func validate(spelling s: Spelling) throws(BackdropError) -> Checked {
        let algorithm = try Self.choice(self.algorithm, .algorithm, s, default: Algorithm.system)
        let kind: Kind = scene != nil ? .scene : algorithm == .imageEffects ? .imageEffects : .system
        let path = try Self.choice(self.path, .path, s, default: Estimator.PathChoice.auto)
        var checked = Checked(
            kind: kind, device: nil, frame: nil, path: path, overlay: nil, style: .light, imageEffectsStyle: nil,
            depth: depth ?? 8)
        if kind == .scene {
            _ = try checkKind(spelling: s)
            checked.device = try Device.lookup(device ?? "")
            checked.overlay = try show.map { text throws(BackdropError) in
                try Self.choice(text, .show, s, default: SceneOverlay.offscreen)
            }
            let offset = scrollOffset ?? 0
            guard offset.isFinite, abs(offset) <= 1e6 else {
                throw BackdropError(
                    .badOption, "\(s(.scrollOffset)) \(offset) is out of range (±1000000 points)")
            }
            return checked
        }
        // A scene's own fields are named before any value is read, as `backdrop render` always has.
        if let sceneOnly = Self.fieldRules.last, sceneOnly.isGiven(self) { try checkConflicts(.system, s) }
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
            guard checked.style.material != nil else {
                throw BackdropError(
                    .badOption,
                    "\(s(.vibrancyStyle)) \(text) goes with a system material (systemMaterial, …): \(checked.style.name) has no vibrancy levels"
                )
            }
            checked.vibrancyLevel = level
        }
        checked.device = try device.map { id throws(BackdropError) in try Device.lookup(id) }
        if tintOnly == true, path == .blur {
            throw BackdropError(.badOption, "\(s(.tintOnly)) contradicts \(s(.path)) blur")
        }
        if tintOnly == true { checked.path = .tintOnly }
        try checkConflicts(kind, s)
        if kind == .imageEffects {
            checked.imageEffectsStyle = try ImageEffectsStyle.resolve(styleChoice, optionPrefix: s.prefix)
        }
        return checked
    }

    /// The value `text` names among `Value`'s cases, or `fallback` when absent; an unknown name is an error listing
    /// the known ones.
    static func choice<Value: RawRepresentable & CaseIterable>(
        _ text: String?, _ key: CodingKeys, _ s: Spelling, default fallback: Value
    ) throws(BackdropError) -> Value where Value.RawValue == String {
        guard let text else { return fallback }
        guard let value = Value(rawValue: text) else {
            let known = Value.allCases.map(\.rawValue).joined(separator: ", ")
            throw BackdropError(.badOption, "unknown \(s(key)) '\(text)' (known: \(known))")
        }
        return value
    }
}
