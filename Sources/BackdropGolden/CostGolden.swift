import BackdropImageIO
import BackdropScenes
import Foundation

/// A cost golden: a scene's predicted frame on each device as `backdrop check --update` recorded it — the frame's
/// ms and frame rate, its range, and every pass with its ms — with the versions of the figures it was priced with,
/// so that a later change is told as a change of the cost model, of a device's figures, or of the scene.
///
/// The file is JSON with sorted keys (deterministic: the same scene and model give the same bytes):
///
/// ```json
/// { "format": "backdrop cost golden", "formatVersion": 1, "scene": "feed",
///   "devices": [ { "device": "iphone-5", "model": "5f0c…", "figures": "9a1e…", "ms": 21.7, "fps": 46.1,
///                  "msRange": [17.4, 27.1], "passes": [ { "name": "horizontal blur", "layer": "nav bar",
///                  "target": "offscreen", "ms": 2.1 } ] } ] }
/// ```
public struct CostGolden: Codable, Sendable, Equatable {
    /// The `format` every cost golden has: a file without it is not one.
    public static let formatName = "backdrop cost golden"
    /// The form's version: a change a reader of an older one would misread increments it.
    public static let currentFormatVersion = 1
    /// The largest cost golden read, bytes: a frame has at most a few thousand passes.
    public static let maximumBytes = 16 << 20

    /// One pass of a recorded frame.
    public struct Pass: Codable, Sendable, Equatable {
        /// The pass's name ("horizontal blur") and the scene layer it draws.
        public var name: String
        public var layer: String
        /// "screen" or "offscreen".
        public var target: String
        public var ms: Double
    }

    /// The frame on one device.
    public struct Entry: Codable, Sendable, Equatable {
        /// The device's id (`backdrop devices`).
        public var device: String
        /// ``CostGolden/modelVersion`` and ``CostGolden/figuresVersion(of:)`` when it was recorded.
        public var model: String
        public var figures: String
        /// The frame's time and rate (the central prediction), and the time's range.
        public var ms: Double
        public var fps: Double
        public var msRange: [Double]
        /// Its passes in the order the GPU runs them.
        public var passes: [Pass]
    }

    public var format: String
    public var formatVersion: Int
    /// The scene as the case names it (a built-in name, a file, or "style NAME").
    public var scene: String
    public var devices: [Entry]

    /// A golden of `devices` for `scene`.
    public init(scene: String, devices: [Entry]) {
        format = Self.formatName
        formatVersion = Self.currentFormatVersion
        self.scene = scene
        self.devices = devices
    }

    /// The entry of the device `id`, or nil.
    public func entry(for id: String) -> Entry? { devices.first { $0.device == id } }

    /// The golden in the file at `path`: one-line errors for a file that cannot be read and for one that is not a
    /// cost golden (other JSON, another format version, numbers that are not finite).
    public static func read(_ path: String) throws(BackdropError) -> CostGolden {
        let bytes = try InputFile.bytes(of: path, limit: maximumBytes, what: "the cost golden", recorded: false)
        let golden: CostGolden
        do {
            golden = try JSONDecoder().decode(CostGolden.self, from: Data(bytes))
        } catch {
            throw BackdropError(.badOption, "not a cost golden (\(Self.decodingProblem(error)))")
        }
        guard golden.format == formatName else {
            throw BackdropError(.badOption, "not a cost golden (its format is '\(golden.format)')")
        }
        guard golden.formatVersion == currentFormatVersion else {
            throw BackdropError(
                .badOption,
                "not a cost golden this backdrop reads (format version \(golden.formatVersion), it reads \(currentFormatVersion))"
            )
        }
        for entry in golden.devices {
            let numbers = [entry.ms, entry.fps] + entry.msRange + entry.passes.map(\.ms)
            guard numbers.allSatisfy({ $0.isFinite && $0 >= 0 }), entry.msRange.count == 2 else {
                throw BackdropError(.badOption, "not a cost golden (device '\(entry.device)' has a bad figure)")
            }
        }
        return golden
    }

