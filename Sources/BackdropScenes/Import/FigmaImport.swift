import BackdropImageIO
import Foundation

/// A Figma REST file (`GET /v1/files/:key`), a `/nodes` response, or one node of either saved alone, as a scene (`docs/import.md`, "Figma"): the chosen
/// frame is the screen, its own layer at the origin; rectangles, frames, groups, components, instances, shapes and
/// text become layers in their parent's coordinates (`absoluteBoundingBox` less the parent's). Hidden nodes and
/// hidden effects are left out; `clipsContent` is masksToBounds; a mask node (`isMask`) becomes a layer with
/// `mask` holding the siblings above it; a drop shadow is the layer's shadow; a background blur makes the layer an
/// effect view (``ImportedBlur``); a layer blur and an inner shadow are priced by their offscreen work, each with a
/// warning; what the scene cannot express is a warning.
struct FigmaImport {
    let source: String
    let json: ImportJSON
    var warnings: [String] = []
    var hidden = 0
    var count = 0

    init(source: String) {
        self.source = source
        json = ImportJSON(source: source)
    }

    /// Node types drawn as containers or shapes; every other type (`SLICE`, `CONNECTOR`, …) is left out with a warning.
    static let drawnTypes: Set<String> = [
        "FRAME", "GROUP", "COMPONENT", "COMPONENT_SET", "INSTANCE", "SECTION", "RECTANGLE", "ELLIPSE", "VECTOR",
        "STAR", "LINE", "REGULAR_POLYGON", "BOOLEAN_OPERATION", "TEXT",
    ]
    /// The types the default frame is chosen among: the first of them on the first page.
    static let frameTypes: Set<String> = ["FRAME", "COMPONENT", "INSTANCE", "COMPONENT_SET", "SECTION"]

    mutating func run(_ data: Data, node id: String?) throws(BackdropError) -> ImportedScene {
        let kind = "a Figma file or /nodes response"
        let root = try json.document(data, kind: kind)
        var tops: [[String: Any]] = []
        if let document = root["document"] as? [String: Any] {
            tops = [document]
        } else if let nodes = root["nodes"] as? [String: Any] {
            // JSON objects have no order: the node ids, sorted, keep the choice deterministic.
            tops = nodes.keys.sorted().compactMap { (nodes[$0] as? [String: Any])?["document"] as? [String: Any] }
        } else if root["type"] is String, root["id"] is String {
            // A node saved on its own: a file's `document`, or one node of it.
            tops = [root]
        }
        guard !tops.isEmpty, tops.allSatisfy({ $0["type"] is String }) else {
            throw json.fail("not \(kind): no 'document' or 'nodes' with typed nodes")
        }
        let chosen: [String: Any]
        if let id {
            guard let found = tops.lazy.compactMap({ Self.find(id, in: $0, depth: 0) }).first else {
                throw json.fail("node '\(id)' is not in the file")
            }
            chosen = found
        } else {
            guard let found = tops.lazy.compactMap({ Self.firstFrame(in: $0, depth: 0) }).first else {
                throw json.fail("no visible frame in the file (give one with --node)")
            }
            chosen = found
        }
        let place = self.place(chosen)
        guard Self.drawnTypes.contains(chosen["type"] as? String ?? "") else {
            throw json.fail("\(place) is a \(chosen["type"] as? String ?? "node"), not a frame or layer")
        }
        let box = try json.rect(chosen["absoluteBoundingBox"], place, what: "absoluteBoundingBox")
        guard box.width > 0, box.height > 0 else { throw json.fail("\(place): the frame has no area") }
        let layers = try layer(chosen, origin: (box.x, box.y), depth: 1)
        if hidden > 0 { warnings.append("\(hidden) hidden node\(hidden == 1 ? "" : "s") left out") }
        let name = SceneImport.name(chosen["name"] as? String ?? "", fallback: "figma")
        let file = source.split(separator: "/").last.map(String.init) ?? source
        let scene = Scene(
            name: name,
            description: SceneImport.name(
                "imported from the Figma file \(file), frame '\(name)' (\(chosen["id"] as? String ?? "?"))",
                fallback: ""),
            screen: PointSize(width: box.width, height: box.height), layers: layers)
        return ImportedScene(scene: scene, warnings: warnings)
    }

