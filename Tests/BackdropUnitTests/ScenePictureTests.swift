import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// `backdrop render --scene`'s picture (``ScenePicture``) and overlays (``SceneOverlay``): each compositing rule
/// against an expectation computed here from its geometry, and each overlay against the planner's decisions.
/// On the iPhone 3GS a point is a pixel, so the expectations read in the scenes' own numbers.
@Suite("Scenes as pictures")
struct ScenePictureTests {
    static let device = Device.named("iphone-3gs")!

    /// The scene written as `layers` (JSON) on a 320×480 screen.
    static func scene(_ layers: String, folder: String? = nil) throws -> Scene {
        let json = ##"{ "name": "test", "screen": [320, 480], "layers": [\##(layers)] }"##
        var scene = try SceneParser.parse(Data(json.utf8), source: "test.json", imagesAllowed: folder != nil)
        scene.folder = folder
        return scene
    }

    static func picture(
        _ scene: Scene, steady: Bool = false, parallelism: Parallelism = .serial
    ) throws -> (ScenePicture.Result, SceneDrawing) {
        try ScenePicture(device: device, parallelism: parallelism).draw(scene, path: .blur, steady: steady)
    }

    static func pixel(_ image: RGBAImage<UInt8>, _ x: Int, _ y: Int) -> [Int] {
        let p = image[x, y]
        return [Int(p.x), Int(p.y), Int(p.z), Int(p.w)]
    }

    /// Within one step of `expected` (float rounding), lane by lane.
    static func near(_ actual: [Int], _ expected: [Double]) -> Bool {
        zip(actual, expected).allSatisfy { abs(Double($0) - $1.rounded()) <= 1 }
    }

    @Test func aSolidFillIsItsColourInsideAndItsCoverageOnAnEdgeBetweenPixels() throws {
        let (result, _) = try Self.picture(
            try Self.scene(
                ##"{ "name": "bar", "frame": [10.5, 20, 30, 10], "content": "solid", "color": "#FF8000", "opaque": true }"##
            ))
        let image = result.image
        #expect(Self.pixel(image, 20, 25) == [255, 128, 0, 255])
        #expect(Self.pixel(image, 9, 25) == [0, 0, 0, 255], "the screen starts black")
        // Pixels 10 and 40 are half covered (the bar spans 10.5 … 40.5): half the colour over black.
        for x in [10, 40] {
            #expect(Self.near(Self.pixel(image, x, 25), [127.5, 64, 0, 255]), "pixel \(x)")
        }
    }

