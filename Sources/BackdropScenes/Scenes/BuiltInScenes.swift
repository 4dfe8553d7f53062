import BackdropImageIO
import Foundation

/// The scenes `backdrop scenes` lists and `backdrop estimate --scene NAME` prices: the case studies of the seed
/// talks (`docs/scene-format.md`, seed figures O5 and O6) and two screens with blur. The talks give frame
/// rates and utilisations but not geometry: the geometry here is Backdrop's assumption, the same on every device
/// (tables 320 points wide, cells stacked from under a 64-point bar to below the bottom of the tallest iPhone).
/// The scenes with offscreen passes are kept as the JSON a user would write, read by ``SceneParser`` like any scene
/// file; their fixed versions are derived from them by the fix ``SceneAdvice`` prices, so the two stay the same
/// table but for the fix.
public enum BuiltInScenes {
    /// The written scenes' JSON, by name.
    static let written: KeyValuePairs<String, String> = [
        "photos-table-shadows": #"""
        {
          "name": "photos-table-shadows",
          "description": "Seed O5: a table of photo thumbnails with Core Animation shadows and no shadow path, so each shadow is found offscreen. 64 pt opaque bar; 100 pt cells; 80x80 pt opaque thumbnails, shadow radius 4, offset (0, 3), opacity 0.5; two 200x20 pt labels.",
          "redraw": "scrolling",
          "layers": [
            { "name": "background", "frame": { "left": 0, "right": 0, "top": 0, "bottom": 0 }, "content": "solid", "color": "#EFEFF4", "opaque": true },
            { "name": "cell", "frame": { "left": 0, "right": 0, "top": 64, "height": 100 }, "content": "solid", "color": "#FFFFFF", "opaque": true, "scrolls": true,
              "repeat": { "count": 7, "dx": 0, "dy": 100 },
              "sublayers": [
                { "name": "thumbnail", "frame": [10, 10, 80, 80], "content": "image", "opaque": true,
                  "shadow": { "radius": 4, "offset": [0, 3], "opacity": 0.5, "path": false } },
                { "name": "title", "frame": [100, 25, 200, 20], "content": "text" },
                { "name": "subtitle", "frame": [100, 55, 200, 20], "content": "text" }
              ] },
            { "name": "navigation bar", "frame": { "left": 0, "right": 0, "top": 0, "height": 64 }, "content": "solid", "color": "#F7F7F7", "opaque": true }
          ]
        }
        """#,
        "contacts-table-masks": #"""
        {
          "name": "contacts-table-masks",
          "description": "Seed O6: a contacts table whose round 44x44 pt thumbnails are made by cornerRadius 22 and masksToBounds, three passes each (O1). 64 pt opaque bar; 60 pt cells; one 240x20 pt label.",
          "redraw": "scrolling",
          "layers": [
            { "name": "background", "frame": { "left": 0, "right": 0, "top": 0, "bottom": 0 }, "content": "solid", "color": "#EFEFF4", "opaque": true },
            { "name": "cell", "frame": { "left": 0, "right": 0, "top": 64, "height": 60 }, "content": "solid", "color": "#FFFFFF", "opaque": true, "scrolls": true,
              "repeat": { "count": 11, "dx": 0, "dy": 60 },
              "sublayers": [
                { "name": "thumbnail", "frame": [8, 8, 44, 44], "content": "image", "opaque": true,
                  "cornerRadius": 22, "masksToBounds": true },
                { "name": "name", "frame": [64, 20, 240, 20], "content": "text" }
              ] },
            { "name": "navigation bar", "frame": { "left": 0, "right": 0, "top": 0, "height": 64 }, "content": "solid", "color": "#F7F7F7", "opaque": true }
          ]
        }
        """#,
        "rasterized-pages": #"""
        {
          "name": "rasterized-pages",
          "description": "Seed O2: four rasterized full-screen pages stacked (a page curl's pages, each with a label), four screens of textures where the cache holds 2.5: every frame misses every page (the least recently used goes first). Over time: backdrop estimate --duration.",
          "redraw": "scrolling",
          "layers": [
            { "name": "page", "frame": [0, 0, 320, 568], "content": "image", "opaque": true, "rasterize": true,
              "repeat": { "count": 4, "dx": 0, "dy": 0 },
              "sublayers": [ { "name": "label", "frame": [20, 40, 280, 200], "content": "text" } ] }
          ]
        }
        """#,
        "static-spinner": #"""
        {
          "name": "static-spinner",
          "description": "Seed B5: a static screen with one animating 20x20 pt activity indicator: after the first frame only the spinner is drawn again.",
          "redraw": "static",
          "layers": [
            { "name": "screen", "frame": { "left": 0, "right": 0, "top": 0, "bottom": 0 }, "content": "image", "opaque": true },
            { "name": "spinner", "frame": [150, 274, 20, 20], "content": "image", "animating": true }
          ]
        }
        """#,
        "navbar-tabbar-blur": #"""
        {
          "name": "navbar-tabbar-blur",
          "description": "A table scrolling under a 64 pt light blur navigation bar and a 49 pt light blur tab bar pinned to the bottom of every screen, both as wide as it. 60 pt cells with a 44x44 pt thumbnail and a label.",
          "redraw": "scrolling",
          "layers": [
            { "name": "background", "frame": { "left": 0, "right": 0, "top": 0, "bottom": 0 }, "content": "solid", "color": "#EFEFF4", "opaque": true },
            { "name": "cell", "frame": { "left": 0, "right": 0, "top": 0, "height": 60 }, "content": "solid", "color": "#FFFFFF", "opaque": true, "scrolls": true,
              "repeat": { "count": 11, "dx": 0, "dy": 60 },
              "sublayers": [
                { "name": "thumbnail", "frame": [8, 8, 44, 44], "content": "image", "opaque": true },
                { "name": "name", "frame": [64, 20, 240, 20], "content": "text" }
              ] },
            { "name": "navigation bar", "frame": { "left": 0, "right": 0, "top": 0, "height": 64 }, "effect": { "blur": "light" },
              "sublayers": [ { "name": "title", "frame": [100, 30, 120, 22], "content": "text" } ] },
            { "name": "tab bar", "frame": { "left": 0, "right": 0, "bottom": 0, "height": 49 }, "effect": { "blur": "light" },
              "sublayers": [ { "name": "tab icons", "frame": [16, 4, 288, 41], "content": "image" } ] }
          ]
        }
        """#,
        "control-center": #"""
        {
          "name": "control-center",
          "description": "Control Center at rest: a full-screen light blur over the home screen with vibrant glyphs (toggles, sliders, labels). Static: after the first frame nothing is drawn again (seed B5).",
          "redraw": "static",
          "layers": [
            { "name": "home screen", "frame": { "left": 0, "right": 0, "top": 0, "bottom": 0 }, "content": "image", "opaque": true },
            { "name": "control center", "frame": { "left": 0, "right": 0, "top": 0, "bottom": 0 }, "effect": { "blur": "light", "vibrancy": [
              { "name": "toggles", "frame": { "left": 20, "right": 20, "top": 40, "height": 60 }, "content": "text" },
              { "name": "sliders", "frame": { "left": 20, "right": 20, "top": 120, "height": 90 }, "content": "text" },
              { "name": "shortcuts", "frame": { "left": 20, "right": 20, "bottom": 28, "height": 70 }, "content": "text" }
            ] } }
          ]
        }
        """#,
    ]

    /// A written scene.
    static func written(_ name: String) -> Scene {
        try! SceneParser.parse(Data(written.first { $0.key == name }!.value.utf8), source: name)
    }

    /// `scene` with `cause` fixed on its `layer`, renamed and described.
    static func fixed(_ scene: Scene, _ cause: SceneAdvice.Cause, on layer: String, name: String, description: String)
        -> Scene
    {
        var fixed = scene
        fixed.name = name
        fixed.description = description
        fixed.layers = SceneAdvice.applying(cause, to: layer, in: scene.layers)
        return fixed
    }

    /// `scene` with every layer called `layer` rasterized, renamed and described.
    static func rasterizing(_ scene: Scene, _ layer: String, name: String, description: String) -> Scene {
        func rasterized(_ layers: [SceneLayer]) -> [SceneLayer] {
            layers.map { original in
                var copy = original
                if copy.name == layer { copy.rasterize = true }
                copy.sublayers = rasterized(copy.sublayers)
                return copy
            }
        }
        var variant = scene
        variant.name = name
        variant.description = description
        variant.layers = rasterized(scene.layers)
        return variant
    }

    /// Every built-in scene, in listing order.
    public static let all: [Scene] = {
        let shadows = written("photos-table-shadows"), masks = written("contacts-table-masks")
        return [
            shadows,
            fixed(
                shadows, .shadowWithoutPath, on: "thumbnail", name: "photos-table-shadow-path",
                description:
                    "Seed O5, fixed: the same table with an explicit shadow path, so the shadows are drawn on screen with no offscreen pass."
            ),
            masks,
            fixed(
                masks, .roundedCornersMask, on: "thumbnail", name: "contacts-table-overlay",
                description:
                    "Seed O6, fixed: the same table without the mask; a blended 44x44 pt image with a transparent circle (the cell's colour outside it) is drawn over each thumbnail instead."
            ),
            written("navbar-tabbar-blur"),
            written("control-center"),
            rasterizing(
                shadows, "cell", name: "photos-table-rasterized",
                description:
                    "Seed O2 and O5: the photos table with each cell rasterized (shouldRasterize), so its shadow is rendered offscreen once and the cell drawn from the cache while it stays in it; as the table scrolls, cells reused at the bottom have new content and miss. Run it over time: backdrop estimate --duration."
            ),
            written("rasterized-pages"),
            written("static-spinner"),
        ]
    }()

    /// The names, in listing order.
    public static var names: [String] { all.map(\.name) }

    /// The built-in scene called `name`, or nil.
    public static func named(_ name: String) -> Scene? {
        all.first { $0.name == name }
    }

    /// The built-in scene `nameOrPath` names, or else the scene file at that path (`-`: standard input, its images
    /// relative to the working directory).
    public static func load(_ nameOrPath: String) throws(BackdropError) -> Scene {
        if let scene = named(nameOrPath) { return scene }
        guard
            nameOrPath == StandardStreams.name || nameOrPath.contains("/") || nameOrPath.hasSuffix(".json")
                || FileManager.default.fileExists(atPath: nameOrPath)
        else {
            throw BackdropError(
                .badOption,
                "unknown scene '\(nameOrPath)' (built in: \(names.joined(separator: ", ")); or a path to a JSON file)")
        }
        return try SceneParser.parse(fileAt: nameOrPath)
    }
}
