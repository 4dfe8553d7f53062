import BackdropImageIO
import Foundation

/// A `.sketch` file (a ZIP archive: its `document.json` lists the pages, each `pages/UUID.json`), a page's JSON, or
/// a document object holding its pages inline (`{"pages": [page, …]}` or `{"document": {"pages": […]}}`), as a scene (`docs/import.md`, "Sketch"): the chosen
/// artboard (the first visible one, or `--node` a `do_objectID`) is the screen; layers keep their `frame`, which
/// Sketch gives in the parent's coordinates. Invisible layers (`isVisible` false) and disabled fills, shadows and
/// blurs are left out; an artboard clips (masksToBounds); a layer with `hasClippingMask` becomes a layer with
/// `mask` holding the siblings above it until one with `shouldBreakMaskChain`; the first shadow is the layer's
/// shadow; a background blur (blur type 3) makes the layer an effect view (``ImportedBlur``, with Sketch's
/// saturation); a Gaussian, motion or zoom blur and inner shadows are priced by their offscreen work, each with a
/// warning.
struct SketchImport {
    let source: String
    let json: ImportJSON
    var warnings: [String] = []
    var hidden = 0
    var count = 0

    init(source: String) {
        self.source = source
        json = ImportJSON(source: source)
    }

    static let artboardClasses: Set<String> = ["artboard", "symbolMaster"]
    static let drawnClasses: Set<String> = [
        "artboard", "symbolMaster", "group", "shapeGroup", "rectangle", "oval", "shapePath", "triangle", "star",
        "polygon", "text", "bitmap", "symbolInstance",
    ]

    mutating func run(_ data: Data, node id: String?) throws(BackdropError) -> ImportedScene {
        let kind = "a Sketch file, page or document"
        var pages: [[String: Any]] = []
        if ZipArchive.looksLikeZip(data) {
            pages = try archivePages(Array(data))
        } else {
            let root = try json.document(data, kind: kind)
            let document = root["document"] as? [String: Any] ?? root
            if root["_class"] as? String == "page" || Self.artboardClasses.contains(root["_class"] as? String ?? "") {
                pages = [root]
            } else if let list = document["pages"] as? [Any] {
                pages = list.compactMap { $0 as? [String: Any] }
                if !pages.isEmpty, pages.allSatisfy({ $0["_ref"] != nil && $0["layers"] == nil }) {
                    throw json.fail(
                        "the document refers to its pages by file: import the .sketch file or a pages/UUID.json of it")
                }
            }
        }
        guard !pages.isEmpty, pages.allSatisfy({ $0["_class"] is String }) else {
            throw json.fail("not \(kind): no '_class' page or 'pages'")
        }
        var chosen: [String: Any]?
        if let id {
            chosen = pages.lazy.compactMap { Self.find(id, in: $0, depth: 0) }.first
            guard chosen != nil else { throw json.fail("layer '\(id)' is not in the file") }
        } else {
            chosen =
                pages.lazy.compactMap { page -> [String: Any]? in
                    if Self.artboardClasses.contains(page["_class"] as? String ?? "") { return page }
                    return (page["layers"] as? [Any] ?? []).lazy.compactMap { $0 as? [String: Any] }.first {
                        Self.artboardClasses.contains($0["_class"] as? String ?? "")
                            && $0["isVisible"] as? Bool != false
                    }
                }.first
            guard chosen != nil else { throw json.fail("no visible artboard in the file (give a layer with --node)") }
        }
        let board = chosen!
        let place = self.place(board)
        guard Self.drawnClasses.contains(board["_class"] as? String ?? "") else {
            throw json.fail("\(place) is a \(board["_class"] as? String ?? "layer") , not an artboard or layer")
        }
        let box = try json.rect(board["frame"], place, what: "frame")
        guard box.width > 0, box.height > 0 else { throw json.fail("\(place): the artboard has no area") }
        var top = board
        top["frame"] = ["x": 0, "y": 0, "width": box.width, "height": box.height]
        let layers = try layer(top, depth: 1)
        if hidden > 0 { warnings.append("\(hidden) hidden layer\(hidden == 1 ? "" : "s") left out") }
        let name = SceneImport.name(board["name"] as? String ?? "", fallback: "sketch")
        let file = source.split(separator: "/").last.map(String.init) ?? source
        let scene = Scene(
            name: name,
            description: SceneImport.name(
                "imported from the Sketch file \(file), artboard '\(name)' (\(board["do_objectID"] as? String ?? "?"))",
                fallback: ""),
            screen: PointSize(width: box.width, height: box.height), layers: layers)
        return ImportedScene(scene: scene, warnings: warnings)
    }

