import Foundation

/// Runs the cases of a ``GoldenManifest``: renders each, compares it with its golden picture, writes a diff
/// picture beside the golden of every case that fails, or re-records the goldens.
public struct GoldenCheck: Sendable {
    /// What happened to one case.
    public enum Outcome: Sendable {
        /// Within the tolerance.
        case passed(GoldenComparison)
        /// Outside it; `diff` is the path of the diff picture written (nil when the sizes differ).
        case failed(GoldenComparison, diff: String?)
        /// The golden was (re-)recorded.
        case recorded(path: String)
        /// The case could not be run: a missing input or golden, a bad option.
        case error(String)

        /// Whether the case counts as a success.
        public var succeeded: Bool {
            switch self {
            case .passed, .recorded: return true
            case .failed, .error: return false
            }
        }
    }

    /// The renderer used for every case.
    public var renderer: Renderer

    /// A checker rendering with `renderer`.
    public init(renderer: Renderer = Renderer()) {
        self.renderer = renderer
    }

    /// Runs one case; paths are relative to `folder`. With `update`, writes the rendering as the new golden.
    public func run(
        _ testCase: GoldenManifest.Case, in folder: String, defaultTolerance: Tolerance?,
        update: Bool
    ) -> Outcome {
        func resolved(_ path: String) -> String { path.hasPrefix("/") ? path : folder + "/" + path }
        do throws(BackdropError) {
            let rendered = try render(testCase, resolve: resolved)
            let goldenPath = resolved(testCase.golden)
            if update {
                try PNGEncoder().write(rendered, to: goldenPath)
                return .recorded(path: goldenPath)
            }
            guard FileManager.default.fileExists(atPath: goldenPath) else {
                return .error("\(goldenPath): no golden picture (run with --update to record it)")
            }
            let golden = try PNGDecoder().decodeFile(goldenPath)
            let tolerance = testCase.tolerance ?? defaultTolerance ?? Tolerance()
            let comparison = try GoldenComparison(expected: golden, actual: rendered, tolerance: tolerance)
            if comparison.passed { return .passed(comparison) }
            guard let picture = comparison.diffPicture(expected: golden, actual: rendered) else {
                return .failed(comparison, diff: nil)
            }
            let diffPath = (goldenPath as NSString).deletingPathExtension + ".diff.png"
            try PNGEncoder().write(picture, to: diffPath)
            return .failed(comparison, diff: diffPath)
        } catch {
            return .error(error.message)
        }
    }

    /// Renders a case as `backdrop render` would with the same options.
    func render(_ testCase: GoldenManifest.Case, resolve: (String) -> String) throws(BackdropError) -> RGBAImage<UInt8>
    {
        guard let style = BlurStyle.named(testCase.style) else {
            throw BackdropError(.badOption, "unknown style '\(testCase.style)'")
        }
        let device = try testCase.device.map { id throws(BackdropError) in try Device.lookup(id) }
        let frame = try testCase.frame.map { text throws(BackdropError) in try PixelRect.parsed(text, as: "frame") }
        let quality = try Self.parse(testCase.quality, as: Effect.Quality.self, default: .fast, what: "quality")
        let path = try Self.parse(testCase.path, as: Estimator.PathChoice.self, default: .auto, what: "path")
        let source = try PNGDecoder().decodeFile(resolve(testCase.input))
        let content = try testCase.vibrancy.map { file throws(BackdropError) in
            try PNGDecoder().decodeFile(resolve(file))
        }
        let options = EffectOptions(
            style: style, frame: frame, scale: testCase.scale, device: device, quality: quality,
            path: path, vibrantContentSize: content?.size, vibrancyCorner: testCase.at,
            cornerOptionName: "at")
        return try renderer.render(source, effect: options.effect().effect, vibrantContent: content)
    }

    static func parse<Value: RawRepresentable>(
        _ text: String?, as: Value.Type, default value: Value,
        what: String
    ) throws(BackdropError) -> Value where Value.RawValue == String {
        guard let text else { return value }
        guard let parsed = Value(rawValue: text) else { throw BackdropError(.badOption, "unknown \(what) '\(text)'") }
        return parsed
    }
}
