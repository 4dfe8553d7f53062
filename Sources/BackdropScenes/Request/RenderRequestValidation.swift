import BackdropImageIO
import BackdropRendering

/// How a request is checked, whatever its fields: its kind, the first field the kind does not take (from
/// ``fieldRules``), then the fields' values (``checkValues(_:_:into:)``). The fields' own rules are declared beside
/// them, in `RenderRequest.swift`.
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
        var checked = Checked(kind: kind, path: try Self.choice(path, .path, s, default: Estimator.PathChoice.auto))
        if kind == .scene {
            _ = try checkKind(spelling: s)
        } else if let sceneOnly = Self.fieldRules.last, sceneOnly.isGiven(self) {
            // A scene's own fields are named before any value is read, as `backdrop render` always has.
            try checkConflicts(.system, s)
        }
        try checkValues(kind, s, into: &checked)
        var none: Effect? = nil
        for rule in Self.fieldRules where rule.takenBy.contains(kind) && rule.isGiven(self) {
            try rule.check?(self, s, checked)
            rule.shape?(self, &checked, &none)
        }
        guard kind != .scene else { return checked }
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
