import Foundation

/// A list of golden-image cases: what to render, the golden picture it must match, and the tolerance.
/// Read from JSON; paths are relative to the manifest's folder. The format (README, "Golden manifests"):
///
/// ```json
/// { "tolerance": { "minimumPSNR": 50 },
///   "cases": [ { "name": "coffee-light", "input": "in/coffee.png", "golden": "golden/coffee-light.png",
///                "style": "light", "frame": "50,100,500,200", "scale": 1 },
///              { "scene": "contacts-table-masks", "device": "iphone-5", "golden": "golden/masks.png",
///                "show": "offscreen" } ] }
/// ```
///
/// A case renders either a style over `input` (as `backdrop render`) or a `scene` on a `device` (as `backdrop
/// render --scene`, with `show`, `steady` and `path`).
public struct GoldenManifest: Codable, Sendable {
    /// One case: `golden`, and `input` with `style` or `scene` with `device`; every other field is optional.
    public struct Case: Codable, Sendable {
        /// A name for the case's line in the report (default: the golden's file name).
        public var name: String?
        /// The picture to render over.
        public var input: String?
        /// A scene to draw instead: a built-in scene's name, or a JSON scene file.
        public var scene: String?
        /// With `scene`: an overlay (`offscreen`, `blended`, `rasterized`, `misaligned`).
        public var show: String?
        /// With `scene`: the frame after the first.
        public var steady: Bool?
        /// The golden picture (written by `--update`).
        public var golden: String
        /// A built-in style name, or `custom` with `sigma`, `saturation`, `tint` ("r,g,b") and `tint-alpha`, and
        /// optionally `fallback-alpha` and `vibrancy-blend`: `backdrop render`'s options by the same names, read by
        /// the same code (``StyleChoice``).
        public var style: String?
        public var sigma: Double?
        public var saturation: Double?
        public var tint: String?
        public var tintAlpha: Double?
        public var fallbackAlpha: Double?
        public var vibrancyBlend: String?
        /// The frame, "x,y,w,h" (default: the whole picture).
        public var frame: String?
        /// Pixels per point (default: the device's, or 1).
        public var scale: Double?
        /// "fast" (default) or "exact".
        public var quality: String?
        /// "blur" (default, or the device's decision when `device` is given) or "tint-only".
        public var path: String?
        /// Render as this device would (its scale and blur decision).
        public var device: String?
        /// "system" (default) or "image-effects" (Apple's `UIImage+ImageEffects`, ``ImageEffectsPlan``), with its
        /// `mask` (a PNG of the frame's size).
        public var algorithm: String?
        public var mask: String?
        /// Vibrant content to draw over the effect, and where ("x,y"; default: the frame's corner).
        public var vibrancy: String?
        public var at: String?
        /// This case's tolerance (default: the manifest's).
        public var tolerance: Tolerance?

        /// The name shown in reports.
        public var displayName: String { name ?? (golden as NSString).lastPathComponent }

        /// The JSON keys: the CLI's option names without their dashes.
        enum CodingKeys: String, CodingKey, CaseIterable {
            case name, input, scene, show, steady, golden, style, sigma, saturation, tint, frame, scale, quality, path
            case device, vibrancy, at, algorithm, mask
            case tolerance
            case tintAlpha = "tint-alpha"
            case fallbackAlpha = "fallback-alpha"
            case vibrancyBlend = "vibrancy-blend"
        }
    }

    /// The tolerance of cases that do not give their own (default: identical).
    public var tolerance: Tolerance?
    /// The cases, in order.
    public var cases: [Case]

    /// The largest manifest read, bytes: thousands of cases fit in far less.
    public static let maximumBytes = 16 << 20

