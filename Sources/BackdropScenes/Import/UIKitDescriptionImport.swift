import BackdropImageIO
import BackdropRendering
import Foundation

/// The text of UIKit's `-[UIView recursiveDescription]` as a scene (`docs/import.md`, "UIKit"): a view a line, its
/// depth the count of `|` before it, `frame = (x y; w h)` in the superview's points. The chosen view (the first
/// line, or `--node ADDRESS`) is the screen. `hidden = YES` and `alpha = 0` views are left out with their
/// subviews; `alpha` is the layer's opacity, `clipsToBounds = YES` masksToBounds; `backgroundColor` makes a solid
/// layer (opaque when its alpha is 1 and the line does not say `opaque = NO`); a UIImageView is an image, a
/// UILabel (or a class whose name ends in `Label`), UITextView or UITextField text. A UIVisualEffectView with `style=UIBlurEffectStyle…` is an effect view
/// of that style; its private subviews (`_UIVisualEffect…`) are its passes, its content view's subviews its
/// sublayers, and a vibrancy effect view inside it gives its vibrant layers. `cornerRadius` and `mask` (or
/// `layer.cornerRadius`, `layer.mask`, `maskView`), which UIKit does not print but dumps may add, are read.
struct UIKitDescriptionImport {
    let source: String
    var warnings: [String] = []
    var hidden = 0

    init(source: String) { self.source = source }

    func fail(_ problem: String) -> BackdropError { BackdropError(.badInput, "\(source): \(problem)") }

    /// One view line.
    struct View {
        var line: Int
        var className: String
        var address: String?
        var fields: [String: String]
        /// What follows the description on the line (a visual effect view's `effect=… style=…`).
        var tail: String
        var children: [View] = []
    }

    mutating func run(_ data: Data, node address: String?) throws(BackdropError) -> ImportedScene {
        guard let text = String(data: data, encoding: .utf8) else { throw fail("not UTF-8 text") }
        let roots = try parse(text)
        guard let first = roots.first else {
            throw fail(
                "not a recursiveDescription: no line like '<UIView: 0x…; frame = (0 0; 320 568); layer = <CALayer: 0x…>>'"
            )
        }
        var chosen = first
        if let address {
            guard let found = roots.lazy.compactMap({ Self.find(address, in: $0) }).first else {
                throw fail("view '\(address)' is not in the description")
            }
            chosen = found
        }
        let frame = try self.frame(chosen)
        guard frame.width > 0, frame.height > 0 else { throw fail("line \(chosen.line): the view has no area") }
        var root = chosen
        root.fields["frame"] = "(0 0; \(SceneJSON.number(frame.width)) \(SceneJSON.number(frame.height)))"
        let layers = try layer(root, depth: 1, blurAncestor: false).layers
        if hidden > 0 { warnings.append("\(hidden) hidden view\(hidden == 1 ? "" : "s") left out") }
        let name = SceneImport.name(chosen.className, fallback: "view")
        let file = source.split(separator: "/").last.map(String.init) ?? source
        let scene = Scene(
            name: name,
            description: SceneImport.name("imported from the UIKit description \(file), view \(name)", fallback: ""),
            screen: PointSize(width: frame.width, height: frame.height), layers: layers)
        return ImportedScene(scene: scene, warnings: warnings)
    }

    static func find(_ address: String, in view: View) -> View? {
        if view.address == address { return view }
        for child in view.children {
            if let found = find(address, in: child) { return found }
        }
        return nil
    }

