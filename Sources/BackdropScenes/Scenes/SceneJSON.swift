import Foundation

/// A ``Scene`` written as the JSON ``SceneParser`` reads: one layer a line where it fits, sublayers indented, keys in
/// the order of `scenes.md` and only those that differ from their defaults. `SceneParser.parse(SceneJSON.text(s))`
/// gives `s` back.
public enum SceneJSON {
    /// The scene's JSON text.
    public static func text(_ scene: Scene) -> String {
        var fields = [
            "\"name\": \(string(scene.name))", "\"description\": \(string(scene.description))",
            "\"redraw\": \(string(scene.redraw.rawValue))",
        ]
        if let screen = scene.screen {
            fields.append("\"screen\": [\(number(screen.width)), \(number(screen.height))]")
        }
        fields.append("\"layers\": " + layers(scene.layers, indent: "  "))
        return "{\n  " + fields.joined(separator: ",\n  ") + "\n}\n"
    }

    static func layers(_ layers: [SceneLayer], indent: String) -> String {
        guard !layers.isEmpty else { return "[]" }
        let inner = indent + "  "
        return "[\n" + layers.map { inner + layer($0, indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
    }

    static func layer(_ layer: SceneLayer, indent: String) -> String {
        let f = layer.frame
        let frame =
            layer.layout.map { layout in
                "{ " + layout.fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + " }"
            } ?? "[\([f.x, f.y, f.width, f.height].map(number).joined(separator: ", "))]"
        var fields = ["\"name\": \(string(layer.name))", "\"frame\": \(frame)"]
        if layer.content != .none { fields.append("\"content\": \(string(layer.content.rawValue))") }
        if let color = layer.color { fields.append("\"color\": \(string(color.description))") }
        if let image = layer.image { fields.append("\"image\": \(string(image))") }
        if layer.opaque { fields.append("\"opaque\": true") }
        if layer.opacity != 1 { fields.append("\"opacity\": \(number(layer.opacity))") }
        if layer.cornerRadius != 0 { fields.append("\"cornerRadius\": \(number(layer.cornerRadius))") }
        if layer.masksToBounds { fields.append("\"masksToBounds\": true") }
        if layer.mask { fields.append("\"mask\": true") }
        if let s = layer.shadow {
            fields.append(
                "\"shadow\": { \"radius\": \(number(s.radius)), \"offset\": [\(number(s.offsetX)), \(number(s.offsetY))], "
                    + "\"opacity\": \(number(s.opacity)), \"path\": \(s.path) }")
        }
        if layer.rasterize { fields.append("\"rasterize\": true") }
        if layer.glassContainer { fields.append("\"glassContainer\": true") }
        if let effect = layer.effect {
            var effectFields = ["\"blur\": \(string(effect.style.name))"]
            if effect.style.name == SceneParser.customBlur {
                let s = effect.style
                let bytes = [s.tintColor.x, s.tintColor.y, s.tintColor.z, s.tintAlpha].map {
                    UInt8((min(max($0, 0), 1) * 255).rounded())
                }
                let tint = SceneColor(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes[3])
                effectFields.append(
                    "\"sigma\": \(number(s.sigmaPoints)), \"saturation\": \(number(s.saturation)), "
                        + "\"tint\": \(string(tint.description))")
            }
            if !effect.vibrancy.isEmpty {
                effectFields.append("\"vibrancy\": " + layers(effect.vibrancy, indent: indent))
            }
            fields.append("\"effect\": { " + effectFields.joined(separator: ", ") + " }")
        }
        if layer.animating { fields.append("\"animating\": true") }
        if layer.scrolls { fields.append("\"scrolls\": true") }
        if let r = layer.repeats {
            fields.append("\"repeat\": { \"count\": \(r.count), \"dx\": \(number(r.dx)), \"dy\": \(number(r.dy)) }")
        }
        if !layer.sublayers.isEmpty { fields.append("\"sublayers\": " + layers(layer.sublayers, indent: indent)) }
        return "{ " + fields.joined(separator: ", ") + " }"
    }

    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }

    static func string(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return String(decoding: (try? encoder.encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}
