import Backdrop
import Foundation
import Testing

/// ``SceneWork``: the bound every command checks a scene against before planning it must hold for what the
/// planner then plans.
@Suite("Scene work: the bound checked before planning")
struct SceneWorkTests {
    /// A scene with every feature that adds passes, repeated and nested.
    static let everyFeature = #"""
        {"layers": [
          {"name": "bar", "frame": [0, 0, 320, 64], "effect": {"blur": "light", "vibrancy": [
            {"name": "glyph", "frame": [10, 10, 40, 40], "content": "solid"}]}},
          {"name": "cell", "frame": [0, 64, 320, 60], "content": "solid", "opacity": 0.5, "scrolls": true,
           "repeat": {"count": 9, "dx": 0, "dy": 60}, "sublayers": [
            {"name": "thumb", "frame": [8, 8, 44, 44], "content": "image", "cornerRadius": 22, "masksToBounds": true,
             "shadow": {"radius": 3, "opacity": 0.4}},
            {"name": "badge", "frame": [280, 8, 20, 20], "content": "solid", "rasterize": true,
             "shadow": {"radius": 2, "opacity": 0.4, "path": true}},
            {"name": "label", "frame": [60, 8, 200, 20], "content": "text", "mask": true}]}
        ]}
        """#

    @Test func theBoundHoldsForEveryFrameOfEveryBuiltInSceneOnEveryDevice() throws {
        let scenes = BuiltInScenes.all + [try SceneParser.parse(Data(Self.everyFeature.utf8), source: "test.json")]
        for scene in scenes {
            let work = SceneWork(scene)
            for device in Device.all {
                for path in [Effect.Path.blur, .tintOnly] {
                    let planner = ScenePlanner(device: device, path: path)
                    for steady in [false, true] {
                        let passes = try planner.frame(of: scene, steady: steady).passes.count
                        #expect(passes <= work.passesPerFrame, "\(scene.name) on \(device.id): \(passes)")
                    }
                }
            }
        }
        let everyFeature = try SceneParser.parse(Data(Self.everyFeature.utf8), source: "test.json")
        // bar + glyph, then nine cells of four layers each.
        #expect(SceneWork(everyFeature).layerInstances == 1 + 9 * 4)
        // The bar's plan (9), then per cell: its content and group composite (2), the thumb's content, shadow and
        // mask (1 + 7 + 2), the badge's content, shadow (a path's: 7 when its cache misses) and raster composite
        // (1 + 7 + 1), the label's content and mask (3).
        #expect(SceneWork(everyFeature).passesPerFrame == 9 + 9 * (2 + 10 + 9 + 3))
    }

    @Test func theBudgetNamesWhatIsOverItsLimit() throws {
        let budget = SceneWork.Budget(passesPerFrame: 100, listedPasses: 300, work: 10_000)
        let scene = try SceneParser.parse(Data(Self.everyFeature.utf8), source: "test.json")  // 225 passes a frame
        #expect(throws: BackdropError.self) { try budget.check(scene, run: .picture) }
        let roomy = SceneWork.Budget(passesPerFrame: 1000, listedPasses: 500, work: 10_000)
        try roomy.check(scene, run: .estimate, devices: 2)
        do {
            try roomy.check(scene, run: .estimate, devices: 3)
            Issue.record("three devices' listing passed")
        } catch {
            #expect(error.message.contains("would list up to 675 passes, over the limit of 500"))
        }
        do {
            try roomy.check(scene, run: .duration(seconds: 1), devices: 1)
            Issue.record("a second of frames passed")
        } catch {
            #expect(error.message.contains("over 60 frames on 1 device, are more work than one run may do"))
        }
    }
}