    /// The views of `text`, as trees; lines that are not a view's (a debugger's prompt) are skipped.
    func parse(_ text: String) throws(BackdropError) -> [View] {
        var stack: [View] = []
        var roots: [View] = []
        func close(to depth: Int) {
            while stack.count > depth {
                let view = stack.removeLast()
                if stack.isEmpty { roots.append(view) } else { stack[stack.count - 1].children.append(view) }
            }
        }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            guard let start = line.firstIndex(of: "<") else { continue }
            let prefix = line[..<start]
            guard prefix.allSatisfy({ $0 == " " || $0 == "|" || $0 == "\t" }) else { continue }
            let depth = prefix.filter { $0 == "|" }.count
            guard let view = try view(line[start...], number: index + 1) else { continue }
            guard depth <= stack.count, depth <= 1000 else {
                throw fail("line \(index + 1): nested \(depth) deep under a view \(stack.count) deep")
            }
            guard depth < SceneParser.maximumDepth + 8 else {
                throw fail("line \(index + 1): views nest deeper than a scene's \(SceneParser.maximumDepth) levels")
            }
            close(to: depth)
            stack.append(view)
        }
        close(to: 0)
        return roots
    }

    /// `<Class: 0xADDRESS; key = value; …>` and what follows; nil when the line is no view's (no `frame`).
    func view(_ line: Substring, number: Int) throws(BackdropError) -> View? {
        // The description ends at the `>` that closes its `<`.
        var depth = 0, end: Substring.Index?
        for index in line.indices {
            switch line[index] {
            case "<", "(": depth += 1
            case ">", ")":
                depth -= 1
                if depth == 0 { end = index }
            default: break
            }
            if end != nil { break }
        }
        guard let end else { return nil }
        let body = line[line.index(after: line.startIndex)..<end]
        let parts = Self.split(body)
        guard let head = parts.first else { return nil }
        let headParts = head.split(separator: ":", maxSplits: 1)
        let className = headParts.first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !className.isEmpty, className.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
        else { return nil }
        var fields: [String: String] = [:]
        for part in parts.dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            fields[pair[0].trimmingCharacters(in: .whitespaces)] = pair[1].trimmingCharacters(in: .whitespaces)
        }
        guard fields["frame"] != nil else { return nil }
        let address = headParts.count == 2 ? headParts[1].trimmingCharacters(in: .whitespaces) : nil
        return View(
            line: number, className: className, address: address?.isEmpty == false ? address : nil, fields: fields,
            tail: String(line[line.index(after: end)...]))
    }

    /// `text` split at the `;` outside parentheses and angle brackets.
    static func split(_ text: Substring) -> [Substring] {
        var parts: [Substring] = []
        var depth = 0, start = text.startIndex
        for index in text.indices {
            switch text[index] {
            case "<", "(": depth += 1
            case ">", ")": depth -= 1
            case ";" where depth == 0:
                parts.append(text[start..<index])
                start = text.index(after: index)
            default: break
            }
        }
        parts.append(text[start...])
        return parts
    }

    /// A number of a field, finite and within the scene's bound.
    func number(_ text: String, _ view: View, _ key: String) throws(BackdropError) -> Double {
        guard let value = DecimalNumber.parse(text.trimmingCharacters(in: .whitespaces)),
            abs(value) <= SceneImport.largestCoordinate
        else {
            throw fail(
                "line \(view.line): \(key) '\(text)' is not a finite number within ±\(Int(SceneImport.largestCoordinate))"
            )
        }
        return value
    }

    /// `frame = (x y; w h)`.
    func frame(_ view: View) throws(BackdropError) -> PointRect {
        let text = view.fields["frame"] ?? ""
        let numbers = text.trimmingCharacters(in: CharacterSet(charactersIn: "() ")).split(whereSeparator: {
            $0 == " " || $0 == ";"
        })
        guard numbers.count == 4 else { throw fail("line \(view.line): frame '\(text)' is not (x y; w h)") }
        var values: [Double] = []
        for part in numbers { values.append(try number(String(part), view, "frame")) }
        guard values[2] >= 0, values[3] >= 0 else { throw fail("line \(view.line): the frame has a negative size") }
        return PointRect(x: values[0], y: values[1], width: values[2], height: values[3])
    }

    /// `backgroundColor`'s alpha: the last number of `UIExtendedSRGBColorSpace r g b a` or
    /// `UIExtendedGrayColorSpace w a`, nil for a colour printed otherwise (a dynamic colour: taken as opaque).
    func backgroundAlpha(_ text: String, _ view: View) throws(BackdropError) -> Double? {
        let words = text.split(separator: " ")
        guard words.first?.hasSuffix("ColorSpace") == true, let last = words.last else { return nil }
        return min(max(try number(String(last), view, "backgroundColor"), 0), 1)
    }

    static let textClasses: Set<String> = ["UILabel", "UITextView", "UITextField"]

    /// The view as layers, and the vibrant layers of a vibrancy effect view for the blur around it; both in the
    /// coordinates of the view's superview.
    mutating func layer(_ view: View, depth: Int, blurAncestor: Bool) throws(BackdropError)
        -> (layers: [SceneLayer], vibrancy: [SceneLayer])
    {
        let place = "line \(view.line) (\(view.className))"
        let alpha = try view.fields["alpha"].map { text throws(BackdropError) in try number(text, view, "alpha") } ?? 1
        if view.fields["hidden"] == "YES" || alpha <= 0 {
            hidden += 1
            return ([], [])
        }
        guard depth <= SceneParser.maximumDepth else {
            throw fail("\(place): views nest deeper than a scene's \(SceneParser.maximumDepth) levels")
        }
        var frame = try self.frame(view)
        frame.width = max(frame.width, 1)
        frame.height = max(frame.height, 1)
        var layer = SceneLayer(name: SceneImport.name(view.className, fallback: "view"), frame: frame)
        layer.opacity = min(alpha, 1)
        layer.masksToBounds = view.fields["clipsToBounds"] == "YES" || view.fields["layer.masksToBounds"] == "YES"
        for key in ["cornerRadius", "layer.cornerRadius"] {
            if let text = view.fields[key] { layer.cornerRadius = max(try number(text, view, key), 0) }
        }
        layer.mask = ["mask", "layer.mask", "maskView"].contains { key in
            view.fields[key].map { $0 != "(null)" && $0 != "nil" } ?? false
        }
        if let background = view.fields["backgroundColor"], background != "(null)", background != "nil" {
            let backgroundAlpha = try backgroundAlpha(background, view)
            if backgroundAlpha != 0 {
                layer.content = .solid
                layer.opaque = (backgroundAlpha ?? 1) == 1 && view.fields["opaque"] != "NO" && layer.opacity == 1
            }
        }
        if view.className == "UIImageView" || view.className.hasSuffix("ImageView") {
            layer.content = .image
            layer.opaque = false
        }
        if Self.textClasses.contains(view.className) || view.className.hasSuffix("Label") { layer.content = .text }
        var vibrancy: [SceneLayer] = []
        let isEffectView = view.className == "UIVisualEffectView"
        let isVibrancy = isEffectView && view.tail.contains("UIVibrancyEffect")
        if isEffectView, !isVibrancy, view.tail.contains("UIBlurEffect") {
            layer.effect = SceneLayer.EffectView(style: style(view, place))
            layer.content = .none
            layer.opaque = false
        } else if isEffectView, !isVibrancy, !view.tail.contains("effect=") {
            warnings.append("\(place): a visual effect view whose effect is not printed is priced as a plain view")
        }
        var sublayers: [SceneLayer] = []
        for child in view.children {
            // A visual effect view's private subviews are its own passes; its content view's subviews are its content.
            if isEffectView, child.className.hasPrefix("_UIVisualEffect") {
                guard child.className == "_UIVisualEffectContentView" else { continue }
                let offset = try self.frame(child)
                for grandchild in child.children {
                    let result = try self.layer(
                        grandchild, depth: depth + 1, blurAncestor: blurAncestor || layer.effect != nil)
                    sublayers += result.layers.map { moved($0, by: offset) }
                    vibrancy += result.vibrancy.map { moved($0, by: offset) }
                }
                continue
            }
            let result = try self.layer(child, depth: depth + 1, blurAncestor: blurAncestor || layer.effect != nil)
            sublayers += result.layers
            vibrancy += result.vibrancy
        }
        if isVibrancy {
            guard blurAncestor else {
                warnings.append("\(place): a vibrancy effect view outside a blur is priced as a plain view")
                layer.sublayers = sublayers
                return ([layer], [])
            }
            // The vibrant content, in the coordinates of the view that holds this one.
            var content = SceneLayer(name: layer.name + " vibrant content", frame: frame)
            content.sublayers = sublayers
            return ([], sublayers.isEmpty ? [] : [content])
        }
        if layer.effect != nil {
            layer.effect?.vibrancy = vibrancy
            vibrancy = []
        }
        layer.sublayers = sublayers
        // Vibrant layers for a blur further out, in this view's parent's coordinates.
        return ([layer], vibrancy.map { moved($0, by: frame) })
    }

    func moved(_ layer: SceneLayer, by frame: PointRect) -> SceneLayer {
        var layer = layer
        layer.frame = layer.frame.offsetBy(frame.x, frame.y)
        return layer
    }

    /// The style a `style=UIBlurEffectStyleNAME` names (UIKit's enum case without its prefix, first letter lowered);
    /// `regular` with a warning when none is printed or the name is not Backdrop's.
    mutating func style(_ view: View, _ place: String) -> BlurStyle {
        guard let range = view.tail.range(of: "UIBlurEffectStyle") else {
            warnings.append("\(place): the blur's style is not printed: priced as regular")
            return StyleCatalogue.entry(named: "regular")!.light
        }
        let name = view.tail[range.upperBound...].prefix { $0.isLetter || $0.isNumber }
        let lowered = name.prefix(1).lowercased() + name.dropFirst()
        guard let entry = StyleCatalogue.entry(named: lowered) else {
            warnings.append("\(place): UIBlurEffectStyle\(name) is not a style Backdrop draws: priced as regular")
            return StyleCatalogue.entry(named: "regular")!.light
        }
        return entry.light
    }
}
