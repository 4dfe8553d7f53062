import BackdropImageIO
import BackdropRendering
import Foundation

/// Reads a scene from its JSON form (`docs/scene-format.md`), strictly: an unknown key, a value of the
/// wrong type or out of range, a frame that is not four numbers with a positive size, or a top-level layer
/// wholly outside the screen is a one-line error naming the file and the path to the value
/// (`photos.json: layers[1].sublayers[0].frame: …`). Never a crash, whatever the bytes.
public enum SceneParser {
    /// The largest scene file read, bytes.
    public static let maximumBytes = 4 << 20
    /// The most layers a scene may draw once repeats are expanded: keeps a hostile `repeat` from taking the
    /// machine.
    public static let maximumLayerInstances = 100_000
    /// The longest name (of the scene or of a layer) and description, in characters: a name is copied into every
    /// pass its layer adds (a 10 000-character name repeated 1 000 times took 470 MB).
    public static let longestName = 256
    public static let longestDescription = 4096
    /// The deepest nesting of sublayers.
    public static let maximumDepth = 32
    /// Where top-level layers must overlap when the scene gives no screen: the largest screen of the device table
    /// in points (an iPad, landscape).
    public static let largestScreen = PointSize(width: 1024, height: 768)

    /// The `blur` of an effect view whose style is given by its numbers (``customStyle(sigma:saturation:tint:)``).
    public static let customBlur = "custom"

    /// The style of a custom blur: σ in points, a saturation factor, and the tint's colour with its opacity as
    /// the alpha byte; the tint-only fallback at 90 %, vibrancy plus-darker (`render --style custom`'s defaults).
    public static func customStyle(sigma: Double, saturation: Double, tint: SceneColor) -> BlurStyle {
        BlurStyle(
            name: customBlur, sigmaPoints: sigma, saturation: saturation,
            tintColor: SIMD3(Double(tint.red), Double(tint.green), Double(tint.blue)) / 255,
            tintAlpha: Double(tint.alpha) / 255, fallbackAlpha: 0.9, vibrancyBlend: .plusDarker)
    }

    /// The scene in the file at `path`.
    public static func parse(fileAt path: String) throws(BackdropError) -> Scene {
        let bytes = try InputFile.bytes(of: path, limit: maximumBytes, what: "the scene file")
        var scene = try parse(Data(bytes), source: path, imagesAllowed: true)
        scene.folder = PathComponents.folder(of: path)
        return scene
    }

