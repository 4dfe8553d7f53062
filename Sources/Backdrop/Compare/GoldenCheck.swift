import Foundation

/// Runs the cases of a ``GoldenManifest``: renders each and compares it with its golden picture, or records the
/// golden. It writes nothing but the goldens it is asked to record; ``GoldenArtifacts`` writes what a failure leaves
/// for review.
public struct GoldenCheck: Sendable {
    /// Which goldens to record instead of comparing.
    public enum Update: String, Sendable, CaseIterable {
        /// Only goldens that do not exist yet.
        case missing
        /// Goldens of cases that fail or are missing.
        case failed
        /// Every golden.
        case all
    }

    /// What happened to one case.
    public enum Outcome: Sendable {
        /// Within the tolerance.
        case passed(GoldenComparison)
        /// Outside it.
        case failed(GoldenComparison)
        /// The golden was (re-)recorded at `path`.
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

    /// One case's result: the outcome, and the pictures a reviewer looks at.
    public struct Result: Sendable {
        /// The case's name in reports.
        public let name: String
        public let outcome: Outcome
        /// The golden picture, when one was read.
        public let expected: RGBAImage<UInt8>?
        /// The rendering, when the case rendered.
        public let actual: RGBAImage<UInt8>?
        /// Seconds the case took.
        public let seconds: Double
    }

    /// The renderer used for every case.
    public var renderer: Renderer

    /// A checker rendering with `renderer`.
    public init(renderer: Renderer = Renderer()) {
        self.renderer = renderer
    }

    /// Runs one case; paths are relative to `folder`. `update` says which goldens to record instead of comparing;
    /// with `recordInto` they are written under that folder at the golden's path relative to the manifest's folder
    /// (a CI job collects them as an artifact) instead of over the golden tree.
    public func run(
        _ testCase: GoldenManifest.Case, in folder: String, defaultTolerance: Tolerance?, update: Update? = nil,
        recordInto: String? = nil
    ) -> Result {
        let start = ContinuousClock.now
        func resolved(_ path: String, _ field: String) throws(BackdropError) -> String {
            try GoldenManifest.path(path, in: folder, field: field)
        }
        func result(_ outcome: Outcome, _ expected: RGBAImage<UInt8>? = nil, _ actual: RGBAImage<UInt8>? = nil)
            -> Result
        {
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            return Result(
                name: testCase.displayName, outcome: outcome, expected: expected, actual: actual, seconds: seconds)
        }
        var rendered: RGBAImage<UInt8>?
        do throws(BackdropError) {
            let actual = try render(testCase, resolve: resolved)
            rendered = actual
            let goldenPath = try resolved(testCase.golden, "golden")
            let recordPath = recordInto.map { $0 + "/" + goldenPath.dropFirst(folder.count + 1) } ?? goldenPath
            let exists = FileManager.default.fileExists(atPath: goldenPath)
            if update == .all || (!exists && update != nil) {
                try Self.record(actual, at: recordPath)
                return result(.recorded(path: recordPath), nil, actual)
            }
            guard exists else {
                return result(
                    .error("\(goldenPath): no golden picture (run with --update missing to record it)"), nil, actual)
            }
            let golden = try PNGDecoder().decodeFile(goldenPath)
            let tolerance = testCase.tolerance ?? defaultTolerance ?? Tolerance()
            let comparison = try GoldenComparison(expected: golden, actual: actual, tolerance: tolerance)
            if comparison.passed { return result(.passed(comparison), golden, actual) }
            if update == .failed {
                try Self.record(actual, at: recordPath)
                return result(.recorded(path: recordPath), golden, actual)
            }
            return result(.failed(comparison), golden, actual)
        } catch {
            return result(.error(error.message), nil, rendered)
        }
    }