    @Test func aColourWithAlphaIsSourceOverWhatIsBelow() throws {
        let (result, _) = try Self.picture(
            try Self.scene(
                ##"""
                { "name": "ground", "frame": [0, 0, 320, 480], "content": "solid", "color": "#204060", "opaque": true },
                { "name": "veil", "frame": [0, 0, 100, 100], "content": "solid", "color": "#FF000080" }
                """##))
        let a = 128.0 / 255
        let expected = [255 * a + 0x20 * (1 - a), 0x40 * (1 - a), 0x60 * (1 - a), 255]
        #expect(Self.near(Self.pixel(result.image, 50, 50), expected))
        #expect(Self.pixel(result.image, 150, 150) == [0x20, 0x40, 0x60, 255])
    }

    /// Group opacity (O3) composites the sublayers first, then fades the group: where they overlap only the top one
    /// shows through, unlike fading each layer on its own.
    @Test func groupOpacityFadesTheGroupNotEachLayer() throws {
        let (result, drawing) = try Self.picture(
            try Self.scene(
                ##"""
                { "name": "ground", "frame": [0, 0, 320, 480], "content": "solid", "color": "#FFFFFF", "opaque": true },
                { "name": "group", "frame": [0, 0, 40, 20], "opacity": 0.5, "sublayers": [
                  { "name": "red", "frame": [0, 0, 20, 20], "content": "solid", "color": "#FF0000", "opaque": true },
                  { "name": "blue", "frame": [10, 0, 20, 20], "content": "solid", "color": "#0000FF", "opaque": true } ] }
                """##))
        let overlap = Self.pixel(result.image, 15, 10)
        #expect(Self.near(overlap, [127.5, 127.5, 255, 255]), "half blue over white")
        let eachOnItsOwn = [127.5, 63.75, 191.25, 255.0]  // half red over white, then half blue over that
        #expect(!Self.near(overlap, eachOnItsOwn))
        #expect(Self.near(Self.pixel(result.image, 5, 10), [255, 127.5, 127.5, 255]))
        #expect(drawing.layers.first { $0.name == "group" }?.offscreenPasses == 1)
    }

    /// A mask of rounded corners (O1) clips the content along an anti-aliased circle.
    @Test func roundedCornersThatMaskClipAlongAnAntiAliasedEdge() throws {
        let (result, _) = try Self.picture(
            try Self.scene(
                ##"{ "name": "avatar", "frame": [0, 0, 40, 40], "content": "solid", "color": "#FFFFFF", "opaque": true, "cornerRadius": 20, "masksToBounds": true }"##
            ))
        for (x, y) in [(0, 0), (5, 5), (6, 6), (5, 6), (20, 20), (39, 20)] {
            let distance =
                ((Double(x) + 0.5 - 20) * (Double(x) + 0.5 - 20) + (Double(y) + 0.5 - 20) * (Double(y) + 0.5 - 20))
                .squareRoot()
            let coverage = min(max(0.5 - (distance - 20), 0), 1)
            let grey = 255 * coverage
            #expect(Self.near(Self.pixel(result.image, x, y), [grey, grey, grey, 255]), "pixel (\(x), \(y))")
        }
    }

    /// A shadow is the shape blurred, offset and faded, the same picture with a path or without; only its price
    /// differs (O5). A composited shadow adds its shape, the rule's halvings and two blurs offscreen; a solid
    /// card's rounded-rectangle shadow adds none (``ShadowRule``).
    @Test func aShadowIsTheSamePictureWithAPathOrWithout() throws {
        func layers(path: Bool, content: String = "image") -> String {
            ##"""
            { "name": "ground", "frame": [0, 0, 320, 480], "content": "solid", "color": "#FFFFFF", "opaque": true },
            { "name": "card", "frame": [100, 100, 80, 80], "content": "\##(content)", "color": "#FFFFFF", "opaque": true,
              "shadow": { "radius": 4, "offset": [0, 3], "opacity": 0.5, "path": \##(path) } }
            """##
        }
        let (withPath, _) = try Self.picture(try Self.scene(layers(path: true)))
        let (withoutPath, drawing) = try Self.picture(try Self.scene(layers(path: false)))
        #expect(withPath.image == withoutPath.image)
        let rule = ShadowRule(kind: .composited, sigmaPixels: 4 * Self.device.scale)
        #expect(
            drawing.layers.first { $0.name == "card" }?.offscreenPasses == 1 + rule.halvings + 2,
            "shape, halvings and two blurs (O5)")
        let (solid, solidDrawing) = try Self.picture(try Self.scene(layers(path: false, content: "solid")))
        #expect(solidDrawing.layers.first { $0.name == "card" }?.offscreenPasses == 0, "the rounded rectangle's")
        // Just below the card, inside the offset: darker than the ground; far from it: the ground.
        for image in [withPath.image, solid.image] {
            let below = Self.pixel(image, 140, 181)
            #expect(below[0] < 255 && below[0] > 128, "\(below)")
            #expect(Self.pixel(image, 140, 220) == [255, 255, 255, 255])
        }
    }

    /// An effect view draws exactly what the renderer draws over the picture of what lies behind it.
    @Test func anEffectViewIsTheRenderersPixelsOverWhatIsBehindIt() throws {
        let behind = ##"""
            { "name": "photo", "frame": [0, 0, 320, 480], "content": "image", "opaque": true },
            { "name": "label", "frame": [20, 90, 200, 40], "content": "text" }
            """##
        let bar = ##"{ "name": "bar", "frame": [0, 80, 320, 64], "effect": { "blur": "dark" } }"##
        let (content, _) = try Self.picture(try Self.scene(behind))
        let (screen, _) = try Self.picture(try Self.scene(behind + ", " + bar))
        let frame = PixelRect(x: 0, y: 80, width: 320, height: 64)
        let expected = try Renderer(parallelism: .serial).render(
            content.image, effect: Effect(style: .dark, frame: frame, scale: 1, path: .blur))
        #expect(expected == screen.image)
    }

    @Test func thePictureIsTheSameOnOneThreadAndOnSeveral() throws {
        let scene = BuiltInScenes.named("navbar-tabbar-blur")!
        let (one, _) = try Self.picture(scene, parallelism: .serial)
        let (several, _) = try Self.picture(scene, parallelism: Parallelism(threads: 3))
        #expect(one.image == several.image)
    }

    // MARK: The overlays agree with the planner

    /// The layers the offscreen overlay tints are those that open offscreen textures, as many passes as textures: every built-in scene, first frame, on a device of each path.
    @Test(arguments: BuiltInScenes.names)
    func theOffscreenOverlayTintsTheLayersThePlannerSendsOffscreen(_ name: String) throws {
        for deviceID in ["iphone-5", "iphone-4"] {
            let device = Device.named(deviceID)!
            let path = Estimator().decision(for: device).path
            let frame = try ScenePlanner(device: device, path: path).frame(
                of: BuiltInScenes.named(name)!, steady: false, drawing: true)
            let drawing = try #require(frame.drawing)
            let offscreenTargets = Set(frame.passes.map(\.target).filter { $0 != .screen })
            #expect(drawing.layers.map(\.offscreenPasses).reduce(0, +) == offscreenTargets.count, "\(deviceID)")
            // Every tinted layer draws offscreen; the others that do are the sublayers drawn into its texture.
            #expect(
                Set(drawing.layers.filter { $0.offscreenPasses > 0 }.map(\.name))
                    .isSubset(of: Set(frame.passes.filter { $0.target != .screen }.map(\.layer))), "\(deviceID)")
            for layer in drawing.layers {
                let tinted = SceneOverlay.offscreen.tint(of: layer, imageSizes: [:]) != nil
                #expect(tinted == (layer.offscreenPasses > 0))
            }
        }
    }

    /// Blended red, opaque green: the flag the planner priced each layer's content pass with.
    @Test func theBlendedOverlayFollowsEachContentPassesBlending() throws {
        let frame = try ScenePlanner(device: Self.device, path: .blur).frame(
            of: BuiltInScenes.named("contacts-table-masks")!, steady: false, drawing: true)
        let drawing = try #require(frame.drawing)
        #expect(drawing.layers.contains { $0.blended == true } && drawing.layers.contains { $0.blended == false })
        for layer in drawing.layers {
            guard let blended = layer.blended else { continue }
            let pass = try #require(frame.passes.first { $0.descriptor.name == layer.name })
            #expect(pass.descriptor.blends == blended, "\(layer.name)")
            #expect(
                SceneOverlay.blended.tint(of: layer, imageSizes: [:])?.0
                    == (blended ? SceneOverlay.red : SceneOverlay.green))
        }
    }

    /// A rasterized layer misses in the first frame (red) and hits from the cache after it (green).
    @Test func theRasterizedOverlayIsRedInTheFirstFrameAndGreenAfter() throws {
        let scene = try Self.scene(
            ##"{ "name": "badge", "frame": [10, 10, 60, 60], "content": "solid", "color": "#3366CC", "opaque": true, "rasterize": true, "sublayers": [ { "name": "dot", "frame": [10, 10, 10, 10], "content": "solid" } ] }"##
        )
        for (steady, hit) in [(false, false), (true, true)] {
            let (result, drawing) = try Self.picture(scene, steady: steady)
            let badge = try #require(drawing.layers.first { $0.name == "badge" })
            #expect(badge.rasterCacheHit == hit)
            let overlaid = SceneOverlay.rasterized.applied(
                to: result.image, drawing: drawing, imageSizes: result.imageSizes, parallelism: .serial)
            let tint = Self.pixel(overlaid, 50, 50)
            #expect(hit ? tint[1] > tint[0] : tint[0] > tint[1], "\(tint)")
            if steady { #expect(result.image == (try Self.picture(scene)).0.image, "the cache holds the same pixels") }
        }
    }

    /// Magenta where a frame's edges fall between pixels; yellow where an image file is drawn at another size.
    @Test func theMisalignedOverlayMarksHalfPixelEdgesAndScaledImages() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try PNGEncoder().write(noiseImage(width: 10, height: 10), to: folder.appendingPathComponent("icon.png").path)
        let scene = try Self.scene(
            ##"""
            { "name": "exact", "frame": [0, 0, 10, 10], "content": "image", "image": "icon.png" },
            { "name": "scaled", "frame": [20, 0, 20, 20], "content": "image", "image": "icon.png" },
            { "name": "between", "frame": [50.5, 0, 10, 10], "content": "solid" }
            """##, folder: folder.path)
        let (result, drawing) = try Self.picture(scene)
        func tint(_ name: String) -> SIMD3<Float>? {
            SceneOverlay.misaligned.tint(of: drawing.layers.first { $0.name == name }!, imageSizes: result.imageSizes)?
                .0
        }
        #expect(tint("exact") == nil)
        #expect(tint("scaled") == SceneOverlay.yellow)
        #expect(tint("between") == SceneOverlay.magenta)
    }

    // MARK: Bad input

    @Test(arguments: [
        (
            ##"{ "name": "a", "frame": [0, 0, 10, 10], "content": "solid", "color": "#12345" }"##,
            "layers[0].color: '#12345' is not a colour"
        ),
        (##"{ "name": "a", "frame": [0, 0, 10, 10], "content": "solid", "color": "red" }"##, "layers[0].color"),
        (
            ##"{ "name": "a", "frame": [0, 0, 10, 10], "content": "solid", "image": "a.png" }"##,
            "layers[0].image: goes with"
        ),
        (
            ##"{ "name": "a", "frame": [0, 0, 10, 10], "content": "image", "image": "../a.png" }"##,
            "must be a path inside"
        ),
        (
            ##"{ "name": "a", "frame": [0, 0, 10, 10], "content": "image", "image": "/etc/a.png" }"##,
            "must be a path inside"
        ),
    ])
    func aBadColourOrImagePathIsOneLineNamingItsPlace(_ layer: String, _ message: String) throws {
        let error = #expect(throws: BackdropError.self) { try Self.scene(layer, folder: "/tmp") }
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("\n") == false)
    }

    @Test func imagesNeedASceneFile() throws {
        let error = #expect(throws: BackdropError.self) {
            try Self.scene(##"{ "name": "a", "frame": [0, 0, 10, 10], "content": "image", "image": "a.png" }"##)
        }
        #expect(error?.message.contains("needs a scene file") == true)
    }

    @Test func aMissingOrEscapingImageNamesItsLayer() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outside = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: outside) }
        try PNGEncoder().write(noiseImage(width: 4, height: 4), to: outside.appendingPathComponent("x.png").path)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("link.png").path,
            withDestinationPath: outside.appendingPathComponent("x.png").path)
        for (image, problem) in [("missing.png", "missing.png"), ("link.png", "lies outside the scene file's folder")] {
            let scene = try Self.scene(
                ##"{ "name": "poster", "frame": [0, 0, 10, 10], "content": "image", "image": "\##(image)" }"##,
                folder: folder.path)
            let error = #expect(throws: BackdropError.self) { try Self.picture(scene) }
            #expect(error?.message.hasPrefix("layer 'poster': ") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains(problem) == true, "\(error?.message ?? "")")
        }
    }
}