    /// Reads a manifest. Errors (`.badOption`) name the file and the problem.
    public static func read(_ path: String) throws(BackdropError) -> GoldenManifest {
        let data: Data
        do {
            data = Data(try InputFile.bytes(of: path, limit: maximumBytes, what: "the manifest"))
        } catch {
            throw BackdropError(.badOption, error.message)
        }
        let manifest: GoldenManifest
        do {
            manifest = try JSONDecoder().decode(GoldenManifest.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw BackdropError(
                .badOption,
                "\(path): a case has no '\(key.stringValue)' (at \(context.codingPath.map(\.stringValue).joined(separator: ".")))"
            )
        } catch DecodingError.dataCorrupted where (try? JSONSerialization.jsonObject(with: data)) == nil {
            throw BackdropError(.badOption, "\(path): not valid JSON (\(syntaxError(data)))")
        } catch {
            throw BackdropError(.badOption, "\(path): not a golden manifest (\(error))")
        }
        try checkKeys(data, path: path)
        try manifest.checkPaths(
            in: (path as NSString).deletingLastPathComponent.isEmpty
                ? "." : (path as NSString).deletingLastPathComponent, manifestPath: path)
        return manifest
    }

    /// Where `data` stops being JSON, "line 3, column 12: …".
    static func syntaxError(_ data: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data)
            return "unreadable"
        } catch {
            return JSONSyntax.describe(error, in: data)
        }
    }

    /// The keys a manifest, a case and a tolerance may have: any other is a typo that would be ignored silently.
    static let manifestKeys: Set<String> = ["tolerance", "cases"]
    static let caseKeys = Set(Case.CodingKeys.allCases.map(\.rawValue))

    /// An error naming the first unknown key (`cases[2].tolrance`).
    static func checkKeys(_ data: Data, path: String) throws(BackdropError) {
        func unknown(_ object: Any?, _ known: Set<String>, _ at: String) throws(BackdropError) {
            guard let dictionary = object as? [String: Any] else { return }
            if let key = dictionary.keys.sorted().first(where: { !known.contains($0) }) {
                throw BackdropError(
                    .badOption,
                    "\(path): unknown key '\(at)\(key)' (known: \(known.sorted().joined(separator: ", ")))")
            }
        }
        let root = try? JSONSerialization.jsonObject(with: data)
        try unknown(root, manifestKeys, "")
        let toleranceKeys = Set(Tolerance.CodingKeys.allCases.map(\.rawValue))
        try unknown((root as? [String: Any])?["tolerance"], toleranceKeys, "tolerance.")
        for (index, entry) in (((root as? [String: Any])?["cases"] as? [Any]) ?? []).enumerated() {
            try unknown(entry, caseKeys, "cases[\(index)].")
            try unknown((entry as? [String: Any])?["tolerance"], toleranceKeys, "cases[\(index)].tolerance.")
        }
    }

    /// Every case's files inside the manifest's folder (``path(_:in:field:)``), and no golden named by two cases:
    /// with --update they would be written twice, and with --jobs at once.
    func checkPaths(in folder: String, manifestPath: String) throws(BackdropError) {
        var goldens: [String: Int] = [:]
        for (index, testCase) in cases.enumerated() {
            do throws(BackdropError) {
                try testCase.checkKind()
                let golden = try Self.path(testCase.golden, in: folder, field: "golden")
                _ = try testCase.input.map { file throws(BackdropError) in
                    try Self.path(file, in: folder, field: "input")
                }
                _ = try testCase.mask.map { file throws(BackdropError) in
                    try Self.path(file, in: folder, field: "mask")
                }
                _ = try testCase.sceneFile.map { file throws(BackdropError) in
                    try Self.path(file, in: folder, field: "scene")
                }
                _ = try testCase.vibrancy.map { file throws(BackdropError) in
                    try Self.path(file, in: folder, field: "vibrancy")
                }
                if let earlier = goldens[golden] {
                    throw BackdropError(
                        .badOption, "golden '\(testCase.golden)' is also case \(earlier)'s: each case needs its own")
                }
                goldens[golden] = index
            } catch {
                throw BackdropError(.badOption, "\(manifestPath): case \(index): \(error.message)")
            }
        }
    }

    /// The file a case names as `field`, inside the manifest's `folder`: a relative path that stays in the folder,
    /// through `..` and through symbolic links. An absolute path, a `..` past the folder, or a link leading out of
    /// it is an error: `check --update` writes goldens, and must write nothing outside the folder it was pointed at.
    public static func path(_ path: String, in folder: String, field: String) throws(BackdropError) -> String {
        func escape(_ why: String) -> BackdropError {
            BackdropError(.badOption, "\(field) '\(path)' \(why): paths stay inside the manifest's folder")
        }
        guard !path.hasPrefix("/") else { throw escape("is absolute") }
        var parts: [Substring] = []
        for component in path.split(separator: "/") where component != "." {
            if component == ".." {
                guard !parts.isEmpty else { throw escape("leads out of the folder") }
                parts.removeLast()
            } else {
                parts.append(component)
            }
        }
        guard !parts.isEmpty else { throw escape("names no file") }
        let candidate = folder + "/" + parts.joined(separator: "/")
        guard FileLocation.lies(candidate, inside: folder) else {
            throw escape("leads out of the folder through a symbolic link")
        }
        return candidate
    }
}

extension GoldenManifest.Case {
    /// The scene the case names: a built-in one, or its file inside the manifest's `folder`.
    func loadScene(in folder: String) throws(BackdropError) -> Scene {
        try loadScene { path, field throws(BackdropError) in try GoldenManifest.path(path, in: folder, field: field) }
    }

    /// The scene the case names, its file's path given by `resolve` (path, field name).
    func loadScene(resolve: (String, String) throws(BackdropError) -> String) throws(BackdropError) -> Scene {
        guard let scene else { throw BackdropError(.badOption, "the case names no scene") }
        if let builtIn = BuiltInScenes.named(scene) { return builtIn }
        return try SceneParser.parse(fileAt: try resolve(scene, "scene"))
    }

    /// The scene file the case names, when `scene` is not a built-in scene's name.
    public var sceneFile: String? {
        scene.flatMap { BuiltInScenes.named($0) == nil ? $0 : nil }
    }

    /// Whether the case is one of the two kinds, whole: `input` and `style`, or `scene` and `device` without the
    /// options that only a picture takes.
    func checkKind() throws(BackdropError) {
        switch (input, scene) {
        case (nil, nil): throw BackdropError(.badOption, "give 'input' (with 'style') or 'scene' (with 'device')")
        case (.some, .some): throw BackdropError(.badOption, "give 'input' or 'scene', not both")
        case (.some, nil):
            guard style != nil else { throw BackdropError(.badOption, "a case with 'input' needs 'style'") }
            if show != nil || steady != nil { throw BackdropError(.badOption, "'show' and 'steady' go with 'scene'") }
        case (nil, .some):
            guard device != nil else { throw BackdropError(.badOption, "a case with 'scene' needs 'device'") }
            let pictureOnly: [(String, Bool)] = [
                ("style", style != nil), ("frame", frame != nil), ("scale", scale != nil),
                ("quality", quality != nil), ("vibrancy", vibrancy != nil), ("at", at != nil),
                ("sigma", sigma != nil), ("saturation", saturation != nil), ("tint", tint != nil),
                ("tint-alpha", tintAlpha != nil), ("fallback-alpha", fallbackAlpha != nil),
                ("vibrancy-blend", vibrancyBlend != nil), ("algorithm", algorithm != nil), ("mask", mask != nil),
            ]
            if let (key, _) = pictureOnly.first(where: \.1) {
                throw BackdropError(.badOption, "'\(key)' is for a picture, not a scene (the scene has its own)")
            }
        }
    }
}