    /// The pages of a `.sketch` file, in the order of its `document.json`'s `pages` (each `_ref` names the member
    /// `_ref + ".json"`); the members inflated hold at most ``SceneImport/maximumBytes`` together.
    func archivePages(_ bytes: [UInt8]) throws(BackdropError) -> [[String: Any]] {
        let archive = try ZipArchive(bytes, source: source)
        var budget = SceneImport.maximumBytes
        func member(_ name: String) throws(BackdropError) -> [String: Any] {
            guard let bytes = try archive.read(name, limit: budget) else {
                throw json.fail("not a Sketch file: the archive has no \(name)")
            }
            budget -= bytes.count
            return try ImportJSON(source: "\(source): \(name)").document(Data(bytes), kind: "a Sketch \(name)")
        }
        let document = try member("document.json")
        var pages: [[String: Any]] = []
        for case let reference as [String: Any] in document["pages"] as? [Any] ?? [] {
            guard let ref = reference["_ref"] as? String else { continue }
            pages.append(try member(ref + ".json"))
        }
        return pages
    }

    static func find(_ id: String, in node: [String: Any], depth: Int) -> [String: Any]? {
        if node["do_objectID"] as? String == id { return node }
        guard depth <= 1000 else { return nil }
        for case let child as [String: Any] in node["layers"] as? [Any] ?? [] {
            if let found = find(id, in: child, depth: depth + 1) { return found }
        }
        return nil
    }

    func place(_ node: [String: Any]) -> String {
        let name = SceneImport.name(node["name"] as? String ?? "", fallback: "?")
        return "layer '\(name)' (\(SceneImport.name(node["do_objectID"] as? String ?? "", fallback: "no id")))"
    }

    mutating func layer(_ node: [String: Any], depth: Int) throws(BackdropError) -> [SceneLayer] {
        let place = self.place(node)
        if try json.bool(node, "isVisible", place) == false {
            hidden += 1
            return []
        }
        let type = node["_class"] as? String ?? ""
        guard Self.drawnClasses.contains(type) else {
            warnings.append("\(place): a \(type.isEmpty ? "layer without a _class" : type) is not drawn: left out")
            return []
        }
        count += 1
        try json.checkTree(place, depth: depth, count: count)
        let box = try json.rect(node["frame"], place, what: "frame")
        var layer = SceneLayer(
            name: SceneImport.name(node["name"] as? String ?? "", fallback: "layer"),
            frame: PointRect(x: box.x, y: box.y, width: max(box.width, 1), height: max(box.height, 1)))
        let style = node["style"] as? [String: Any] ?? [:]
        let context = style["contextSettings"] as? [String: Any] ?? [:]
        layer.opacity = min(max(try json.number(context, "opacity", place) ?? 1, 0), 1)
        if let blend = try json.number(context, "blendMode", place), blend != 0 {
            warnings.append("\(place): blend mode \(Int(blend)) is not priced (drawn as normal)")
        }
        if Self.artboardClasses.contains(type) { layer.masksToBounds = true }
        try corners(node, place, type: type, into: &layer)
        let fill = try fills(node, style, place, type: type, into: &layer)
        try shadows(style, place, into: &layer)
        try blur(style, place, fill: fill, into: &layer)
        var sublayers: [SceneLayer] = []
        var maskGroup: SceneLayer?
        for case let child as [String: Any] in node["layers"] as? [Any] ?? [] {
            let childPlace = self.place(child)
            let visible = try json.bool(child, "isVisible", childPlace) != false
            if let group = maskGroup, try json.bool(child, "shouldBreakMaskChain", childPlace) == true {
                maskGroup = nil
                sublayers.append(group)
            }
            if visible, try json.bool(child, "hasClippingMask", childPlace) == true {
                if let group = maskGroup { sublayers.append(group) }
                let childBox = try json.rect(child["frame"], childPlace, what: "frame")
                var group = SceneLayer(
                    name: SceneImport.name((child["name"] as? String ?? "") + " mask", fallback: "mask"),
                    frame: PointRect(
                        x: childBox.x, y: childBox.y, width: max(childBox.width, 1), height: max(childBox.height, 1)))
                group.mask = true
                // The picture clips to the mask's shape where a radius says it: an oval, a rounded rectangle.
                try corners(child, childPlace, type: child["_class"] as? String ?? "", into: &group)
                group.masksToBounds = group.cornerRadius > 0
                guard depth + 1 <= SceneParser.maximumDepth else {
                    throw json.fail("\(childPlace) nests deeper than a scene's \(SceneParser.maximumDepth) levels")
                }
                maskGroup = group
                continue
            }
            if var group = maskGroup {
                // In the mask's coordinates.
                group.sublayers += try self.layer(child, depth: depth + 2).map { sub in
                    var sub = sub
                    sub.frame = sub.frame.offsetBy(-group.frame.x, -group.frame.y)
                    return sub
                }
                maskGroup = group
            } else {
                sublayers += try self.layer(child, depth: depth + 1)
            }
        }
        if let group = maskGroup { sublayers.append(group) }
        layer.sublayers = sublayers + layer.sublayers
        return [layer]
    }