    /// The node whose `id` is `id`, depth first.
    static func find(_ id: String, in node: [String: Any], depth: Int) -> [String: Any]? {
        if node["id"] as? String == id { return node }
        guard depth <= 1000, let children = node["children"] as? [Any] else { return nil }
        for case let child as [String: Any] in children {
            if let found = find(id, in: child, depth: depth + 1) { return found }
        }
        return nil
    }

    /// The first visible frame of the first page that has one (a node given as a `/nodes` frame is its own).
    static func firstFrame(in node: [String: Any], depth: Int) -> [String: Any]? {
        let type = node["type"] as? String ?? ""
        if frameTypes.contains(type) { return node["visible"] as? Bool == false ? nil : node }
        guard depth < 2, type == "DOCUMENT" || type == "CANVAS", let children = node["children"] as? [Any] else {
            return nil
        }
        for case let child as [String: Any] in children {
            if let found = firstFrame(in: child, depth: depth + 1) { return found }
        }
        return nil
    }

    func place(_ node: [String: Any]) -> String {
        let name = SceneImport.name(node["name"] as? String ?? "", fallback: "?")
        return "node '\(name)' (\(SceneImport.name(node["id"] as? String ?? "", fallback: "no id")))"
    }

    /// The node as layers (none when hidden or not drawn), its frame relative to `origin`, the parent's corner in
    /// page coordinates.
    mutating func layer(_ node: [String: Any], origin: (Double, Double), depth: Int) throws(BackdropError)
        -> [SceneLayer]
    {
        let place = self.place(node)
        if try json.bool(node, "visible", place) == false {
            hidden += 1
            return []
        }
        let type = node["type"] as? String ?? ""
        guard Self.drawnTypes.contains(type) else {
            warnings.append("\(place): a \(type.isEmpty ? "node without a type" : type) is not drawn: left out")
            return []
        }
        count += 1
        try json.checkTree(place, depth: depth, count: count)
        let box = try json.rect(node["absoluteBoundingBox"], place, what: "absoluteBoundingBox")
        // A line or an empty group has no area: drawn as a 1 pt hairline so that the scene keeps it.
        let frame = PointRect(
            x: box.x - origin.0, y: box.y - origin.1, width: max(box.width, 1), height: max(box.height, 1))
        var layer = SceneLayer(name: SceneImport.name(node["name"] as? String ?? "", fallback: "layer"), frame: frame)
        layer.opacity = min(max(try json.number(node, "opacity", place) ?? 1, 0), 1)
        layer.masksToBounds = try json.bool(node, "clipsContent", place) ?? false
        try corners(node, place, into: &layer, type: type)
        let fill = try fills(node, place, into: &layer, type: type)
        if let blend = node["blendMode"] as? String, !["NORMAL", "PASS_THROUGH"].contains(blend) {
            warnings.append("\(place): blend mode \(blend) is not priced (drawn as normal)")
        }
        try effects(node, place, fill: fill, into: &layer)
        if let children = node["children"] as? [Any] {
            try self.children(children, of: &layer, origin: (box.x, box.y), depth: depth)
        }
        return [layer]
    }

    /// `cornerRadius`, or `rectangleCornerRadii` (their largest, with a warning when they differ); an ellipse is
    /// rounded by half its shorter side.
    mutating func corners(_ node: [String: Any], _ place: String, into layer: inout SceneLayer, type: String)
        throws(BackdropError)
    {
        if type == "ELLIPSE" {
            layer.cornerRadius = min(layer.frame.width, layer.frame.height) / 2
            return
        }
        layer.cornerRadius = max(try json.number(node, "cornerRadius", place) ?? 0, 0)
        if let radii = node["rectangleCornerRadii"] as? [Any], radii.count == 4 {
            var values: [Double] = []
            for index in 0..<4 {
                values.append(
                    max(try json.number(["r": radii[index]], "r", place + " rectangleCornerRadii") ?? 0, 0))
            }
            layer.cornerRadius = values.max()!
            if Set(values).count > 1 {
                warnings.append(
                    "\(place): corner radii \(values.map(ImportedBlur.format).joined(separator: ", ")) differ: "
                        + "priced as one radius of \(ImportedBlur.format(layer.cornerRadius))")
            }
        }
    }