    /// Writes a golden, creating the folders it needs: a new suite's `--update missing` works before its goldens'
    /// folder exists. `path` is already confined to the manifest's folder (``GoldenManifest/path(_:in:field:)``).
    static func record(_ picture: RGBAImage<UInt8>, at path: String) throws(BackdropError) {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw BackdropError(
                    .output, "\(folder): cannot create the goldens' folder (\(error.localizedDescription))")
            }
        }
        try PNGEncoder().write(picture, to: path)
    }

    /// Renders a case as `backdrop render` would with the same options.
    func render(
        _ testCase: GoldenManifest.Case, resolve: (String, String) throws(BackdropError) -> String
    ) throws(BackdropError) -> RGBAImage<UInt8> {
        try testCase.checkKind()
        if testCase.scene != nil { return try draw(testCase, resolve: resolve) }
        let source = try PNGDecoder().decodeFile(try resolve(testCase.input ?? "", "input"))
        switch testCase.algorithm ?? "system" {
        case "system":
            if testCase.mask != nil {
                throw BackdropError(.badOption, "'mask' goes with \"algorithm\": \"image-effects\"")
            }
        case "image-effects":
            let style = try ImageEffectsStyle.resolve(
                StyleChoice(
                    name: testCase.style ?? "", sigma: testCase.sigma, saturation: testCase.saturation,
                    tint: testCase.tint, tintAlpha: testCase.tintAlpha), optionPrefix: "")
            let device = try testCase.device.map { id throws(BackdropError) in try Device.lookup(id) }
            let frame = try testCase.frame.map { text throws(BackdropError) in try PixelRect.parsed(text, as: "frame") }
            let plan = try ImageEffectsPlan(
                style: style, scale: testCase.scale ?? device?.scale ?? 1, frame: frame, imageSize: source.size)
            let mask = try testCase.mask.map { file throws(BackdropError) in
                try PNGDecoder().decodeFile(try resolve(file, "mask"))
            }
            return try renderer.render(source, imageEffects: plan, mask: mask)
        case let other:
            throw BackdropError(.badOption, "unknown algorithm '\(other)' (known: system, image-effects)")
        }
        let content = try testCase.vibrancy.map { file throws(BackdropError) in
            try PNGDecoder().decodeFile(try resolve(file, "vibrancy"))
        }
        let effect = try Self.effect(of: testCase, imageSize: source.size, vibrantContentSize: content?.size)
        return try renderer.render(source, effect: effect, vibrantContent: content)
    }

    /// The effect a picture case renders, from its options by `backdrop render`'s mapping (``StyleChoice``,
    /// ``EffectOptions``).
    static func effect(
        of testCase: GoldenManifest.Case, imageSize: PixelSize, vibrantContentSize: PixelSize? = nil
    ) throws(BackdropError) -> Effect {
        let style = try StyleChoice(
            name: testCase.style ?? "", sigma: testCase.sigma, saturation: testCase.saturation, tint: testCase.tint,
            tintAlpha: testCase.tintAlpha, fallbackAlpha: testCase.fallbackAlpha ?? 0.9,
            vibrancyBlend: Self.parse(
                testCase.vibrancyBlend, as: VibrancyBlend.self, default: .plusDarker, what: "vibrancy-blend")
        ).resolve(optionPrefix: "")
        let device = try testCase.device.map { id throws(BackdropError) in try Device.lookup(id) }
        let frame = try testCase.frame.map { text throws(BackdropError) in try PixelRect.parsed(text, as: "frame") }
        let quality = try Self.parse(testCase.quality, as: Effect.Quality.self, default: .fast, what: "quality")
        let path = try Self.parse(testCase.path, as: Estimator.PathChoice.self, default: .auto, what: "path")
        let options = EffectOptions(
            style: style, frame: frame, scale: testCase.scale, device: device, quality: quality,
            path: path, vibrantContentSize: vibrantContentSize, vibrancyCorner: testCase.at,
            cornerOptionName: "at")
        return try options.effect().effect
    }

    /// Draws a scene case as `backdrop render --scene` would: its effect views on the path `estimate --scene`
    /// prices (or the case's `path`), with its overlay.
    func draw(
        _ testCase: GoldenManifest.Case, resolve: (String, String) throws(BackdropError) -> String
    ) throws(BackdropError) -> RGBAImage<UInt8> {
        let device = try Device.lookup(testCase.device ?? "")
        let loaded = try testCase.loadScene(resolve: resolve)
        let choice = try Self.parse(testCase.path, as: Estimator.PathChoice.self, default: .auto, what: "path")
        let overlay = try testCase.show.map { name throws(BackdropError) in
            try Self.parse(name, as: SceneOverlay.self, default: .offscreen, what: "show")
        }
        let estimator = Estimator()
        let path = estimator.path(choice, on: device)
        let (picture, drawing) = try ScenePicture(device: device, parallelism: renderer.parallelism).draw(
            loaded, path: { _ in path }, steady: testCase.steady ?? false)
        return overlay?.applied(
            to: picture.image, drawing: drawing, imageSizes: picture.imageSizes, parallelism: renderer.parallelism)
            ?? picture.image
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
