import BackdropTestSupport
import Foundation
import Testing

/// Every option whose value holds a number reads `-1` (or `-1,…`) as its value, never as an option: a negative
/// number where it means something works, and one out of range is refused by the option's own one-line error, never
/// "Missing value".
@Suite("Negative numbers as option values")
struct NegativeNumberOptionTests {
    static let photo = Fixtures.path("photos/coffee.png")
    static let glyphs = Fixtures.path("photos/glyphs-alpha.png")
    static let out = "/nonexistent-folder/never-written.png"

    /// Options where a negative number is a value they take: each command succeeds.
    static let meaningful: [[String]] = [
        ["render", "picture", photo, "--vibrancy", glyphs, "--at", "-20,-10"],
        [
            "render", "image-effects", photo, "--style", "custom", "--sigma", "8", "--saturation", "-1", "--tint",
            "1,1,1", "--tint-alpha", "0.2",
        ],
        ["render", "scene", "photos-table-shadows", "--device", "iphone-5", "--scroll-offset", "-40"],
        [
            "render", photo, "--algorithm", "image-effects", "--style", "custom", "--sigma", "8", "--tint", "1,1,1",
            "--tint-alpha", "0.2", "--saturation", "-1",
        ],
        ["render", "--scene", "photos-table-shadows", "--device", "iphone-5", "--scroll-offset", "-40"],
    ]

    @Test(arguments: meaningful)
    func aNegativeValueThatMeansSomethingRenders(_ arguments: [String]) throws {
        let output = try Fixtures.temporaryDirectory().appendingPathComponent("out.png").path
        let result = try runCLI(arguments + ["-o", output])
        #expect(result.status == 0, "\(arguments): \(result.standardError)")
    }

    @Test(arguments: [
        ["estimate", "run", "photos-table-shadows", "--device", "iphone-5", "--duration", "0.5", "--scroll", "-600"],
        [
            "estimate", "--scene", "photos-table-shadows", "--device", "iphone-5", "--duration", "0.5", "--scroll",
            "-600",
        ],
        ["compare", photo, photo, "--min-ssim", "-1"],
        ["compare", photo, photo, "--min-psnr", "-5"],
    ])
    func aNegativeValueThatMeansSomethingIsRead(_ arguments: [String]) throws {
        let result = try runCLI(arguments)
        #expect(result.status == 0, "\(arguments): \(result.standardError)")
    }

    /// A custom system style's other fields.
    static let custom = ["--style", "custom", "--sigma", "8", "--tint", "1,1,1", "--tint-alpha", "0.2"]

    /// Options where a negative number is out of range: the command, the option, and what its error names.
    static let refused: [(arguments: [String], naming: String)] = [
        (["render", "picture", photo, "-o", out, "--sigma", "-1", "--style", "custom"], "sigma"),
        (["render", "picture", photo, "-o", out, "--tint", "-1,0,0", "--style", "custom"], "tint"),
        (["render", "picture", photo, "-o", out, "--tint-alpha", "-1"], "tint-alpha"),
        (["render", "picture", photo, "-o", out, "--saturation", "-1"] + custom, "saturation"),
        (
            ["render", "picture", photo, "-o", out, "--fallback-alpha", "-1", "--saturation", "1"] + custom,
            "fallback alpha"
        ),
        (["render", "picture", photo, "-o", out, "--frame", "-900,0,100,100"], "frame"),
        (["render", "picture", photo, "-o", out, "--scale", "-1"], "scale"),
        (["render", "picture", photo, "-o", out, "--depth", "-1"], "depth"),
        (["render", "picture", photo, "-o", out, "--time", "-1"], "time"),
        (["render", "picture", photo, "-o", out, "--max-pixels", "-1"], "max-pixels"),
        (["render", "picture", photo, "-o", out, "--threads", "-1"], "threads"),
        (
            [
                "render", "image-effects", photo, "-o", out, "--sigma", "-1", "--saturation", "1", "--tint", "1,1,1",
                "--tint-alpha", "0.2", "--style", "custom",
            ], "sigma"
        ),
        (
            [
                "render", "image-effects", photo, "-o", out, "--tint-alpha", "-1", "--saturation", "1", "--tint",
                "1,1,1",
                "--sigma", "2", "--style", "custom",
            ], "tint-alpha"
        ),
        (["render", "image-effects", photo, "-o", out, "--tint", "-1,0,0", "--style", "tint"], "tint"),
        (["render", "image-effects", photo, "-o", out, "--frame", "-900,0,100,100"], "frame"),
        (["render", "image-effects", photo, "-o", out, "--scale", "-1"], "scale"),
        (["render", "batch", photo, "--output-dir", "/nonexistent-folder", "--jobs", "-1"], "jobs"),
        (["estimate", "view", "--device", "iphone-5", "--view", "-3x4"], "view"),
        (["estimate", "run", "photos-table-shadows", "--device", "iphone-5", "--duration", "-1"], "duration"),
        (
            [
                "estimate", "find", "photos-table-shadows", "thumbnail.shadow.radius", "--device", "iphone-5", "--fps",
                "-1",
            ],
            "fps"
        ),
        (["compare", photo, photo, "--max-diff", "-1"], "max-diff"),
        (["compare", photo, photo, "--max-differing-pixels", "-1"], "differing pixels -1"),
        (["compare", photo, photo, "--max-differing-ratio", "-1"], "differing ratio -1"),
        (["compare", photo, photo, "--pixel-threshold", "-1"], "pixel threshold -1"),
        (["compare", photo, photo, "--frame", "-10,-10,100,100"], "region -10,-10,100,100"),
        // An ignored rectangle must lie inside the pictures (issue 47): read, then refused by that rule.
        (["compare", photo, photo, "--ignore", "-10,-10,100,100"], "ignored region -10,-10,100,100"),
        (["check", "/nonexistent-folder/manifest.json", "--jobs", "-1"], "jobs"),
        (["preview", "--port", "-1"], "port"),
        (["preview", "--max-pixels", "-1"], "max-pixels"),
        (["preview", "--render-timeout", "-1"], "render-timeout"),
        (["preview", "--idle-timeout", "-1"], "idle-timeout"),
    ]

    @Test(arguments: refused.indices)
    func aNegativeValueOutOfRangeIsRefusedByItsOption(_ index: Int) throws {
        let (arguments, name) = Self.refused[index]
        let result = try runCLI(arguments)
        #expect(result.status == 2, "\(arguments): \(result.standardError)")
        #expect(!result.standardError.contains("Missing value"), "\(arguments): \(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(arguments): \(result.standardError)")
        #expect(result.standardError.contains(name), "\(arguments): \(result.standardError)")
    }
}