    /// The layer's content from its visible fills (an image fill: image; a solid or gradient: solid; text: text) and
    /// the colour of the topmost solid fill at its opacity, which a background blur takes as its tint.
    mutating func fills(_ node: [String: Any], _ place: String, into layer: inout SceneLayer, type: String)
        throws(BackdropError) -> SceneColor?
    {
        var colour: SceneColor?
        var hasImage = false, hasPaint = false
        for case let paint as [String: Any] in node["fills"] as? [Any] ?? [] {
            if try json.bool(paint, "visible", place) == false { continue }
            let opacity = try json.number(paint, "opacity", place) ?? 1
            switch paint["type"] as? String ?? "" {
            case "IMAGE": hasImage = true
            case "SOLID":
                hasPaint = true
                colour = try json.colour(paint["color"], place, opacity: opacity)
            case let other where other.hasPrefix("GRADIENT"): hasPaint = true
            default: break
            }
        }
        if type == "TEXT" {
            layer.content = .text
            layer.color = colour
        } else if hasImage {
            layer.content = .image
        } else if hasPaint {
            layer.content = .solid
            layer.color = colour
            // A fully opaque, square-cornered fill is what UIKit draws with an opaque background colour.
            layer.opaque =
                colour?.alpha == 255 && layer.opacity == 1 && layer.cornerRadius == 0
                && ["FRAME", "RECTANGLE", "COMPONENT", "INSTANCE"].contains(type)
        }
        return colour
    }

    /// Drop shadows, inner shadows, layer and background blurs; any other effect is a warning.
    mutating func effects(_ node: [String: Any], _ place: String, fill: SceneColor?, into layer: inout SceneLayer)
        throws(BackdropError)
    {
        for case let effect as [String: Any] in node["effects"] as? [Any] ?? [] {
            if try json.bool(effect, "visible", place) == false { continue }
            let type = effect["type"] as? String ?? "?"
            let radius = max(try json.number(effect, "radius", place + " " + type) ?? 0, 0)
            let offset = effect["offset"] as? [String: Any] ?? [:]
            let dx = try json.number(offset, "x", place + " " + type) ?? 0
            let dy = try json.number(offset, "y", place + " " + type) ?? 0
            let alpha = try json.alpha(effect["color"], place + " " + type)
            switch type {
            case "DROP_SHADOW":
                guard layer.shadow == nil else {
                    warnings.append("\(place): a second drop shadow is not priced (a CALayer has one shadow)")
                    continue
                }
                let sigma = BlurUnits.sigma(figmaShadowRadius: radius)
                layer.shadow = SceneLayer.Shadow(
                    radius: try json.within(sigma, largest: 1000, place, what: "a shadow"), offsetX: dx, offsetY: dy,
                    opacity: alpha, path: false)
                if let spread = try json.number(effect, "spread", place + " " + type), spread != 0 {
                    warnings.append(
                        "\(place): a shadow spread of \(ImportedBlur.format(spread)) pt needs a shadowPath: "
                            + "priced without one, as Core Animation's default")
                }
            case "INNER_SHADOW":
                // UIKit draws one as a sublayer clipped to the shape, whose shadow comes from a path around it.
                var clip = SceneLayer(
                    name: layer.name + " inner shadow",
                    frame: PointRect(x: 0, y: 0, width: layer.frame.width, height: layer.frame.height))
                clip.cornerRadius = layer.cornerRadius
                clip.masksToBounds = true
                var ring = SceneLayer(name: layer.name + " inner shadow path", frame: clip.frame)
                ring.shadow = SceneLayer.Shadow(
                    radius: try json.within(
                        BlurUnits.sigma(figmaShadowRadius: radius), largest: 1000, place, what: "an inner shadow"),
                    offsetX: dx, offsetY: dy,
                    opacity: alpha, path: true)
                clip.sublayers = [ring]
                layer.sublayers.append(clip)
                warnings.append(
                    "\(place): an inner shadow (σ \(ImportedBlur.format(BlurUnits.sigma(figmaShadowRadius: radius))) pt) "
                        + "priced as a clipped sublayer with a path shadow, how UIKit draws one")
            case "LAYER_BLUR":
                let sigma = BlurUnits.sigma(figmaBlurRadius: radius)
                guard layer.shadow == nil else {
                    warnings.append(
                        "\(place): a layer blur (σ \(ImportedBlur.format(sigma)) pt) is not priced: the layer's "
                            + "shadow holds its one offscreen shape")
                    continue
                }
                layer.shadow = SceneLayer.Shadow(
                    radius: try json.within(sigma, largest: 1000, place, what: "a layer blur"), opacity: 1, path: false)
                warnings.append(
                    "\(place): a layer blur (σ \(ImportedBlur.format(sigma)) pt) priced as the offscreen pass and blur "
                        + "of a pathless shadow of that σ; the picture shows a shadow, not the blur")
            case "BACKGROUND_BLUR":
                let sigma = try json.within(
                    BlurUnits.sigma(figmaBlurRadius: radius), largest: 500, place, what: "a background blur")
                let imported = ImportedBlur.effect(sigma: sigma, saturation: 1, tint: fill, place: place)
                layer.effect = SceneLayer.EffectView(style: imported.style)
                // The fill is drawn by the effect view as its tint.
                layer.content = .none
                layer.color = nil
                layer.opaque = false
                if let warning = imported.warning { warnings.append(warning) }
                if effect["blurType"] as? String == "PROGRESSIVE" {
                    warnings.append("\(place): a progressive blur priced as a uniform one of its radius")
                }
            default:
                warnings.append("\(place): the effect \(type) is not priced")
            }
        }
    }

