import Backdrop
import Foundation
import Testing

/// ``RenderRequest`` alone: every key reads from a query and from JSON and prints as its option, and each kind
/// refuses what it does not take in one set of words, spelled for the command line or for keys.
@Suite("RenderRequest: keys, spellings and the conflict table")
struct RenderRequestUnitTests {
    /// A value of each key's type, as a query writes it.
    static let queryValues: [RenderRequest.CodingKeys: String] = [
        .input: "in.png", .scene: "control-center", .device: "iphone-5", .show: "offscreen", .steady: "1",
        .scrollOffset: "40", .algorithm: "image-effects", .style: "custom", .sigma: "12", .saturation: "1.5",
        .tint: "1,0.5,0", .tintAlpha: "0.3", .fallbackAlpha: "0.5", .vibrancyBlend: "plusLighter", .appearance: "dark",
        .cornerRadius: "12", .capsule: "1",
        .frame: "0,0,10,10", .scale: "2", .path: "blur", .exact: "true", .tintOnly: "1", .vibrancy: "v.png",
        .at: "1,2", .vibrancyStyle: "secondaryLabel", .mask: "m.png", .depth: "16", .colorSpace: "keep",
        .reduceTransparency: "1", .increaseContrast: "1",
    ]

    @Test func everyKeyReadsFromAQueryRoundTripsThroughJSONAndPrintsAsItsOption() throws {
        #expect(Set(Self.queryValues.keys) == Set(RenderRequest.CodingKeys.allCases))
        let query = Dictionary(uniqueKeysWithValues: Self.queryValues.map { ($0.key.rawValue, $0.value) })
        let request = try RenderRequest(query: query)
        #expect(request.scale == 2 && request.steady == true && request.exact == true && request.depth == 16)
        let json = try JSONEncoder().encode(request)
        #expect(try JSONDecoder().decode(RenderRequest.self, from: json) == request)
        // A scene names its mode and comes first; every other field follows as its option (the request is refused,
        // but each key still prints).
        let arguments = request.arguments(output: "out.png")
        #expect(
            arguments.prefix(3) == ["render", "scene", "control-center"] && arguments.suffix(2) == ["-o", "out.png"])
        for key in RenderRequest.CodingKeys.allCases where key != .scene {
            #expect(arguments.contains("--" + key.rawValue), "\(key.rawValue) is not printed: \(arguments)")
        }
        #expect(arguments[arguments.firstIndex(of: "--scale")! + 1] == "2")
    }

    /// Each kind prints as its mode, `render picture IN`, `render image-effects IN` or `render scene SCENE`, with
    /// only the options that mode takes.
    @Test func eachKindPrintsAsItsModeWithTheOptionsItTakes() throws {
        let picture = try RenderRequest(query: ["input": "in.png", "style": "dark", "saturation": "-1", "at": "-2,3"])
        #expect(
            picture.arguments(output: "o.png") == [
                "render", "picture", "in.png", "--style", "dark", "--saturation", "-1", "--at", "-2,3", "-o", "o.png",
            ])
        let imageEffects = try RenderRequest(query: [
            "input": "in.png", "algorithm": "image-effects", "style": "tint", "tint": "1,0,0", "fallback-alpha": "0.5",
            "vibrancy-blend": "plusLighter",
        ])
        _ = try imageEffects.validate(spelling: .option)
        #expect(
            imageEffects.arguments(output: "o.png") == [
                "render", "image-effects", "in.png", "--style", "tint", "--tint", "1,0,0", "-o", "o.png",
            ])
        let scene = try RenderRequest(query: [
            "scene": "control-center", "device": "iphone-5", "scroll-offset": "-40", "algorithm": "system",
        ])
        #expect(
            scene.arguments(output: "o.png") == [
                "render", "scene", "control-center", "--device", "iphone-5", "--scroll-offset", "-40", "-o", "o.png",
            ])
    }

    @Test(arguments: [
        ("scale=x", "scale 'x' is not a number"), ("steady=2", "steady '2' is not 1 or 0"),
        ("depth=1.5", "depth '1.5' is not a whole number"), ("colour=red", "unknown parameter 'colour'"),
    ])
    func aBadQueryValueIsOneLineNamingIt(_ query: String, _ message: String) {
        let parts = query.split(separator: "=").map(String.init)
        #expect(throws: BackdropError(.badOption, message)) { try RenderRequest(query: [parts[0]: parts[1]]) }
    }

    /// One request per conflict, and the words each spelling gives.
    static let conflicts: [(query: [String: String], option: String, key: String)] = [
        (
            ["scene": "control-center", "device": "iphone-5", "input": "a.png"],
            "--scene draws the scene's own layers and effect views: leave out an input PNG",
            "scene draws the scene's own layers and effect views: leave out input"
        ),
        (
            ["scene": "control-center", "device": "iphone-5", "algorithm": "image-effects"],
            "--scene draws the scene's own layers and effect views: leave out --algorithm",
            "scene draws the scene's own layers and effect views: leave out algorithm"
        ),
        (
            ["input": "a.png", "algorithm": "image-effects", "vibrancy": "v.png"],
            "--vibrancy is for the system algorithm, not image-effects",
            "vibrancy is for the system algorithm, not image-effects"
        ),
        (
            ["scene": "control-center", "device": "iphone-5", "color-space": "keep"],
            "--scene draws the scene's own layers and effect views: leave out --color-space",
            "scene draws the scene's own layers and effect views: leave out color-space"
        ),
        (
            ["input": "a.png", "mask": "m.png"], "--mask goes with --algorithm image-effects",
            "mask goes with algorithm image-effects"
        ),
        (
            ["input": "a.png", "steady": "1"], "--show, --steady and --scroll-offset go with --scene",
            "show, steady and scroll-offset go with scene"
        ),
        (
            ["scene": "control-center"], "--scene needs --device ID (see 'backdrop devices')",
            "scene needs device ID (see 'backdrop devices')"
        ),
    ]

    @Test(arguments: conflicts)
    func eachConflictIsRefusedInOneSetOfWords(_ conflict: (query: [String: String], option: String, key: String)) throws
    {
        let request = try RenderRequest(query: conflict.query)
        #expect(throws: BackdropError(.badOption, conflict.option)) { try request.validate(spelling: .option) }
        #expect(throws: BackdropError(.badOption, conflict.key)) { try request.validate(spelling: .key) }
    }
}