    /// `fixedRadius`, or the largest `cornerRadius` of the points (a warning when they differ); an oval is rounded
    /// by half its shorter side.
    mutating func corners(_ node: [String: Any], _ place: String, type: String, into layer: inout SceneLayer)
        throws(BackdropError)
    {
        if type == "oval" {
            layer.cornerRadius = min(layer.frame.width, layer.frame.height) / 2
            return
        }
        guard type == "rectangle" else { return }
        var radii: [Double] = []
        for case let point as [String: Any] in node["points"] as? [Any] ?? [] {
            radii.append(max(try json.number(point, "cornerRadius", place) ?? 0, 0))
        }
        layer.cornerRadius = max(try json.number(node, "fixedRadius", place) ?? 0, radii.max() ?? 0)
        if Set(radii).count > 1 {
            warnings.append(
                "\(place): corner radii \(radii.map(ImportedBlur.format).joined(separator: ", ")) differ: "
                    + "priced as one radius of \(ImportedBlur.format(layer.cornerRadius))")
        }
    }

    /// Content from the enabled fills (fill type 4 or 5, a pattern or a noise: image; 0 or 1: solid), a bitmap is an
    /// image, text is text; an artboard's `backgroundColor` when `hasBackgroundColor`. Returns the topmost solid
    /// fill's colour.
    mutating func fills(
        _ node: [String: Any], _ style: [String: Any], _ place: String, type: String, into layer: inout SceneLayer
    ) throws(BackdropError) -> SceneColor? {
        var colour: SceneColor?
        var hasImage = false, hasPaint = false
        for case let fill as [String: Any] in style["fills"] as? [Any] ?? [] {
            if try json.bool(fill, "isEnabled", place) == false { continue }
            let context = fill["contextSettings"] as? [String: Any] ?? [:]
            let opacity = try json.number(context, "opacity", place) ?? 1
            switch Int(try json.number(fill, "fillType", place) ?? 0) {
            case 0:
                hasPaint = true
                colour = try json.colour(fill["color"], place, opacity: opacity)
            case 1: hasPaint = true
            default: hasImage = true
            }
        }
        if Self.artboardClasses.contains(type), try json.bool(node, "hasBackgroundColor", place) == true {
            hasPaint = true
            colour = try json.colour(node["backgroundColor"], place)
        }
        switch type {
        case "text":
            layer.content = .text
            layer.color = colour
        case "bitmap": layer.content = .image
        default:
            if hasImage {
                layer.content = .image
            } else if hasPaint {
                layer.content = .solid
                layer.color = colour
                layer.opaque =
                    colour?.alpha == 255 && layer.opacity == 1 && layer.cornerRadius == 0
                    && ["rectangle", "artboard", "symbolMaster"].contains(type)
            }
        }
        return colour
    }

