import BackdropRendering
import Foundation

/// A backdrop blur from a design file as a scene effect: an Apple style when one has the same numbers, else a
/// custom blur (``SceneParser/customStyle(sigma:saturation:tint:)``) with a warning naming the nearest Apple style.
enum ImportedBlur {
    /// The styles a custom blur is compared with: iOS 7's three (blur, saturation, tint) and the system materials
    /// in a fixed appearance (blur and saturation; a material has no tint, so it counts as light or dark).
    static let candidates: [BlurStyle] =
        BlurStyle.builtIn
        + StyleCatalogue.all.filter { !$0.isAdaptive && $0.light.material != nil }.map(\.light)

    /// The effect for a blur of σ `sigma` points (0–500), saturation `saturation` (0–10; the importers check both),
    /// tinted `tint` (nil: none), and the warning
    /// to print when it is a custom blur (nil when an Apple style matches: σ within 0.5 pt, saturation within 0.05,
    /// tint within 2 of 255 per channel).
    static func effect(sigma: Double, saturation: Double, tint: SceneColor?, place: String)
        -> (style: BlurStyle, warning: String?)
    {
        let tint = tint ?? SceneColor(red: 255, green: 255, blue: 255, alpha: 0)
        let style = SceneParser.customStyle(
            sigma: sigma, saturation: saturation, tint: tint)
        if let same = BlurStyle.builtIn.first(where: { matches($0, style) }) { return (same, nil) }
        let nearest = nearest(to: style)
        return (
            style,
            "\(place): a background blur of σ \(format(style.sigmaPoints)) pt, saturation \(format(style.saturation)), "
                + "tint \(tint) matches no Apple style: a custom blur (nearest Apple style: \(nearest.name), "
                + "σ \(format(nearest.sigmaPoints)) pt)"
        )
    }

    static func matches(_ a: BlurStyle, _ b: BlurStyle) -> Bool {
        let tint = [a.tintColor.x - b.tintColor.x, a.tintColor.y - b.tintColor.y, a.tintColor.z - b.tintColor.z]
        return abs(a.sigmaPoints - b.sigmaPoints) <= 0.5 && abs(a.saturation - b.saturation) <= 0.05
            && tint.allSatisfy { abs($0) <= 2.0 / 255 } && abs(a.tintAlpha - b.tintAlpha) <= 2.0 / 255
    }

    /// The candidate nearest `style`: the distance is |ln(σ / σ')| plus the difference of lightness (the tint's
    /// Rec. 709 luma over mid grey at its opacity; a material counts as 0.75 light or 0.25 dark), plus a tenth of the
    /// saturations' difference. A rough likeness for the warning, not a measurement.
    static func nearest(to style: BlurStyle) -> BlurStyle {
        func lightness(_ s: BlurStyle) -> Double {
            if let material = s.material { return material.isDark ? 0.25 : 0.75 }
            let luma = 0.2126 * s.tintColor.x + 0.7152 * s.tintColor.y + 0.0722 * s.tintColor.z
            return s.tintAlpha * luma + (1 - s.tintAlpha) * 0.5
        }
        func distance(_ s: BlurStyle) -> Double {
            abs(log(max(style.sigmaPoints, 0.5) / max(s.sigmaPoints, 0.5))) + abs(lightness(style) - lightness(s))
                + abs(style.saturation - s.saturation) / 10
        }
        return candidates.min { distance($0) < distance($1) }!
    }

    static func format(_ value: Double) -> String { SceneJSON.number((value * 100).rounded() / 100) }
}
