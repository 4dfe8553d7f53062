import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// Issue 68 item 3: `estimate find` says why no value fits, with the range, in the words of `estimate find`.
@Suite("estimate find: when nothing fits")
struct FindAnswerTests {
    /// Six full-screen blurs that stay, and a seventh the search may repeat: on an iPhone 4 even one copy is over.
    static let scene = """
        {"name": "blurs", "layers": [
          {"name": "fixed", "frame": [0, 0, 320, 480], "effect": {"blur": "light"}, "repeat": {"count": 6, "dx": 0, "dy": 0}},
          {"name": "extra", "frame": [0, 0, 320, 480], "effect": {"blur": "light"}, "repeat": {"count": 2, "dx": 0, "dy": 0}}]}
        """

    @Test func noValueThatFitsSaysWhatTheLeastCosts() throws {
        let text = try runCLI(
            ["estimate", "find", "-", "extra.repeat.count", "--device", "iphone-4"], input: Data(Self.scene.utf8))
        #expect(text.status == 0, "\(text.standardError)")
        #expect(
            text.standardOutput.hasPrefix(
                "extra.repeat.count: no value keeps 60 fps on the iPhone 4: at the least, 1 copies, the frame takes "),
            "\(text.standardOutput)")
        #expect(text.standardOutput.contains("against 16.67 ms, now 2 copies (predicted)"), "\(text.standardOutput)")
        let json = try runCLI(
            ["estimate", "find", "-", "extra.repeat.count", "--device", "iphone-4", "--format", "json"],
            input: Data(Self.scene.utf8))
        let record = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let leastMs = try #require(record["leastMs"] as? Double)
        let range = try #require(record["leastMsRange"] as? [Double])
        #expect(leastMs > 1000 / 60 && range.count == 2 && range[0] < leastMs && leastMs < range[1])
        #expect(record["least"] as? Double == 1 && record["largest"] is NSNull)
    }

    /// Its errors name the argument, not the earlier spelling's option.
    @Test func errorsNameTheArgument() throws {
        let result = try runCLI(
            ["estimate", "find", "-", "card.radius", "--device", "iphone-4"], input: Data(Self.scene.utf8))
        #expect(result.status == 1)
        #expect(result.standardError.contains("'card.radius': expected LAYER.PROPERTY"), "\(result.standardError)")
        #expect(!result.standardError.contains("--find"))
    }
}