    /// The first enabled shadow is the layer's; more shadows and inner shadows are warnings (an inner shadow is
    /// priced as Figma's is: a clipped sublayer with a path shadow).
    mutating func shadows(_ style: [String: Any], _ place: String, into layer: inout SceneLayer) throws(BackdropError) {
        for (key, inner) in [("shadows", false), ("innerShadows", true)] {
            for case let shadow as [String: Any] in style[key] as? [Any] ?? [] {
                if try json.bool(shadow, "isEnabled", place) == false { continue }
                let sigma = try json.within(
                    BlurUnits.sigma(sketchShadowBlurRadius: max(try json.number(shadow, "blurRadius", place) ?? 0, 0)),
                    largest: 1000, place, what: "a shadow")
                let dx = try json.number(shadow, "offsetX", place) ?? 0
                let dy = try json.number(shadow, "offsetY", place) ?? 0
                let alpha = try json.alpha(shadow["color"], place)
                if inner {
                    var clip = SceneLayer(
                        name: layer.name + " inner shadow",
                        frame: PointRect(x: 0, y: 0, width: layer.frame.width, height: layer.frame.height))
                    clip.cornerRadius = layer.cornerRadius
                    clip.masksToBounds = true
                    var ring = SceneLayer(name: layer.name + " inner shadow path", frame: clip.frame)
                    ring.shadow = SceneLayer.Shadow(radius: sigma, offsetX: dx, offsetY: dy, opacity: alpha, path: true)
                    clip.sublayers = [ring]
                    layer.sublayers.append(clip)
                    warnings.append(
                        "\(place): an inner shadow (σ \(ImportedBlur.format(sigma)) pt) priced as a clipped sublayer "
                            + "with a path shadow, how UIKit draws one")
                } else if layer.shadow == nil {
                    layer.shadow = SceneLayer.Shadow(radius: sigma, offsetX: dx, offsetY: dy, opacity: alpha)
                    if let spread = try json.number(shadow, "spread", place), spread != 0 {
                        warnings.append(
                            "\(place): a shadow spread of \(ImportedBlur.format(spread)) pt needs a shadowPath: "
                                + "priced without one, as Core Animation's default")
                    }
                } else {
                    warnings.append("\(place): a second shadow is not priced (a CALayer has one shadow)")
                }
            }
        }
    }

    /// `style.blur`: type 3 (background) an effect view; 0, 1 and 2 (Gaussian, motion, zoom) priced as the
    /// offscreen pass and blur of a pathless shadow, with a warning.
    mutating func blur(_ style: [String: Any], _ place: String, fill: SceneColor?, into layer: inout SceneLayer)
        throws(BackdropError)
    {
        guard let blur = style["blur"] as? [String: Any], try json.bool(blur, "isEnabled", place) == true else {
            return
        }
        let sigma = BlurUnits.sigma(sketchBlurRadius: max(try json.number(blur, "radius", place) ?? 10, 0))
        let type = Int(try json.number(blur, "type", place) ?? 0)
        if type == 3 {
            let saturation = try json.number(blur, "saturation", place) ?? 1
            guard (0...10).contains(saturation) else {
                throw json.fail("\(place): a blur saturation of \(saturation) is outside a scene's 0…10")
            }
            let imported = ImportedBlur.effect(
                sigma: try json.within(sigma, largest: 500, place, what: "a background blur"), saturation: saturation,
                tint: fill, place: place)
            layer.effect = SceneLayer.EffectView(style: imported.style)
            layer.content = .none
            layer.color = nil
            layer.opaque = false
            if let warning = imported.warning { warnings.append(warning) }
            return
        }
        let kind = ["a Gaussian", "a motion", "a zoom"][min(max(type, 0), 2)]
        guard layer.shadow == nil else {
            warnings.append(
                "\(place): \(kind) blur (σ \(ImportedBlur.format(sigma)) pt) is not priced: the layer's shadow holds "
                    + "its one offscreen shape")
            return
        }
        layer.shadow = SceneLayer.Shadow(
            radius: try json.within(sigma, largest: 1000, place, what: "a blur"), opacity: 1, path: false)
        warnings.append(
            "\(place): \(kind) blur (σ \(ImportedBlur.format(sigma)) pt) priced as the offscreen pass and blur of a "
                + "pathless shadow of that σ; the picture shows a shadow, not the blur")
    }
}
