import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// Issue 70 item 8: numbers a scene or an option cannot mean.
@Suite("Hostile numbers, round three")
struct HostileNumberTests {
    /// `"0x10%"` was a 16 % frame; `"nan%"` and `"inf%"` likewise are no percentage.
    @Test(arguments: ["0x10%", "nan%", "inf%", "1e%"])
    func aPercentageIsWrittenInDecimals(width: String) throws {
        let scene = """
            {"name": "s", "layers": [{"name": "bar", "frame": {"left": 0, "width": "\(width)", "top": 0, "height": 44},
             "content": "solid"}]}
            """
        let result = try runCLI(["estimate", "scene", "-", "--device", "iphone-5"], input: Data(scene.utf8))
        #expect(result.status == 1, "\(result.standardError)")
        #expect(
            result.standardError.contains("layers[0].frame.width: '\(width)' is neither points nor a percentage"),
            "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    /// A run shorter than one frame drew nothing and said "0 drawn … 0.0 fps" with exit 0.
    @Test(arguments: ["1e-300", "0.01"])
    func aRunShorterThanAFrameIsRefused(duration: String) throws {
        let result = try runCLI([
            "estimate", "run", "photos-table-shadows", "--device", "iphone-5", "--duration", duration,
        ])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(
            result.standardError.contains("is out of range (one frame, 0.0167 s, to 600.0 s)"),
            "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        let one = try runCLI([
            "estimate", "run", "photos-table-shadows", "--device", "iphone-5", "--duration", "0.0167",
        ])
        #expect(one.status == 0 && one.standardOutput.contains("1 drawn"), "\(one.standardOutput)")
    }
}