    /// The visible children as sublayers; a mask node starts a layer with `mask` that holds the siblings above it,
    /// until the next mask, rounded and clipping (masksToBounds) when the mask is an ellipse or has a corner radius.
    mutating func children(_ children: [Any], of layer: inout SceneLayer, origin: (Double, Double), depth: Int)
        throws(BackdropError)
    {
        var maskGroup: (layer: SceneLayer, origin: (Double, Double))?
        var sublayers: [SceneLayer] = []
        for case let child as [String: Any] in children {
            let place = self.place(child)
            if try json.bool(child, "isMask", place) == true, try json.bool(child, "visible", place) != false {
                if let group = maskGroup { sublayers.append(group.layer) }
                let box = try json.rect(child["absoluteBoundingBox"], place, what: "absoluteBoundingBox")
                var group = SceneLayer(
                    name: SceneImport.name((child["name"] as? String ?? "") + " mask", fallback: "mask"),
                    frame: PointRect(
                        x: box.x - origin.0, y: box.y - origin.1, width: max(box.width, 1), height: max(box.height, 1)))
                group.mask = true
                // The picture clips to the mask's shape where a radius says it: an ellipse, a rounded rectangle.
                try corners(child, place, into: &group, type: child["type"] as? String ?? "")
                group.masksToBounds = group.cornerRadius > 0
                guard depth + 1 <= SceneParser.maximumDepth else {
                    throw json.fail("\(place) nests deeper than a scene's \(SceneParser.maximumDepth) levels")
                }
                maskGroup = (group, (box.x, box.y))
                continue
            }
            if var group = maskGroup {
                group.layer.sublayers += try self.layer(child, origin: group.origin, depth: depth + 2)
                maskGroup = group
            } else {
                sublayers += try self.layer(child, origin: origin, depth: depth + 1)
            }
        }
        if let group = maskGroup { sublayers.append(group.layer) }
        // Inner-shadow layers added by the effects are drawn above the children.
        layer.sublayers = sublayers + layer.sublayers
    }
}
