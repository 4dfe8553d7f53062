import Backdrop
import Foundation
import Testing

/// Frames as edges and sizes of the parent (``SceneLayout``): one scene priced on every screen.
@Suite("Scenes laid out on every screen")
struct SceneLayoutTests {
    static let pinned = #"""
        {"name": "pinned", "layers": [
          {"name": "content", "frame": {"left": 0, "right": 0, "top": 0, "bottom": 0}, "content": "image", "opaque": true},
          {"name": "toolbar", "frame": {"left": 0, "width": "100%", "bottom": 0, "height": 44}, "effect": {"blur": "light"},
           "sublayers": [{"name": "label", "frame": {"right": 8, "width": "50%", "top": 12, "height": 20}, "content": "text"}]},
          {"name": "card", "frame": {"left": "5%", "right": "5%", "top": 80, "height": 120}, "content": "solid"}
        ]}
        """#

    func parse(_ json: String) throws(BackdropError) -> Scene {
        try SceneParser.parse(Data(json.utf8), source: "test.json")
    }

    @Test(arguments: ["iphone-4s", "iphone-5", "ipad-air"])
    func aToolbarPinnedToTheBottomAndAFullWidthCardFollowEveryScreen(_ id: String) throws {
        let device = try Device.lookup(id)
        let screen = device.screenPoints
        let scene = try parse(Self.pinned).laidOut(on: PointSize(width: screen.width, height: screen.height))
        let toolbar = scene.layers[1], card = scene.layers[2], label = toolbar.sublayers[0]
        #expect(scene.layers[0].frame == PointRect(x: 0, y: 0, width: screen.width, height: screen.height))
        #expect(toolbar.frame == PointRect(x: 0, y: screen.height - 44, width: screen.width, height: 44))
        let inset = 5.0 / 100 * screen.width  // "5%" of the screen's width, each side
        #expect(card.frame == PointRect(x: inset, y: 80, width: screen.width - inset - inset, height: 120))
        #expect(label.frame == PointRect(x: screen.width / 2 - 8, y: 12, width: screen.width / 2, height: 20))
        // The planner prices the toolbar's blur over the bottom 44 points of this screen.
        let passes = try ScenePlanner(device: device, path: .blur).frame(
            of: try parse(Self.pinned), steady: false
        )
        .passes
        let capture = try #require(passes.first { $0.descriptor.kind == .capture })
        #expect(capture.descriptor.outputSize == PixelSize(width: device.screen.width, height: Int(44 * device.scale)))
    }

    @Test func theObjectFormReadsBackAndTheArrayFormKeepsWorking() throws {
        let scene = try parse(Self.pinned)
        #expect(try parse(SceneJSON.text(scene)) == scene)
        let array = try parse(#"{"layers": [{"name": "a", "frame": [10, 20, 30, 40], "content": "solid"}]}"#)
        #expect(
            array.layers[0].layout == nil && array.layers[0].frame == PointRect(x: 10, y: 20, width: 30, height: 40))
    }

    @Test(arguments: [
        (
            #"{"left": 0, "right": 0, "width": 10, "top": 0, "height": 5}"#,
            "layers[0].frame: left, right and width over-constrain"
        ),
        (#"{"left": 0, "top": 0, "height": 5}"#, "layers[0].frame: give two of left, right and width (only left)"),
        (#"{"left": 0, "width": 5, "top": 0}"#, "layers[0].frame: give two of top, bottom and height (only top)"),
        (#"{"left": 0, "width": "150%", "top": 0, "height": 5}"#, "layers[0].frame.width: 150% is outside 0–100 %"),
        (#"{"left": "-1%", "width": 5, "top": 0, "height": 5}"#, "layers[0].frame.left: -1% is outside 0–100 %"),
        (#"{"left": 0, "width": -3, "top": 0, "height": 5}"#, "layers[0].frame.width: a size must not be negative"),
        (#"{"left": 0, "width": "wide", "top": 0, "height": 5}"#, "layers[0].frame.width: 'wide' is neither points"),
        (#"{"left": 0, "width": 5, "top": 0, "height": 5, "depth": 1}"#, "layers[0].frame: unknown key 'depth'"),
    ])
    func aFrameOfEdgesThatCannotBeLaidOutIsAOneLineError(frame: String, message: String) throws {
        do {
            _ = try parse(#"{"layers": [{"name": "bar", "frame": \#(frame), "content": "solid"}]}"#)
            Issue.record("\(frame) was read")
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
            #expect(!error.message.contains("\n"))
        }
    }
}

/// `estimate --find`: the largest value of a property that keeps a frame rate (``LargestFit``).
@Suite("What fits in a frame")
struct LargestFitTests {
    /// At the answer the estimate fits; one step past it, it does not; the range holds the answer.
    @Test(arguments: ["iphone-4s", "ipod-touch-5", "iphone-5", "ipad-air"])
    func atTheLargestValueItFitsAndOneStepPastItItDoesNot(_ id: String) throws {
        let device = try Device.lookup(id), estimator = Estimator()
        let scene = try ShadowRuleTests.feed(radius: 4)
        for (find, rate) in [("card.shadow.radius", 40.0), ("card.frame.height", 50), ("card.repeat.count", 30)] {
            let fit = try LargestFit(find, in: scene, device: device, fps: rate)
            let largest = try #require(fit.largest, "\(find) on \(id)")
            let (layer, property) = try LargestFit.parse(find)
            func framesPerSecond(at value: Double) throws -> Double {
                let changed = try LargestFit.setting(property, to: value, layer: layer, in: scene)
                return try estimator.estimate(scene: changed, device: device).tableFrame.fps
            }
            #expect(try framesPerSecond(at: largest) >= rate - 1e-9, "\(find) on \(id) at \(largest)")
            if largest < fit.greatest {
                #expect(try framesPerSecond(at: largest + property.step) < rate, "\(find) on \(id) past \(largest)")
            }
            if let cautious = fit.largestRange[0] { #expect(cautious <= largest) }
            if let hopeful = fit.largestRange[1] { #expect(hopeful >= largest) }
        }
    }

    @Test func aPropertyTheSceneLacksIsAnErrorNamingTheLayerAndKey() throws {
        let scene = try ShadowRuleTests.feed(radius: 4)
        let device = try Device.lookup("iphone-5")
        for (find, message) in [
            ("background.shadow.radius", "layer 'background' has no shadow"),
            ("background.repeat.count", "layer 'background' has no repeat"),
            ("nothing.shadow.radius", "the scene has no layer 'nothing'"),
            ("card.shadow.blur", "expected LAYER.PROPERTY"),
        ] {
            do {
                _ = try LargestFit(find, in: scene, device: device)
                Issue.record("\(find) was searched")
            } catch {
                #expect(error.message.contains(message) && error.kind == .badInput, "\(error.message)")
            }
        }
    }
}
