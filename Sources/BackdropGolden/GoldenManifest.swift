import BackdropImageIO
import BackdropScenes
import Foundation

/// A list of golden-image cases: what to render, the golden picture it must match, and the tolerance.
/// Read from JSON; paths are relative to the manifest's folder. The format (docs/golden-testing.md, "Golden
/// manifests"):
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
/// render --scene`, with `show`, `steady` and `path`). A budget or cost case (`budget`, `costGolden`; no `golden`)
/// renders nothing: it prices its `scene` (or a full-screen `style`) on each of its devices
/// (``GoldenCheck/DeviceCost``, ``CostGolden``).
///
/// `"root"` names the folder the cases' inputs (`input`, `vibrancy`, `mask`, a scene file) are read from, relative
/// to the manifest's folder (`..` allowed; an absolute path as it is); `backdrop check --root DIR` overrides it.
/// Inputs stay inside that root by the same rules as goldens inside the manifest's folder; goldens are always
/// under the manifest's folder, whatever the root.
public struct GoldenManifest: Codable, Sendable {
    /// One case: `golden`, and what to draw — `input` with `style`, or `scene` with `device` — as a
    /// ``RenderRequest``, whose keys are `backdrop render`'s options without their dashes (`frame`, `tint-alpha`,
    /// `vibrancy`, `show`, …), its files relative to the manifest's folder. `"quality": "exact"` is also read as
    /// `"exact": true`.
    public struct Case: Codable, Sendable {
        /// A name for the case's line in the report (default: the golden's file name).
        public var name: String?
        /// The golden picture (written by `--update`); nil in a budget or cost case.
        public var golden: String?
        /// The frame budget the case's scene must meet on each of its devices (``Budget``).
        public var budget: Budget?
        /// The cost golden (``CostGolden``) recording the scene's predicted frame on each of its devices.
        public var costGolden: String?
        /// How far, per cent, a device's frame time may move from the cost golden's (default 5).
        public var costTolerance: Double?
        /// The devices a cost golden records (or `device`, one).
        public var devices: [String]?
        /// This case's tolerance (default: the manifest's).
        public var tolerance: Tolerance?
        /// What the case draws.
        public var request: RenderRequest
        /// The folder the case's inputs are read from, as ``GoldenManifest/read(_:root:)`` resolved it; nil: the
        /// manifest's folder. Not part of the JSON.
        public var inputFolder: String? = nil

        /// The name shown in reports.
        public var displayName: String {
            name ?? ((golden ?? costGolden).map(PathComponents.lastComponent(of:)) ?? costSubject)
        }

        /// The case's own keys; the request's are ``RenderRequest/CodingKeys``.
        enum CodingKeys: String, CodingKey, CaseIterable {
            case name, golden, tolerance, quality, budget, costGolden, costTolerance, devices
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decodeIfPresent(String.self, forKey: .name)
            golden = try container.decodeIfPresent(String.self, forKey: .golden)
            budget = try container.decodeIfPresent(Budget.self, forKey: .budget)
            costGolden = try container.decodeIfPresent(String.self, forKey: .costGolden)
            costTolerance = try container.decodeIfPresent(Double.self, forKey: .costTolerance)
            devices = try container.decodeIfPresent([String].self, forKey: .devices)
            tolerance = try container.decodeIfPresent(Tolerance.self, forKey: .tolerance)
            request = try RenderRequest(from: decoder)
            switch try container.decodeIfPresent(String.self, forKey: .quality) {
            case nil, "fast": break
            case "exact": request.exact = true
            case let other?:
                throw DecodingError.dataCorruptedError(
                    forKey: .quality, in: container, debugDescription: "unknown quality '\(other)'")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            try request.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(name, forKey: .name)
            try container.encodeIfPresent(golden, forKey: .golden)
            try container.encodeIfPresent(budget, forKey: .budget)
            try container.encodeIfPresent(costGolden, forKey: .costGolden)
            try container.encodeIfPresent(costTolerance, forKey: .costTolerance)
            try container.encodeIfPresent(devices, forKey: .devices)
            try container.encodeIfPresent(tolerance, forKey: .tolerance)
        }
    }