    /// The scene in `data`; `source` names it in errors. `image` keys need a scene file to be relative to: from
    /// bytes alone (`imagesAllowed` false) they are an error.
    public static func parse(_ data: Data, source: String, imagesAllowed: Bool = false) throws(BackdropError) -> Scene {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            throw BackdropError(.badInput, "\(source): not valid JSON (\(JSONSyntax.describe(error, in: data)))")
        }
        var reader = Reader(source: source, imagesAllowed: imagesAllowed)
        return try reader.scene(object)
    }

    struct Reader {
        let source: String
        let imagesAllowed: Bool
        var instances = 0
        /// The size of the layer whose sublayers are being read (the screen at the top): what a frame of edges and
        /// percentages is laid out in as it is read.
        var parentSize = SceneParser.largestScreen

        func fail(_ path: String, _ problem: String) -> BackdropError {
            BackdropError(.badInput, "\(source): \(path.isEmpty ? "" : path + ": ")\(problem)")
        }

        func object(_ value: Any, _ path: String, keys: Set<String>) throws(BackdropError) -> [String: Any] {
            guard let dictionary = value as? [String: Any] else { throw fail(path, "expected an object") }
            if let unknown = dictionary.keys.sorted().first(where: { !keys.contains($0) }) {
                throw fail(path, "unknown key '\(unknown)' (known: \(keys.sorted().joined(separator: ", ")))")
            }
            return dictionary
        }

        func number(_ value: Any, _ path: String, in range: ClosedRange<Double>) throws(BackdropError) -> Double {
            guard !Self.isBoolean(value), let number = (value as? NSNumber)?.doubleValue, number.isFinite else {
                throw fail(path, "expected a number")
            }
            guard range.contains(number) else {
                throw fail(path, "\(number) is outside \(range.lowerBound)…\(range.upperBound)")
            }
            return number
        }

        func bool(_ value: Any, _ path: String) throws(BackdropError) -> Bool {
            guard Self.isBoolean(value), let flag = value as? Bool else { throw fail(path, "expected true or false") }
            return flag
        }

        /// Whether JSONSerialization read `value` as true or false: both Foundations give those a boolean class
        /// of their own, while a number 1 also converts to Bool.
        static func isBoolean(_ value: Any) -> Bool {
            String(describing: type(of: value)).hasSuffix("Boolean")
        }

        /// A string; control characters (an escape sequence, a NUL) and bidirectional controls (U+202E, U+2066…)
        /// are refused: names reach terminals, JSON and SVG.
        func string(_ value: Any, _ path: String, longest: Int = SceneParser.longestName) throws(BackdropError)
            -> String
        {
            guard let text = value as? String else { throw fail(path, "expected a string") }
            guard text.count <= longest else { throw fail(path, "longer than \(longest) characters") }
            if let control = text.unicodeScalars.first(where: {
                $0.properties.generalCategory == .control || String.bidiControls.contains($0.value)
            }) {
                throw fail(
                    path, "control character U+\(String(format: "%04X", control.value)) is not allowed in a name")
            }
            return text
        }

        /// A frame given as edges and sizes (``SceneLayout``): two of left, right and width, two of top, bottom and
        /// height, each points or "N%" of the parent.
        func layout(_ edges: [String: Any], _ path: String) throws(BackdropError) -> SceneLayout {
            let keys: Set<String> = ["left", "right", "width", "top", "bottom", "height"]
            _ = try object(edges, path, keys: keys)
            func length(_ key: String) throws(BackdropError) -> SceneLayout.Length? {
                guard let value = edges[key] else { return nil }
                let isSize = key == "width" || key == "height"
                if let text = value as? String {
                    guard text.hasSuffix("%"), let percent = DecimalNumber.parse(text.dropLast()) else {
                        throw fail(path + "." + key, "'\(text)' is neither points nor a percentage such as \"50%\"")
                    }
                    guard (0...100).contains(percent) else {
                        throw fail(path + "." + key, "\(text) is outside 0–100 %")
                    }
                    return .percent(percent)
                }
                let points = try number(value, path + "." + key, in: -1e6...1e6)
                if isSize, points < 0 { throw fail(path + "." + key, "a size must not be negative (\(points))") }
                return .points(points)
            }
            let layout = SceneLayout(
                left: try length("left"), right: try length("right"), width: try length("width"),
                top: try length("top"), bottom: try length("bottom"), height: try length("height"))
            for axis in [["left", "right", "width"], ["top", "bottom", "height"]] {
                let given = axis.filter { edges[$0] != nil }
                guard given.count == 2 else {
                    let list = "\(axis[0]), \(axis[1]) and \(axis[2])"
                    throw fail(
                        path,
                        given.count == 3
                            ? "\(list) over-constrain the frame: give two of them"
                            : "give two of \(list)\(given.isEmpty ? "" : " (only \(given[0]))")")
                }
            }
            return layout
        }

        func numbers(_ value: Any, _ path: String, count: Int, what: String) throws(BackdropError) -> [Double] {
            guard let array = value as? [Any], array.count == count else {
                throw fail(path, "expected \(what)")
            }
            var result: [Double] = []
            for (index, element) in array.enumerated() {
                result.append(try number(element, "\(path)[\(index)]", in: -1e6...1e6))
            }
            return result
        }

        mutating func scene(_ value: Any) throws(BackdropError) -> Scene {
            let dictionary = try object(value, "", keys: ["name", "description", "redraw", "screen", "layers"])
            let name = try dictionary["name"].map { v throws(BackdropError) in try string(v, "name") } ?? "scene"
            let description =
                try dictionary["description"].map { v throws(BackdropError) in
                    try string(v, "description", longest: SceneParser.longestDescription)
                } ?? ""
            var redraw = Scene.Redraw.scrolling
            if let value = dictionary["redraw"] {
                let text = try string(value, "redraw")
                guard let parsed = Scene.Redraw(rawValue: text) else {
                    throw fail("redraw", "unknown value '\(text)' (known: scrolling, static)")
                }
                redraw = parsed
            }
            var screen: PointSize?
            if let value = dictionary["screen"] {
                let size = try numbers(value, "screen", count: 2, what: "[w, h] in points")
                guard size.allSatisfy({ $0 > 0 }) else { throw fail("screen", "the size must be positive") }
                screen = PointSize(width: size[0], height: size[1])
            }
            guard let layerValues = dictionary["layers"] else { throw fail("", "missing key 'layers'") }
            guard let array = layerValues as? [Any] else { throw fail("layers", "expected an array of layers") }
            var layers: [SceneLayer] = []
            let bounds = PointRect(
                x: 0, y: 0, width: (screen ?? SceneParser.largestScreen).width,
                height: (screen ?? SceneParser.largestScreen).height)
            parentSize = PointSize(width: bounds.width, height: bounds.height)
            for (index, element) in array.enumerated() {
                let path = "layers[\(index)]"
                let layer = try self.layer(element, path, depth: 1, multiplier: 1)
                guard !layer.frame.intersection(bounds).isEmpty else {
                    throw fail(
                        path + ".frame",
                        "the layer [\(layer.frame)] lies wholly outside the \(Int(bounds.width))×\(Int(bounds.height)) pt screen"
                    )
                }
                layers.append(layer)
            }
            return Scene(name: name, description: description, redraw: redraw, screen: screen, layers: layers)
        }

        static let layerKeys: Set<String> = [
            "name", "frame", "content", "color", "image", "opaque", "opacity", "cornerRadius", "masksToBounds",
            "mask", "shadow", "rasterize", "effect", "glassContainer", "animating", "scrolls", "repeat", "sublayers",
        ]

        mutating func layer(_ value: Any, _ path: String, depth: Int, multiplier: Int) throws(BackdropError)
            -> SceneLayer
        {
            guard depth <= SceneParser.maximumDepth else {
                throw fail(path, "sublayers nest deeper than \(SceneParser.maximumDepth)")
            }
            let dictionary = try object(value, path, keys: Self.layerKeys)
            let name = try dictionary["name"].map { v throws(BackdropError) in try string(v, path + ".name") } ?? path
            guard let frameValue = dictionary["frame"] else { throw fail(path, "missing key 'frame'") }
            var layer: SceneLayer
            if let edges = frameValue as? [String: Any] {
                let layout = try self.layout(edges, path + ".frame")
                layer = SceneLayer(name: name, frame: layout.frame(in: parentSize))
                layer.layout = layout
            } else {
                let f = try numbers(
                    frameValue, path + ".frame", count: 4,
                    what: "[x, y, w, h] in points, or an object of edges and sizes")
                guard f[2] > 0, f[3] > 0 else {
                    throw fail(path + ".frame", "the width and height must be positive")
                }
                layer = SceneLayer(name: name, frame: PointRect(x: f[0], y: f[1], width: f[2], height: f[3]))
            }
            // The parent of this layer's sublayers and vibrant layers, as parsed; the planner lays them out again on
            // each screen.
            let outerParent = parentSize
            parentSize = PointSize(width: layer.frame.width, height: layer.frame.height)
            defer { parentSize = outerParent }
            if let value = dictionary["content"] {
                let text = try string(value, path + ".content")
                guard let content = SceneLayer.Content(rawValue: text) else {
                    throw fail(path + ".content", "unknown value '\(text)' (known: solid, image, text, none)")
                }
                layer.content = content
            }
            if let value = dictionary["color"] {
                let text = try string(value, path + ".color")
                guard let color = SceneColor(hex: text) else {
                    throw fail(path + ".color", "'\(text)' is not a colour (\"#RRGGBB\" or \"#RRGGBBAA\")")
                }
                layer.color = color
            }
            if let value = dictionary["image"] {
                let text = try string(value, path + ".image", longest: 1024)
                guard imagesAllowed else {
                    throw fail(path + ".image", "an image path needs a scene file to be relative to")
                }
                guard layer.content == .image else { throw fail(path + ".image", "goes with \"content\": \"image\"") }
                guard !text.isEmpty, !text.hasPrefix("/"), !text.split(separator: "/").contains("..") else {
                    throw fail(path + ".image", "'\(text)' must be a path inside the scene file's folder")
                }
                layer.image = text
            }
            if let value = dictionary["opaque"] { layer.opaque = try bool(value, path + ".opaque") }
            if let value = dictionary["opacity"] { layer.opacity = try number(value, path + ".opacity", in: 0...1) }
            if let value = dictionary["cornerRadius"] {
                layer.cornerRadius = try number(value, path + ".cornerRadius", in: 0...1e6)
            }
            if let value = dictionary["masksToBounds"] {
                layer.masksToBounds = try bool(value, path + ".masksToBounds")
            }
            if let value = dictionary["mask"] { layer.mask = try bool(value, path + ".mask") }
            if let value = dictionary["rasterize"] { layer.rasterize = try bool(value, path + ".rasterize") }
            if let value = dictionary["glassContainer"] {
                layer.glassContainer = try bool(value, path + ".glassContainer")
            }
            if let value = dictionary["animating"] { layer.animating = try bool(value, path + ".animating") }
            if let value = dictionary["scrolls"] { layer.scrolls = try bool(value, path + ".scrolls") }
            if let value = dictionary["shadow"] { layer.shadow = try shadow(value, path + ".shadow") }
            var copies = 1
            if let value = dictionary["repeat"] {
                let repeatPath = path + ".repeat"
                let r = try object(value, repeatPath, keys: ["count", "dx", "dy"])
                guard let countValue = r["count"] else { throw fail(repeatPath, "missing key 'count'") }
                let count = try number(
                    countValue, repeatPath + ".count", in: 1...Double(SceneParser.maximumLayerInstances))
                guard count.rounded() == count else { throw fail(repeatPath + ".count", "expected a whole number") }
                let dx =
                    try r["dx"].map { v throws(BackdropError) in try number(v, repeatPath + ".dx", in: -1e6...1e6) }
                    ?? 0
                let dy =
                    try r["dy"].map { v throws(BackdropError) in try number(v, repeatPath + ".dy", in: -1e6...1e6) }
                    ?? 0
                copies = Int(count)
                layer.repeats = SceneLayer.Repeat(count: copies, dx: dx, dy: dy)
            }
            let total = multiplier.multipliedReportingOverflow(by: copies)
            instances += total.overflow ? Int.max / 2 : total.partialValue
            guard !total.overflow, instances <= SceneParser.maximumLayerInstances else {
                throw fail(
                    path,
                    "the scene draws more than \(SceneParser.maximumLayerInstances) layers once repeats are expanded")
            }
            if let value = dictionary["effect"] {
                layer.effect = try effect(value, path + ".effect", depth: depth, multiplier: total.partialValue)
            }
            if let value = dictionary["sublayers"] {
                guard let array = value as? [Any] else {
                    throw fail(path + ".sublayers", "expected an array of layers")
                }
                for (index, element) in array.enumerated() {
                    layer.sublayers.append(
                        try self.layer(
                            element, "\(path).sublayers[\(index)]", depth: depth + 1,
                            multiplier: total.partialValue))
                }
            }
            return layer
        }

        func shadow(_ value: Any, _ path: String) throws(BackdropError) -> SceneLayer.Shadow {
            let dictionary = try object(value, path, keys: ["radius", "offset", "opacity", "path"])
            var shadow = SceneLayer.Shadow(radius: 3, offsetX: 0, offsetY: -3, opacity: 0)  // CALayer's defaults
            if let value = dictionary["radius"] { shadow.radius = try number(value, path + ".radius", in: 0...1000) }
            if let value = dictionary["offset"] {
                let offset = try numbers(value, path + ".offset", count: 2, what: "[dx, dy] in points")
                shadow.offsetX = offset[0]
                shadow.offsetY = offset[1]
            }
            if let value = dictionary["opacity"] { shadow.opacity = try number(value, path + ".opacity", in: 0...1) }
            if let value = dictionary["path"] { shadow.path = try bool(value, path + ".path") }
            return shadow
        }

        /// A custom blur: `sigma` (σ in points, 0–500), `saturation` (0–10) and `tint` (`"#RRGGBBAA"`: the tint's
        /// colour and its opacity), all three required; no `appearance`. Its tint-only fallback draws the tint at
        /// 90 % and vibrant layers blend plus-darker, as `render --style custom` does by default.
        func customStyle(_ dictionary: [String: Any], _ path: String) throws(BackdropError) -> BlurStyle {
            guard dictionary["appearance"] == nil else {
                throw fail(path + ".appearance", "goes with an adaptive style, not a custom blur")
            }
            for key in ["sigma", "saturation", "tint"] where dictionary[key] == nil {
                throw fail(path, "a custom blur needs 'sigma', 'saturation' and 'tint' (missing '\(key)')")
            }
            let sigma = try number(dictionary["sigma"]!, path + ".sigma", in: 0...500)
            let saturation = try number(dictionary["saturation"]!, path + ".saturation", in: 0...10)
            let text = try string(dictionary["tint"]!, path + ".tint")
            guard let tint = SceneColor(hex: text) else {
                throw fail(path + ".tint", "'\(text)' is not a colour (\"#RRGGBB\" or \"#RRGGBBAA\")")
            }
            return SceneParser.customStyle(sigma: sigma, saturation: saturation, tint: tint)
        }

        mutating func effect(_ value: Any, _ path: String, depth: Int, multiplier: Int) throws(BackdropError)
            -> SceneLayer.EffectView
        {
            let dictionary = try object(
                value, path, keys: ["blur", "vibrancy", "appearance", "sigma", "saturation", "tint"])
            guard let blurValue = dictionary["blur"] else { throw fail(path, "missing key 'blur'") }
            let name = try string(blurValue, path + ".blur")
            let appearance = try dictionary["appearance"].map { value throws(BackdropError) in
                try string(value, path + ".appearance")
            }
            let style: BlurStyle
            if name == SceneParser.customBlur {
                style = try customStyle(dictionary, path)
            } else {
                if let key = ["sigma", "saturation", "tint"].first(where: { dictionary[$0] != nil }) {
                    throw fail(path + "." + key, "goes with \"blur\": \"custom\"")
                }
                do {
                    style = try StyleCatalogue.style(named: name, appearance: appearance, optionPrefix: "")
                } catch {
                    throw fail(
                        path + (StyleCatalogue.entry(named: name) == nil ? ".blur" : ".appearance"), error.message)
                }
            }
            var effect = SceneLayer.EffectView(style: style)
            if let value = dictionary["vibrancy"] {
                guard let array = value as? [Any] else { throw fail(path + ".vibrancy", "expected an array of layers") }
                for (index, element) in array.enumerated() {
                    let place = "\(path).vibrancy[\(index)]"
                    let vibrant = try layer(element, place, depth: depth + 1, multiplier: multiplier)
                    // A vibrant layer is drawn into the view's vibrant content: an effect view inside one would be
                    // neither drawn nor priced.
                    func holdsAnEffect(_ layer: SceneLayer) -> Bool {
                        layer.effect != nil || layer.sublayers.contains(where: holdsAnEffect)
                    }
                    if holdsAnEffect(vibrant) {
                        throw fail(place, "a vibrant layer is drawn as content: it cannot hold an effect view")
                    }
                    effect.vibrancy.append(vibrant)
                }
            }
            return effect
        }
    }
}
