import BackdropImageIO
import BackdropRendering

/// A style priced or drawn on a device that never ran the iOS that shipped it: a what-if, not a prediction of
/// shipped behaviour. Every device of 2009–2013 stopped at iOS 12 or earlier, so every iOS 13 material is one there;
/// from 2014 on it depends on the device's last iOS (``Device/lastIOS``): materials on an iPhone 6 (last iOS 12) are
/// one, Liquid Glass on an iPhone XS (last iOS 18) is one, Liquid Glass on an iPhone 17 Pro (iOS 26) is not.
extension Estimator {
    /// "a what-if: the iPhone 4 never ran iOS 13 (last iOS 7.1.2), which shipped systemMaterial", or nil when the
    /// device ran the style's iOS (or the style is not in ``StyleCatalogue``, a custom one). iOS 7's styles are left
    /// to ``BlurDecision/reason``, which already says when a device cannot run iOS 7.
    public static func whatIf(_ style: BlurStyle, on device: Device) -> String? {
        guard let introduced = StyleCatalogue.entry(named: style.name)?.introducedInIOS, introduced > 7,
            isWhatIf(style, on: device)
        else { return nil }
        return
            "a what-if: the \(device.name) never ran iOS \(introduced) (last iOS \(device.lastIOS)), which shipped \(style.name)"
    }

    /// Whether `style` on `device` is a what-if: the device's last iOS is older than the one that shipped the style,
    /// iOS 7's styles on a device that never ran iOS 7 included (the JSON's `whatIf`). False for a custom style.
    public static func isWhatIf(_ style: BlurStyle, on device: Device) -> Bool {
        guard let introduced = StyleCatalogue.entry(named: style.name)?.introducedInIOS,
            let last = Int(device.lastIOS.prefix { $0.isNumber })
        else { return false }
        return last < introduced
    }

    /// What a price or a picture of effect views in `styles` on `device` says beside it: each style's what-if
    /// (``whatIf(_:on:)``), in the order given, then once that Liquid Glass is an approximation
    /// (``GlassParameters/approximationNote``) when one of them is glass.
    public static func styleNotes(_ styles: [BlurStyle], on device: Device) -> [String] {
        var notes = styles.compactMap { whatIf($0, on: device) }
        if styles.contains(where: { $0.glass != nil }) { notes.append(GlassParameters.approximationNote) }
        return notes
    }

    /// The path an effect view of `style` takes under `choice` on a device whose decision is `decided`: a system
    /// material blurs (Apple's default where it shipped, the what-if's assumption elsewhere) unless the choice forces
    /// tint-only, where it draws its Reduce Transparency look (``MaterialAverageColourPass``); glass likewise (its face over the average colour).
    static func path(of style: BlurStyle, _ choice: PathChoice, decided: Effect.Path) -> Effect.Path {
        switch choice {
        case .auto: return style.material == nil && style.glass == nil ? decided : .blur
        case .blur: return .blur
        case .tintOnly: return .tintOnly
        }
    }
}

extension BlurDecision {
    /// The decision with `note` added to its reason ("; " between), or unchanged for nil.
    func noting(_ note: String?) -> BlurDecision {
        guard let note else { return self }
        return BlurDecision(
            path: path, referenceMs: referenceMs, limitMs: limitMs, applePolicy: applePolicy,
            reason: reason + "; " + note)
    }
}
