import Backdrop
import Foundation
import Testing

/// Each importer's mapping and its bad input, on small inputs written here in each format's documented schema.
@Suite("Import: each format's mapping and bad input")
struct ImportFormatTests {
    func run(_ format: ImportFormat, _ text: String, node: String? = nil) throws(BackdropError) -> ImportedScene {
        try SceneImport.run(format, data: Data(text.utf8), source: "in.file", node: node)
    }

    func failure(_ format: ImportFormat, _ text: String, node: String? = nil) -> String {
        do {
            _ = try run(format, text, node: node)
            return "no error"
        } catch {
            #expect(error.kind == .badInput)
            #expect(!error.message.contains("\n"))
            return error.message
        }
    }

    /// A Figma file of one page holding `frames`.
    func figma(_ frames: String) -> String {
        #"{"document": {"id": "0:0", "type": "DOCUMENT", "children": [{"id": "0:1", "type": "CANVAS", "children": [\#(frames)]}]}}"#
    }

    func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> String {
        #""absoluteBoundingBox": {"x": \#(x), "y": \#(y), "width": \#(w), "height": \#(h)}"#
    }

    // MARK: Figma

    @Test func figmaFramesBecomeLayersRelativeToTheirParent() throws {
        let file = figma(
            #"""
            {"id": "1:1", "name": "Screen", "type": "FRAME", \#(box(100, 200, 320, 568)), "clipsContent": true,
             "fills": [{"type": "SOLID", "color": {"r": 1, "g": 1, "b": 1, "a": 1}}],
             "children": [
               {"id": "1:2", "name": "Card", "type": "FRAME", \#(box(110, 260, 300, 100)), "cornerRadius": 12,
                "clipsContent": true, "opacity": 0.5,
                "fills": [{"type": "SOLID", "color": {"r": 1, "g": 0, "b": 0, "a": 1}}],
                "effects": [{"type": "DROP_SHADOW", "radius": 8, "offset": {"x": 0, "y": 4},
                             "color": {"r": 0, "g": 0, "b": 0, "a": 0.25}}],
                "children": [
                  {"id": "1:3", "name": "Photo", "type": "RECTANGLE", \#(box(120, 270, 80, 80)),
                   "fills": [{"type": "IMAGE", "imageRef": "x"}]},
                  {"id": "1:4", "name": "Label", "type": "TEXT", \#(box(210, 270, 190, 20)),
                   "fills": [{"type": "SOLID", "color": {"r": 0, "g": 0, "b": 0, "a": 1}}]},
                  {"id": "1:5", "name": "Gone", "type": "RECTANGLE", "visible": false, \#(box(0, 0, 1, 1))}
                ]},
               {"id": "1:6", "name": "Dot", "type": "ELLIPSE", \#(box(100, 200, 40, 20))}
             ]},
            {"id": "2:1", "name": "Other", "type": "FRAME", \#(box(0, 0, 10, 10))}
            """#)
        let imported = try run(.figma, file)
        let scene = imported.scene
        #expect(scene.name == "Screen" && scene.screen == PointSize(width: 320, height: 568))
        let root = try #require(scene.layers.first)
        #expect(scene.layers.count == 1 && root.frame == PointRect(x: 0, y: 0, width: 320, height: 568))
        #expect(root.masksToBounds && root.content == .solid && root.opaque && root.color?.description == "#FFFFFF")
        let card = root.sublayers[0]
        #expect(card.frame == PointRect(x: 10, y: 60, width: 300, height: 100))
        #expect(card.cornerRadius == 12 && card.masksToBounds && card.opacity == 0.5 && !card.opaque)
        #expect(card.shadow == SceneLayer.Shadow(radius: 4, offsetX: 0, offsetY: 4, opacity: 0.25, path: false))
        #expect(card.sublayers.map(\.name) == ["Photo", "Label"])
        #expect(card.sublayers[0].frame == PointRect(x: 10, y: 10, width: 80, height: 80))
        #expect(card.sublayers.map(\.content) == [.image, .text])
        #expect(root.sublayers[1].cornerRadius == 10, "an ellipse is rounded by half its shorter side")
        #expect(imported.warnings == ["1 hidden node left out"])
        // --node picks another frame; the /nodes response is read the same way.
        #expect(try run(.figma, file, node: "2:1").scene.name == "Other")
        let nodes =
            #"{"nodes": {"1:2": {"document": {"id": "1:2", "name": "Card", "type": "FRAME", \#(box(5, 5, 50, 50))}}}}"#
        #expect(try run(.figma, nodes).scene.screen == PointSize(width: 50, height: 50))
        // A node saved alone (a file's document) is read as the file.
        let document = try #require(file.range(of: "{\"id\": \"0:0\"")).lowerBound
        #expect(try run(.figma, String(file[document...].dropLast())).scene.name == "Screen")
    }

    @Test func figmaEffectsArePricedOrWarned() throws {
        let file = figma(
            #"""
            {"id": "1:1", "name": "Screen", "type": "FRAME", \#(box(0, 0, 320, 568)), "children": [
              {"id": "1:2", "name": "Bar", "type": "FRAME", \#(box(0, 0, 320, 64)),
               "fills": [{"type": "SOLID", "color": {"r": 1, "g": 1, "b": 1, "a": 1}, "opacity": 0.5}],
               "effects": [{"type": "BACKGROUND_BLUR", "radius": 40}]},
              {"id": "1:3", "name": "Exact", "type": "FRAME", \#(box(0, 100, 320, 64)),
               "effects": [{"type": "BACKGROUND_BLUR", "radius": 40, "visible": false}]},
              {"id": "1:4", "name": "Soft", "type": "RECTANGLE", \#(box(0, 200, 100, 100)),
               "effects": [{"type": "LAYER_BLUR", "radius": 10}]},
              {"id": "1:5", "name": "Field", "type": "RECTANGLE", "cornerRadius": 8, \#(box(0, 320, 200, 40)),
               "effects": [{"type": "INNER_SHADOW", "radius": 6, "offset": {"x": 0, "y": 2},
                            "color": {"r": 0, "g": 0, "b": 0, "a": 0.5}},
                           {"type": "NOISE"}]}
            ]}
            """#)
        let imported = try run(.figma, file)
        let layers = imported.scene.layers[0].sublayers
        let bar = try #require(layers[0].effect?.style)
        #expect(bar.name == "custom" && bar.sigmaPoints == 20 && bar.saturation == 1)
        #expect(bar.tintColor == SIMD3(1, 1, 1) && bar.tintAlpha == 128.0 / 255 && layers[0].content == .none)
        #expect(layers[1].effect == nil, "a hidden effect is left out")
        #expect(layers[2].shadow == SceneLayer.Shadow(radius: 5, opacity: 1, path: false))
        let inner = try #require(layers[3].sublayers.first)
        #expect(inner.masksToBounds && inner.cornerRadius == 8)
        #expect(
            inner.sublayers[0].shadow == SceneLayer.Shadow(radius: 3, offsetX: 0, offsetY: 2, opacity: 0.5, path: true))
        #expect(imported.warnings.count == 4)
        #expect(imported.warnings[0].hasPrefix("node 'Bar' (1:2): a background blur of σ 20 pt, saturation 1"))
        #expect(imported.warnings[0].contains("nearest Apple style: "))
        #expect(imported.warnings[1].contains("a layer blur (σ 5 pt) priced as the offscreen pass"))
        #expect(imported.warnings[2].contains("an inner shadow (σ 3 pt)"))
        #expect(imported.warnings[3] == "node 'Field' (1:5): the effect NOISE is not priced")
    }

    @Test func aBlurWithAnAppleStylesNumbersIsThatStyle() {
        // Light: σ 30, saturation 1.8, white at 30 %.
        let light = SceneColor(red: 255, green: 255, blue: 255, alpha: 77)
        let sketch = #"""
            {"_class": "page", "layers": [{"_class": "artboard", "do_objectID": "A", "name": "A",
              "frame": {"x": 0, "y": 0, "width": 320, "height": 568}, "layers": [
              {"_class": "rectangle", "do_objectID": "B", "name": "Bar", "frame": {"x": 0, "y": 0, "width": 320, "height": 64},
               "style": {"fills": [{"isEnabled": true, "fillType": 0, "color": {"red": 1, "green": 1, "blue": 1, "alpha": 0.3}}],
                         "blur": {"isEnabled": true, "type": 3, "radius": 60, "saturation": 1.8}}}]}]}
            """#
        #expect(light.description == "#FFFFFF4D")
        let imported = try? run(.sketch, sketch)
        #expect(imported?.scene.layers[0].sublayers[0].effect?.style == .light)
        #expect(imported?.warnings == [])
    }

    @Test func aFigmaMaskHoldsTheSiblingsAboveIt() throws {
        let file = figma(
            #"""
            {"id": "1:1", "name": "Screen", "type": "FRAME", \#(box(0, 0, 320, 568)), "children": [
              {"id": "1:2", "name": "Under", "type": "RECTANGLE", \#(box(0, 0, 10, 10))},
              {"id": "1:3", "name": "Circle", "type": "ELLIPSE", "isMask": true, \#(box(100, 100, 50, 50))},
              {"id": "1:4", "name": "Photo", "type": "RECTANGLE", \#(box(100, 110, 50, 40)),
               "fills": [{"type": "IMAGE", "imageRef": "x"}]}
            ]}
            """#)
        let layers = try run(.figma, file).scene.layers[0].sublayers
        #expect(layers.map(\.name) == ["Under", "Circle mask"])
        #expect(layers[1].mask && layers[1].frame == PointRect(x: 100, y: 100, width: 50, height: 50))
        #expect(layers[1].cornerRadius == 25 && layers[1].masksToBounds, "an ellipse mask clips to its circle")
        #expect(layers[1].sublayers.map(\.frame) == [PointRect(x: 0, y: 10, width: 50, height: 40)])
    }

    @Test func figmasBadInputIsOneLine() {
        let deep = (0..<40).reduce(#"{"id": "leaf", "type": "RECTANGLE", \#(box(0, 0, 1, 1))}"#) { inner, level in
            #"{"id": "g\#(level)", "type": "GROUP", \#(box(0, 0, 1, 1)), "children": [\#(inner)]}"#
        }
        let cases: [(String, String?, String)] = [
            (#"{"layers": []}"#, nil, "in.file: not a Figma file or /nodes response: no 'document' or 'nodes'"),
            ("not json", nil, "in.file: not a Figma file or /nodes response: not valid JSON"),
            (
                figma(#"{"id": "1:1", "type": "FRAME", \#(box(0, 0, 10, 10))}"#), "9:9",
                "in.file: node '9:9' is not in the file"
            ),
            (figma(""), nil, "in.file: no visible frame in the file"),
            (
                figma(#"{"id": "1:1", "type": "FRAME", \#(box(0, 0, 1e300, 10))}"#), nil,
                "width 1e+300 is not a finite number"
            ),
            (
                figma(#"{"id": "1:1", "type": "FRAME", \#(box(0, 0, 10, 10)), "opacity": "half"}"#), nil,
                "opacity is not a number"
            ),
            (
                figma(
                    #"{"id": "1:1", "type": "FRAME", \#(box(0, 0, 10, 10)), "effects": [{"type": "BACKGROUND_BLUR", "radius": 2000}]}"#
                ), nil, "a background blur of σ 1000 pt is beyond a scene's 500 pt"
            ),
            (
                figma(#"{"id": "1:1", "type": "FRAME", \#(box(0, 0, 10, 10)), "children": [\#(deep)]}"#), nil,
                "nests deeper than a scene's 32 levels"
            ),
        ]
        for (text, node, message) in cases {
            let line = failure(.figma, text, node: node)
            #expect(line.contains(message), "\(line)")
        }
    }

    // MARK: UIKit

    let window = """
        <UIWindow: 0x7f01; frame = (0 0; 320 568); layer = <UIWindowLayer: 0x6001>>
           | <UIView: 0x7f02; frame = (0 0; 320 568); backgroundColor = UIExtendedGrayColorSpace 1 1; layer = <CALayer: 0x6002>>
           |    | <UIImageView: 0x7f03; frame = (10 20; 100 100); clipsToBounds = YES; opaque = NO; layer = <CALayer: 0x6003>>
           |    | <UILabel: 0x7f04; frame = (10 130; 200 20); text = 'Hi'; alpha = 0.5; opaque = NO; layer = <_UILabelLayer: 0x6004>>
           |    | <UIView: 0x7f05; frame = (0 0; 10 10); hidden = YES; layer = <CALayer: 0x6005>>
           |    |    | <UIView: 0x7f06; frame = (0 0; 5 5); layer = <CALayer: 0x6006>>
           | <UIVisualEffectView: 0x7f07; frame = (0 0; 320 64); layer = <CALayer: 0x6007>> effect=<UIBlurEffect: 0x6008> style=UIBlurEffectStyleDark
           |    | <_UIVisualEffectBackdropView: 0x7f08; frame = (0 0; 320 64); layer = <UICABackdropLayer: 0x6009>>
           |    | <_UIVisualEffectContentView: 0x7f09; frame = (0 0; 320 64); layer = <CALayer: 0x600a>>
           |    |    | <UIVisualEffectView: 0x7f0a; frame = (0 0; 320 64); layer = <CALayer: 0x600b>> effect=<UIVibrancyEffect: 0x600c>
           |    |    |    | <_UIVisualEffectContentView: 0x7f0b; frame = (0 0; 320 64); layer = <CALayer: 0x600d>>
           |    |    |    |    | <UILabel: 0x7f0c; frame = (100 30; 120 20); text = 'Title'; layer = <_UILabelLayer: 0x600e>>
           |    |    | <UIView: 0x7f0d; frame = (0 63; 320 1); cornerRadius = 0.5; layer = <CALayer: 0x600f>>
        """

    @Test func uikitViewsBecomeLayers() throws {
        let imported = try run(.uikit, window)
        let scene = imported.scene
        #expect(scene.screen == PointSize(width: 320, height: 568) && scene.name == "UIWindow")
        let root = scene.layers[0]
        let content = root.sublayers[0]
        #expect(content.content == .solid && content.opaque)
        #expect(content.sublayers.map(\.content) == [.image, .text])
        #expect(
            content.sublayers[0].masksToBounds
                && content.sublayers[0].frame == PointRect(x: 10, y: 20, width: 100, height: 100))
        #expect(content.sublayers[1].opacity == 0.5)
        let bar = root.sublayers[1]
        #expect(bar.effect?.style == .dark && bar.frame == PointRect(x: 0, y: 0, width: 320, height: 64))
        #expect(bar.effect?.vibrancy.count == 1)
        #expect(bar.effect?.vibrancy.first?.sublayers.map(\.content) == [.text])
        #expect(bar.sublayers.map(\.cornerRadius) == [0.5], "the content view's subviews are the bar's sublayers")
        #expect(imported.warnings == ["1 hidden view left out"])
        #expect(try run(.uikit, window, node: "0x7f03").scene.screen == PointSize(width: 100, height: 100))
    }

    @Test func uikitStylesAreCatalogueNames() throws {
        let line =
            "<UIVisualEffectView: 0x1; frame = (0 0; 100 100); layer = <CALayer: 0x2>> effect=<UIBlurEffect: 0x3> style=UIBlurEffectStyleSystemThinMaterialDark"
        #expect(try run(.uikit, line).scene.layers[0].effect?.style.name == "systemThinMaterialDark")
        // swift-snapshot-testing removes the addresses.
        let bare =
            "<UIVisualEffectView; frame = (0 0; 100 100); layer = <CALayer>> effect=<UIBlurEffect> style=UIBlurEffectStyleExtraLight"
        #expect(try run(.uikit, bare).scene.layers[0].effect?.style == .extraLight)
        // A UILabel subclass (a table cell's label) is text.
        let label = "<UITableViewLabel; frame = (16 0; 288 43.5); text = '9'; layer = <_UILabelLayer>>"
        #expect(try run(.uikit, label).scene.layers[0].content == .text)
        let unknown = try run(.uikit, bare.replacingOccurrences(of: "ExtraLight", with: "ExtraDark"))
        #expect(
            unknown.warnings == [
                "line 1 (UIVisualEffectView): UIBlurEffectStyleExtraDark is not a style Backdrop draws: priced as regular"
            ])
    }

    @Test func uikitsBadInputIsOneLine() {
        let deep = (0..<40).map { String(repeating: "   | ", count: $0) + "<UIView: 0x\($0); frame = (0 0; 10 10)>" }
            .joined(separator: "\n")
        let cases: [(String, String?, String)] = [
            (#"{"document": {}}"#, nil, "in.file: not a recursiveDescription"),
            (window, "0xdead", "in.file: view '0xdead' is not in the description"),
            ("<UIView: 0x1; frame = (0 0; nan 10)>", nil, "line 1: frame 'nan' is not a finite number"),
            ("<UIView: 0x1; frame = (0 0; 1e9 10)>", nil, "line 1: frame '1e9' is not a finite number within ±1000000"),
            ("<UIView: 0x1; frame = (0 0; 10)>", nil, "line 1: frame '(0 0; 10)' is not (x y; w h)"),
            (deep, nil, "nest deeper than a scene's 32 levels"),
            (
                "<UIView: 0x1; frame = (0 0; 10 10)>\n   |    | <UIView: 0x2; frame = (0 0; 1 1)>", nil,
                "line 2: nested 2 deep"
            ),
        ]
        for (text, node, message) in cases {
            let line = failure(.uikit, text, node: node)
            #expect(line.contains(message), "\(line)")
        }
    }

    @Test func theScenesLimitsHoldForEveryFormat() {
        // More layers than a scene may draw.
        let wide =
            "<UIView: 0x1; frame = (0 0; 320 568)>\n"
            + String(repeating: "   | <UIView; frame = (0 0; 1 1)>\n", count: SceneParser.maximumLayerInstances)
        #expect(failure(.uikit, wide) == "in.file: more than a scene's 100000 layers")
        // An input over the size read.
        #expect(throws: BackdropError(.badInput, "in.file: larger than 67108864 bytes")) {
            try SceneImport.run(.figma, data: Data(count: SceneImport.maximumBytes + 1), source: "in.file")
        }
    }

    @Test func namesLoseTheirControlCharactersAndLength() throws {
        let name = "Tab\u{1B}[31m bar\u{202E}" + String(repeating: "x", count: 300)
        let escaped = String(data: try JSONEncoder().encode(name), encoding: .utf8)!
        let file = figma(#"{"id": "1:1", "name": \#(escaped), "type": "FRAME", \#(box(0, 0, 10, 10))}"#)
        let scene = try run(.figma, file).scene
        #expect(scene.name.hasPrefix("Tab [31m bar ") && scene.name.count == SceneParser.longestName)
    }

    // MARK: Sketch

    @Test func sketchLayersBecomeLayers() throws {
        let page = #"""
            {"_class": "page", "do_objectID": "P", "name": "Page", "layers": [
             {"_class": "artboard", "do_objectID": "A", "name": "Phone", "frame": {"x": 50, "y": 50, "width": 320, "height": 568},
              "hasBackgroundColor": true, "backgroundColor": {"red": 1, "green": 1, "blue": 1, "alpha": 1}, "layers": [
              {"_class": "rectangle", "do_objectID": "R", "name": "Card", "fixedRadius": 10,
               "frame": {"x": 10, "y": 10, "width": 300, "height": 100},
               "style": {"contextSettings": {"opacity": 0.8},
                         "fills": [{"isEnabled": true, "fillType": 0, "color": {"red": 0, "green": 0, "blue": 1, "alpha": 1}}],
                         "shadows": [{"isEnabled": true, "blurRadius": 10, "offsetX": 0, "offsetY": 3, "color": {"alpha": 0.5}},
                                     {"isEnabled": true, "blurRadius": 2}]}},
              {"_class": "oval", "do_objectID": "M", "name": "Mask", "hasClippingMask": true,
               "frame": {"x": 20, "y": 200, "width": 40, "height": 40}},
              {"_class": "bitmap", "do_objectID": "I", "name": "Photo", "frame": {"x": 20, "y": 200, "width": 40, "height": 40}},
              {"_class": "text", "do_objectID": "T", "name": "Free", "shouldBreakMaskChain": true,
               "frame": {"x": 0, "y": 300, "width": 100, "height": 20}},
              {"_class": "rectangle", "do_objectID": "H", "name": "Hidden", "isVisible": false,
               "frame": {"x": 0, "y": 0, "width": 10, "height": 10}},
              {"_class": "rectangle", "do_objectID": "G", "name": "Soft", "frame": {"x": 0, "y": 400, "width": 10, "height": 10},
               "style": {"blur": {"isEnabled": true, "type": 0, "radius": 8}}}
             ]}]}
            """#
        let imported = try run(.sketch, page)
        let board = imported.scene.layers[0]
        #expect(imported.scene.name == "Phone" && board.frame == PointRect(x: 0, y: 0, width: 320, height: 568))
        #expect(board.masksToBounds && board.content == .solid && board.opaque)
        #expect(board.sublayers.map(\.name) == ["Card", "Mask mask", "Free", "Soft"])
        let card = board.sublayers[0]
        #expect(card.cornerRadius == 10 && card.opacity == 0.8 && card.color?.description == "#0000FF")
        #expect(card.shadow == SceneLayer.Shadow(radius: 5, offsetX: 0, offsetY: 3, opacity: 0.5, path: false))
        #expect(board.sublayers[1].mask && board.sublayers[1].sublayers.map(\.content) == [.image])
        #expect(board.sublayers[1].cornerRadius == 20 && board.sublayers[1].masksToBounds)
        #expect(board.sublayers[1].sublayers[0].frame == PointRect(x: 0, y: 0, width: 40, height: 40))
        #expect(board.sublayers[3].shadow == SceneLayer.Shadow(radius: 4, opacity: 1, path: false))
        #expect(imported.warnings.count == 3)
        #expect(imported.warnings[0] == "layer 'Card' (R): a second shadow is not priced (a CALayer has one shadow)")
        #expect(imported.warnings[1].contains("a Gaussian blur (σ 4 pt) priced as the offscreen pass"))
        #expect(imported.warnings[2] == "1 hidden layer left out")
        #expect(try run(.sketch, #"{"pages": [\#(page)]}"#, node: "R").scene.name == "Card")
    }

    /// A ZIP archive of `members`, stored (method 0), as a `.sketch` file is laid out.
    func zip(_ members: [(String, String)]) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        var bytes: [UInt8] = [], directory: [UInt8] = []
        for (name, text) in members {
            let data = Array(text.utf8), offset = bytes.count
            let common = u16(20) + u16(0) + u16(0) + u16(0) + u16(0) + u32(0) + u32(data.count) + u32(data.count)
            bytes += u32(0x0403_4B50) + common + u16(name.utf8.count) + u16(0) + Array(name.utf8) + data
            directory +=
                u32(0x0201_4B50) + u16(20) + common + u16(name.utf8.count) + u16(0) + u16(0) + u16(0)
                + u16(0) + u32(0) + u32(offset) + Array(name.utf8)
        }
        let start = bytes.count
        return bytes + directory + u32(0x0605_4B50) + u16(0) + u16(0) + u16(members.count) + u16(members.count)
            + u32(directory.count) + u32(start) + u16(0)
    }

    @Test func aSketchFileIsItsDocumentsPages() throws {
        let page = #"""
            {"_class": "page", "do_objectID": "P", "layers": [{"_class": "artboard", "do_objectID": "A", "name": "Phone",
              "frame": {"x": 0, "y": 0, "width": 320, "height": 568}}]}
            """#
        let document = #"{"_class": "document", "pages": [{"_class": "MSJSONFileReference", "_ref": "pages/P"}]}"#
        let archive = zip([("document.json", document), ("pages/P.json", page)])
        let imported = try SceneImport.run(.sketch, data: Data(archive), source: "in.sketch")
        #expect(imported.scene.name == "Phone" && imported.scene.screen == PointSize(width: 320, height: 568))
        let noPage = zip([("document.json", document)])
        #expect(throws: BackdropError(.badInput, "in.sketch: not a Sketch file: the archive has no pages/P.json")) {
            try SceneImport.run(.sketch, data: Data(noPage), source: "in.sketch")
        }
        do {
            _ = try SceneImport.run(.sketch, data: Data(archive.dropLast(30)), source: "in.sketch")
            Issue.record("a truncated archive was read")
        } catch {
            #expect(error.message.hasPrefix("in.sketch: ") && error.kind == .badInput, "\(error.message)")
        }
    }

    @Test func sketchsBadInputIsOneLine() {
        let cases: [(String, String?, String)] = [
            ("PK\u{3}\u{4}rest", nil, "in.file: not a zip archive (no end of central directory)"),
            (#"{"pages": [{"_class": "MSJSONFileReference", "_ref": "pages/X"}]}"#, nil, "refers to its pages by file"),
            (#"{"layers": []}"#, nil, "in.file: not a Sketch file, page or document"),
            (
                #"{"_class": "artboard", "frame": {"x": 0, "y": 0, "width": 9, "height": 9}, "style": {"blur": {"isEnabled": true, "type": 3, "radius": 9, "saturation": 20}}}"#,
                nil, "a blur saturation of 20.0 is outside a scene's 0…10"
            ),
            (#"{"_class": "page", "layers": []}"#, nil, "no visible artboard"),
            (#"{"_class": "page", "layers": []}"#, "Z", "layer 'Z' is not in the file"),
        ]
        for (text, node, message) in cases {
            let line = failure(.sketch, text, node: node)
            #expect(line.contains(message), "\(line)")
        }
    }
}