    static func decodingProblem(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "no '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type"
        case DecodingError.dataCorrupted: return "not JSON"
        default: return "\(error)"
        }
    }

    /// The golden as its file holds it: sorted keys, two-space indents, a final newline.
    public func json() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data()) + [0x0A]
    }

    /// The cost model's version: a digest (FNV-1a, 64 bits) of ``CostModel/fitted``'s coefficients and the stored
    /// prediction interval. Any refit changes it.
    public static let modelVersion: String = digest(
        of: ModelFigures(model: CostModel.fitted, interval: PredictionInterval.stored))

    /// What ``modelVersion`` digests.
    private struct ModelFigures: Encodable {
        let model: CostModel
        let interval: PredictionInterval
    }

    /// The version of `device`'s figures (clock, units, bandwidth, screen, …): a digest of its stored form.
    public static func figuresVersion(of device: Device) -> String { digest(of: device) }

    static func digest(of value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let hash = FNV1a.hash(Array((try? encoder.encode(value)) ?? Data()))
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The entry for `frame`, priced on `device` now.
    public static func entry(_ frame: FrameTimeline, device: Device) -> Entry {
        Entry(
            device: device.id, model: modelVersion, figures: figuresVersion(of: device), ms: rounded(frame.totalMs),
            fps: rounded(frame.fps), msRange: frame.ranges().totalMs.map(rounded),
            passes: frame.passes.map {
                Pass(
                    name: $0.pass.name, layer: $0.gpuPass.layer, target: $0.isOffscreen ? "offscreen" : "screen",
                    ms: rounded($0.ms))
            })
    }

    /// Figures kept to 10⁻⁶ ms: the file reads the same on every machine, and a nanosecond is no change.
    public static func rounded(_ value: Double) -> Double { (value * 1e6).rounded() / 1e6 }
}

extension CostGolden.Entry {
    /// What moved between `self` (before) and `after`, pass by pass: the passes grouped by layer and name, each
    /// group whose total ms changed by more than 0.005 ms as "thumbnail shadow (thumbnail) 0.15 → 2.94 ms", with
    /// its count when that changed ("×6 → ×12"), largest change first (ties in the order of `after`, then of
    /// `self`); at most `limit`, then "N more".
    public func movedPasses(to after: CostGolden.Entry, limit: Int = 5) -> [String] {
        struct Group {
            var name: String, layer: String
            var beforeMs = 0.0, afterMs = 0.0, beforeCount = 0, afterCount = 0
        }
        var groups: [Group] = []
        var index: [String: Int] = [:]
        func add(_ pass: CostGolden.Pass, after: Bool) {
            let key = pass.layer + "\u{0}" + pass.name
            if index[key] == nil {
                index[key] = groups.count
                groups.append(Group(name: pass.name, layer: pass.layer))
            }
            if after {
                groups[index[key]!].afterMs += pass.ms
                groups[index[key]!].afterCount += 1
            } else {
                groups[index[key]!].beforeMs += pass.ms
                groups[index[key]!].beforeCount += 1
            }
        }
        for pass in after.passes { add(pass, after: true) }
        for pass in passes { add(pass, after: false) }
        let moved = groups.enumerated().filter { abs($0.element.afterMs - $0.element.beforeMs) > 0.005 }
            .sorted {
                let a = abs($0.element.afterMs - $0.element.beforeMs), b = abs($1.element.afterMs - $1.element.beforeMs)
                return a != b ? a > b : $0.offset < $1.offset
            }
            .map(\.element)
        var words = moved.prefix(limit).map { group in
            let counts =
                group.beforeCount == group.afterCount ? "" : " (×\(group.beforeCount) → ×\(group.afterCount))"
            return String(
                format: "%@ (%@)%@ %.2f → %.2f ms", group.name, group.layer, counts, group.beforeMs, group.afterMs)
        }
        if moved.count > limit { words.append("\(moved.count - limit) more") }
        return words
    }

    /// Whether the passes are the same ones (names, layers and targets, in order), whatever their ms.
    public func samePasses(as other: CostGolden.Entry) -> Bool {
        passes.map { [$0.name, $0.layer, $0.target] } == other.passes.map { [$0.name, $0.layer, $0.target] }
    }

    /// What moved, in words, when the frame time changed: the cost model (its version differs), the device's
    /// figures, the scene (its passes differ), or several of them.
    public func cause(to after: CostGolden.Entry) -> String {
        var causes: [String] = []
        if model != after.model { causes.append("the cost model changed (version \(model) → \(after.model))") }
        if figures != after.figures { causes.append("the device's figures changed") }
        if !samePasses(as: after) { causes.append("the scene changed (its passes differ)") }
        if causes.isEmpty {
            // Same model, figures and passes: the passes' sizes or contents moved.
            causes.append("the scene changed (same passes, other sizes), the model did not")
        }
        return causes.joined(separator: "; ")
    }
}
