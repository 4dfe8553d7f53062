import Backdrop
import Foundation
import Testing

/// A scene effect view's custom blur (`{"blur": "custom", "sigma", "saturation", "tint"}`): read, written back, and
/// checked as every other key is.
@Suite("Scenes: the custom blur")
struct SceneCustomBlurTests {
    @Test func aCustomBlurReadsAndWritesBack() throws {
        let json = #"""
            {"layers": [{"name": "bar", "frame": [0, 0, 320, 64],
              "effect": {"blur": "custom", "sigma": 12.5, "saturation": 1.2, "tint": "#FFFFFFB3"}}]}
            """#
        let scene = try SceneParser.parse(Data(json.utf8), source: "s.json")
        let style = try #require(scene.layers[0].effect?.style)
        #expect(style.name == "custom" && style.sigmaPoints == 12.5 && style.saturation == 1.2)
        #expect(style.tintColor == SIMD3(1, 1, 1) && style.tintAlpha == 179.0 / 255)
        let text = SceneJSON.text(scene)
        #expect(text.contains(##""blur": "custom", "sigma": 12.5, "saturation": 1.2, "tint": "#FFFFFFB3""##))
        #expect(try SceneParser.parse(Data(text.utf8), source: "s.json") == scene)
    }

    @Test(arguments: [
        (#"{"blur": "custom", "sigma": 10, "saturation": 1}"#, "layers[0].effect: a custom blur needs"),
        (#"{"blur": "light", "sigma": 10}"#, "layers[0].effect.sigma: goes with \"blur\": \"custom\""),
        (##"{"blur": "custom", "sigma": 900, "saturation": 1, "tint": "#FFFFFF"}"##, "sigma: 900.0 is outside"),
        (#"{"blur": "custom", "sigma": 9, "saturation": 1, "tint": "white"}"#, "tint: 'white' is not a colour"),
    ])
    func aCustomBlurIsCheckedLikeTheRest(effect: String, message: String) {
        let json = #"{"layers": [{"frame": [0, 0, 10, 10], "effect": \#(effect)}]}"#
        #expect(throws: BackdropError.self) { try SceneParser.parse(Data(json.utf8), source: "s.json") }
        do {
            _ = try SceneParser.parse(Data(json.utf8), source: "s.json")
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
        }
    }
}
