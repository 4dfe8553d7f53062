import Foundation

/// A list of golden-image cases: what to render, the golden picture it must match, and the tolerance.
/// Read from JSON; paths are relative to the manifest's folder. The format (README, "Golden manifests"):
///
/// ```json
/// { "tolerance": { "minimumPSNR": 50 },
///   "cases": [ { "name": "coffee-light", "input": "in/coffee.png", "golden": "golden/coffee-light.png",
///                "style": "light", "frame": "50,100,500,200", "scale": 1 } ] }
/// ```
public struct GoldenManifest: Codable, Sendable {
    /// One case. Every field but `input`, `golden` and `style` is optional.
    public struct Case: Codable, Sendable {
        /// A name for the case's line in the report (default: the golden's file name).
        public var name: String?
        /// The picture to render over.
        public var input: String
        /// The golden picture (written by `--update`).
        public var golden: String
        /// A built-in style name.
        public var style: String
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
        /// Vibrant content to draw over the effect, and where ("x,y"; default: the frame's corner).
        public var vibrancy: String?
        public var at: String?
        /// This case's tolerance (default: the manifest's).
        public var tolerance: Tolerance?

        /// The name shown in reports.
        public var displayName: String { name ?? (golden as NSString).lastPathComponent }
    }

    /// The tolerance of cases that do not give their own (default: identical).
    public var tolerance: Tolerance?
    /// The cases, in order.
    public var cases: [Case]

    /// Reads a manifest. Errors (`.badOption`) name the file and the problem.
    public static func read(_ path: String) throws(BackdropError) -> GoldenManifest {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BackdropError(.badOption, "\(path): cannot read the manifest")
        }
        do {
            return try JSONDecoder().decode(GoldenManifest.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw BackdropError(
                .badOption,
                "\(path): a case has no '\(key.stringValue)' (at \(context.codingPath.map(\.stringValue).joined(separator: ".")))"
            )
        } catch {
            throw BackdropError(.badOption, "\(path): not a golden manifest (\(error))")
        }
    }
}