    /// The tolerance of cases that do not give their own (default: identical).
    public var tolerance: Tolerance?
    /// The folder inputs are read from, relative to the manifest's folder (default: the manifest's folder).
    public var root: String?
    /// The cases, in order.
    public var cases: [Case]
    /// ``GoldenSummary/Suite/digest(_:)`` of the bytes ``read(_:root:)`` read: a summary records it, so that the
    /// manifest is read once (`-`, standard input, can be read only once).
    public private(set) var digest = ""

    enum CodingKeys: String, CodingKey {
        case tolerance, root, cases
    }

    /// The largest manifest read, bytes: thousands of cases fit in far less.
    public static let maximumBytes = 16 << 20

    /// Reads a manifest. `root` (relative to the working directory) replaces the manifest's `"root"` key; a root
    /// that is not a folder is an error. Errors (`.badOption`) name the file and the problem.
    public static func read(_ path: String, root: String? = nil) throws(BackdropError) -> GoldenManifest {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.bytes(of: path, limit: maximumBytes, what: "the manifest")
        } catch {
            throw BackdropError(.badOption, error.message)
        }
        let data = Data(bytes)
        var manifest: GoldenManifest
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
        let named = PathComponents.folder(of: path)
        let folder = named.isEmpty ? "." : named
        if let inputs = try inputRoot(option: root, key: manifest.root, manifestFolder: folder, manifestPath: path) {
            for index in manifest.cases.indices { manifest.cases[index].inputFolder = inputs }
        }
        try manifest.checkPaths(in: folder, manifestPath: path)
        manifest.digest = GoldenSummary.Suite.digest(bytes)
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
    static let manifestKeys: Set<String> = ["tolerance", "cases", "root"]
    static let caseKeys = Set(
        Case.CodingKeys.allCases.map(\.rawValue) + RenderRequest.CodingKeys.allCases.map(\.rawValue))

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
            try unknown(
                (entry as? [String: Any])?["budget"], Set(Budget.CodingKeys.allCases.map(\.rawValue)),
                "cases[\(index)].budget.")
        }
    }

    /// Every case's files inside the manifest's folder (``path(_:in:field:)``), and no golden named by two cases,
    /// however the paths reach it (through symbolic links, compared where they lead): with --update it would be
    /// written twice, and with --jobs at once.
    func checkPaths(in folder: String, manifestPath: String) throws(BackdropError) {
        var goldens: [String: Int] = [:]
        for (index, testCase) in cases.enumerated() {
            do throws(BackdropError) {
                let golden: String?
                if testCase.isCostCase {
                    try testCase.checkCost()
                    golden = try testCase.costGolden.map { name throws(BackdropError) in
                        let path = try Self.path(name, in: folder, field: "costGolden")
                        if FileManager.default.fileExists(atPath: path) {
                            do throws(BackdropError) {
                                _ = try CostGolden.read(path)
                            } catch {
                                throw BackdropError(.badOption, "costGolden '\(name)': \(error.message)")
                            }
                        }
                        return path
                    }
                } else {
                    try testCase.checkKind()
                    guard let name = testCase.golden else {
                        throw BackdropError(
                            .badOption, "a case has no 'golden' (or 'budget' or 'costGolden' for a scene's frame)")
                    }
                    golden = try Self.path(name, in: folder, field: "golden")
                }
                let request = testCase.request
                for (file, key) in [(request.input, "input"), (request.mask, "mask"), (testCase.sceneFile, "scene")]
                    + [(request.vibrancy, "vibrancy")]
                {
                    _ = try file.map { file throws(BackdropError) in
                        try Self.path(
                            file, in: testCase.inputFolder ?? folder, field: key, within: testCase.inputFolderName)
                    }
                }
                guard let golden else { continue }
                let file = FileLocation.resolved(golden) ?? golden
                if let earlier = goldens[file] {
                    throw BackdropError(
                        .badOption,
                        "golden '\(testCase.golden ?? testCase.costGolden ?? "")' is also case \(earlier)'s: each case needs its own"
                    )
                }
                goldens[file] = index
            } catch {
                throw BackdropError(.badOption, "\(manifestPath): case \(index): \(error.message)")
            }
        }
    }

    /// The file a case names as `field`, inside the manifest's `folder`: a relative path that stays in the folder,
    /// through `..` and through symbolic links. An absolute path, a `..` past the folder, or a link leading out of
    /// it is an error: `check --update` writes goldens, and must write nothing outside the folder it was pointed at.
    /// `within` names the folder in errors.
    public static func path(
        _ path: String, in folder: String, field: String, within: String = "the manifest's folder"
    ) throws(BackdropError) -> String {
        func escape(_ why: String) -> BackdropError {
            BackdropError(.badOption, "\(field) '\(path)' \(why): paths stay inside \(within)")
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
    /// How the case reads its files: inside its ``inputFolder``, or the manifest's `folder` without one
    /// (``GoldenManifest/path(_:in:field:within:)``).
    func inputFiles(manifestFolder folder: String) -> RequestFiles {
        let (inputs, within) = (inputFolder ?? folder, inputFolderName)
        return RequestFiles(
            picture: { file, key throws(BackdropError) in
                try ImageDecoder().decodeFile(
                    try GoldenManifest.path(file, in: inputs, field: key.rawValue, within: within))
            },
            scene: { name throws(BackdropError) in
                if let builtIn = BuiltInScenes.named(name) { return builtIn }
                return try SceneParser.parse(
                    fileAt: try GoldenManifest.path(name, in: inputs, field: "scene", within: within))
            },
            keptInput: { file throws(BackdropError) in
                try ImageDecoder().decodeFile(
                    try GoldenManifest.path(file, in: inputs, field: "input", within: within), choice: .keep)
            })
    }

    /// The folder inputs stay inside, as errors name it.
    var inputFolderName: String { inputFolder.map { "the input root \($0)" } ?? "the manifest's folder" }

    /// The scene file the case names, when `scene` is not a built-in scene's name.
    public var sceneFile: String? {
        request.scene.flatMap { BuiltInScenes.named($0) == nil ? $0 : nil }
    }

    /// Whether the case is whole: `input` and `style`, or `scene` (with `device`), without the fields its kind
    /// does not take (``RenderRequest/checkKind(spelling:)``); its values are read when it runs.
    func checkKind() throws(BackdropError) {
        if request.input == nil, request.scene == nil {
            throw BackdropError(.badOption, "give 'input' (with 'style') or 'scene' (with 'device')")
        }
        if request.scene == nil, request.style == nil {
            throw BackdropError(.badOption, "a case with 'input' needs 'style'")
        }
        _ = try request.checkKind(spelling: .key)
    }
}

extension GoldenManifest {
    /// The folder inputs are read from: `option` (`check --root`, relative to the working directory), else `key`
    /// (the manifest's `"root"`, relative to its folder), else nil (the manifest's folder). It must be a folder.
    static func inputRoot(
        option: String?, key: String?, manifestFolder: String, manifestPath: String
    ) throws(BackdropError) -> String? {
        let given: (path: String, spelling: String)
        if let option {
            given = (option, "--root \(option)")
        } else if let key {
            given = (key.hasPrefix("/") ? key : manifestFolder + "/" + key, "\(manifestPath): root '\(key)'")
        } else {
            return nil
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: given.path, isDirectory: &isDirectory) else {
            throw BackdropError(.badOption, "\(given.spelling): no such folder")
        }
        guard isDirectory.boolValue else { throw BackdropError(.badOption, "\(given.spelling): is not a folder") }
        return given.path
    }
}
