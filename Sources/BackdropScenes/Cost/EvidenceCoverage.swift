import Foundation

/// What the evidence behind the model covers, and the warnings a scene earns beyond it: the talk's tables (O5, O6)
/// are the only screens of many layers the model is checked against, so a scene whose shadows, layers or offscreen
/// pixels go far past theirs is an extrapolation, and its range (``PredictionInterval``) says less.
///
/// Contract: a warning for each figure of the scene over ``factor`` × the largest among the case-study rows'
/// scenes and frames (their shadow radius, their layers walked a frame, their offscreen pixels a frame), naming the
/// figure, the scene's value and the evidence's.
public enum EvidenceCoverage {
    /// How far past the case studies a figure may go before it is named.
    public static let factor = 2.0

    /// The largest figures of the case-study rows.
    public struct Envelope: Sendable, Equatable {
        /// Points.
        public let shadowRadius: Double
        public let layerInstances: Int
        public let offscreenPixels: Int

        package init(shadowRadius: Double, layerInstances: Int, offscreenPixels: Int) {
            self.shadowRadius = shadowRadius
            self.layerInstances = layerInstances
            self.offscreenPixels = offscreenPixels
        }
    }

    /// The case studies' envelope, as `computedEnvelope()` (BackdropCalibration) finds it from their scenes and
    /// planned frames, stored: a test computes it again and holds the stored values to it.
    public static let envelope = Envelope(shadowRadius: 4, layerInstances: 46, offscreenPixels: 320_143)

    /// The warnings for `scene`, whose priced frame has `passes`.
    public static func warnings(for scene: Scene, passes: [GPUPass]) -> [String] {
        let evidence = envelope
        var warnings: [String] = []
        let radius = largestShadowRadius(scene.layers)
        if radius > factor * evidence.shadowRadius {
            warnings.append(
                "a shadow radius of \(number(radius)) pt is far past the case studies' \(number(evidence.shadowRadius)) pt (O5): the range is an extrapolation"
            )
        }
        let layers = SceneWork(scene).layerInstances
        if Double(layers) > factor * Double(evidence.layerInstances) {
            warnings.append(
                "\(layers) layers a frame are far past the case studies' \(evidence.layerInstances) (O5, O6): the range is an extrapolation"
            )
        }
        let pixels = offscreenPixels(passes)
        if Double(pixels) > factor * Double(evidence.offscreenPixels) {
            warnings.append(
                "\(pixels) offscreen pixels a frame are far past the case studies' \(evidence.offscreenPixels) (O5, O6): the range is an extrapolation"
            )
        }
        return warnings
    }

    /// The widest shadow radius of `layers` and their sublayers, points.
    package static func largestShadowRadius(_ layers: [SceneLayer]) -> Double {
        layers.reduce(0) { max($0, $1.shadow?.radius ?? 0, largestShadowRadius($1.sublayers)) }
    }

    /// Pixels the offscreen passes of a frame write.
    package static func offscreenPixels(_ passes: [GPUPass]) -> Int {
        passes.filter { $0.target != .screen }.reduce(0) { $0 + $1.descriptor.pixelsWritten }
    }

    static func number(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(format: "%.1f", value)
    }
}
