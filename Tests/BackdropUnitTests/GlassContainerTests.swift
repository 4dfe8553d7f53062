import Backdrop
import Foundation
import Testing

/// `"glassContainer": true` groups a layer's Liquid Glass views as SwiftUI's GlassEffectContainer does (issue 64
/// item 5): one capture and one blur of the backdrop behind them all, then each view's own upscale, face and
/// composite. The price changes; the picture does not.
@Suite("Glass containers")
struct GlassContainerTests {
    /// A tab bar of three glass buttons side by side over a photo-like ground, grouped or not.
    static func scene(grouped: Bool) throws -> Scene {
        let json = """
            {"name": "glass buttons", "screen": [390, 844], "layers": [
              {"name": "ground", "frame": [0, 0, 390, 844], "content": "image", "opaque": true},
              {"name": "bar", "frame": [16, 760, 358, 60], "glassContainer": \(grouped), "sublayers": [
                {"name": "button", "frame": [0, 0, 110, 60], "cornerRadius": 30, "effect": {"blur": "glass"},
                 "repeat": {"count": 3, "dx": 124, "dy": 0}}]}]}
            """
        return try SceneParser.parse(Data(json.utf8), source: "glass.json")
    }

    @Test func aContainerSharesOneCaptureAndBlur() throws {
        let device = try #require(Device.named("iphone-17-pro"))
        let estimator = Estimator()
        let alone = try estimator.estimate(scene: try Self.scene(grouped: false), device: device)
        let grouped = try estimator.estimate(scene: try Self.scene(grouped: true), device: device)
        func count(_ estimate: SceneEstimate, _ kinds: Set<PassKind>) -> Int {
            estimate.frame.passes.filter { kinds.contains($0.pass.kind) }.count
        }
        let shared: Set<PassKind> = [.capture, .horizontalBlur, .verticalBlur]
        // Three captures and blurs alone, one grouped; a face and a composite per button either way.
        #expect(count(alone, shared) == 3 * count(grouped, shared) && count(grouped, [.capture]) == 1)
        #expect(count(alone, [.glassFace, .composite]) == count(grouped, [.glassFace, .composite]))
        #expect(count(grouped, [.glassFace]) == 3)
        #expect(grouped.frame.offscreenPasses < alone.frame.offscreenPasses)
        #expect(grouped.frame.totalMs < alone.frame.totalMs, "\(grouped.frame.totalMs) vs \(alone.frame.totalMs) ms")
        // The shared passes are the container's, named so in the passes.
        #expect(
            grouped.frame.passes.contains { $0.gpuPass.layer == "button (glass container)" && $0.pass.kind == .capture }
        )
    }

    /// On the tint-only path nothing is blurred, so a container changes nothing.
    @Test func tintOnlyIsTheSameGroupedOrNot() throws {
        let device = try #require(Device.named("iphone-17-pro"))
        let estimator = Estimator()
        let alone = try estimator.estimate(scene: try Self.scene(grouped: false), device: device, path: .tintOnly)
        let grouped = try estimator.estimate(scene: try Self.scene(grouped: true), device: device, path: .tintOnly)
        #expect(alone.frame.passes.map(\.pass.kind) == grouped.frame.passes.map(\.pass.kind))
    }

    /// The picture draws each glass view as it would alone: grouping changes the price, not the pixels.
    @Test func thePictureIsTheSameGroupedOrNot() throws {
        let device = try #require(Device.named("iphone-17-pro"))
        let picture = ScenePicture(device: device, parallelism: .serial)
        let alone = try picture.draw(try Self.scene(grouped: false), path: .blur, steady: false).0
        let grouped = try picture.draw(try Self.scene(grouped: true), path: .blur, steady: false).0
        #expect(alone.image == grouped.image)
    }

    /// The key reads and writes back, and a value other than a boolean is refused naming its place.
    @Test func theKeyRoundTripsAndIsChecked() throws {
        let scene = try Self.scene(grouped: true)
        #expect(scene.layers[1].glassContainer)
        let written = SceneJSON.text(scene)
        #expect(written.contains("\"glassContainer\": true"))
        #expect(try SceneParser.parse(Data(written.utf8), source: "again.json").layers[1].glassContainer)
        #expect {
            _ = try SceneParser.parse(
                Data(#"{"name": "x", "layers": [{"name": "bar", "frame": [0, 0, 10, 10], "glassContainer": 1}]}"#.utf8),
                source: "bad.json")
        } throws: { error in
            (error as? BackdropError)?.message.contains("layers[0].glassContainer") == true
        }
    }
}
