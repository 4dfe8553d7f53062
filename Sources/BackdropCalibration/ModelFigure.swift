import BackdropScenes
import Foundation

/// One published measurement set beside the cost model's prediction of it: every figure `backdrop estimate --model`
/// reports (text, JSON and SVG are views of this one list, ``all(for:)``), whether the fit used it or not.
///
/// A figure is a range (the talk's words turned into numbers, or a measurement with its tolerance); the error is
/// the prediction's distance from the figure itself where there is one (B1's 18.15 ms), otherwise from the
/// range's nearest edge (0 inside). A relative figure between two devices (a benchmark's ratio of frame rates) is
/// compared with the span the model allows between them (``DeviceEvidence/Ratio/modelSpan``): a fill test with the
/// fill-rate ratio, a scene with the least to the greatest of its fill, ALU and bus ratios (`predictedHigh`).
public struct ModelFigure: Sendable, Encodable, Equatable {
    /// How the figure relates to the fit.
    public enum Use: String, Sendable, Encodable {
        /// The fit minimised its error.
        case fitted
        /// Never seen by the fit: a check.
        case heldOut = "held out"
        /// Our reading of an ambiguous figure (V3), reported, not fitted.
        case reading
    }

    /// The seed id, or the check's name ("fill", "ratio").
    public let id: String
    /// What was measured, in a few words.
    public let what: String
    /// The device (for a ratio, "a / b").
    public let device: String
    /// "ms", "fps", "%", "Mtexels/s", "fills", "×".
    public let unit: String
    /// The figure itself, where the source gives one number (nil for a range of words).
    public let measured: Double?
    /// The range a prediction must land in.
    public let low: Double
    public let high: Double
    /// The prediction, and for a relative figure the upper end of the model's span (nil otherwise).
    public let predicted: Double
    public let predictedHigh: Double?
    public let use: Use
    /// Where the measurement comes from: a seed id, or a source id of `devices.md` or `docs/device-evidence.md`.
    public let source: String

    /// Whether the prediction (any of its span) lies in the range.
    public var inRange: Bool { (predictedHigh ?? predicted) >= low && predicted <= high }

    /// The error in percent: from the figure when there is one, else from the range's nearest edge; for a span,
    /// from its nearest end.
    public var errorPercent: Double {
        if let predictedHigh, let measured {
            if measured < predicted { return (predicted - measured) / measured * 100 }
            if measured > predictedHigh { return (predictedHigh - measured) / measured * 100 }
            return 0
        }
        if let measured { return (predicted - measured) / measured * 100 }
        if predicted < low { return (predicted - low) / low * 100 }
        if predicted > high { return (predicted - high) / high * 100 }
        return 0
    }

    enum CodingKeys: String, CodingKey {
        case id, what, device, unit, measured, low, high, predicted, predictedHigh, use, source, inRange,
            errorPercent
    }

    /// Writes the figure with `inRange` and `errorPercent`, so that a reader of the JSON needs no rule of ours.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(what, forKey: .what)
        try container.encode(device, forKey: .device)
        try container.encode(unit, forKey: .unit)
        try container.encodeIfPresent(measured, forKey: .measured)
        try container.encode(low, forKey: .low)
        try container.encode(high, forKey: .high)
        try container.encode(predicted, forKey: .predicted)
        try container.encodeIfPresent(predictedHigh, forKey: .predictedHigh)
        try container.encode(use, forKey: .use)
        try container.encode(source, forKey: .source)
        try container.encode(inRange, forKey: .inRange)
        try container.encode(errorPercent, forKey: .errorPercent)
    }

    init(
        _ id: String, _ what: String, device: String, unit: String, measured: Double?, low: Double, high: Double,
        predicted: Double, predictedHigh: Double? = nil, use: Use, source: String
    ) {
        self.id = id
        self.what = what
        self.device = device
        self.unit = unit
        self.measured = measured
        self.low = low
        self.high = high
        self.predicted = predicted
        self.predictedHigh = predictedHigh
        self.use = use
        self.source = source
    }
}

extension ModelFigure {
    /// Every figure, in the report's order: the blur and vibrancy figures, F3 and V2's idle, every row of the
    /// case-study table (fps and GPU % apart: the 23 figures of `scenes.md`), the measured fill rates, the
    /// relative figures between devices, the GFXBench Manhattan figures of the devices from 2014 (each fitted one
    /// with its generation's efficiency computed without it, each capped one as a lower bound;
    /// ``DeviceEvidence/manhattanChecks()``), O4 on every device and the tint-only fallback.
    public static func all(for model: CostModel) -> [ModelFigure] {
        let estimator = Estimator(model: model)
        var figures: [ModelFigure] = []
        for seed in SeedFigure.all + [SeedFigure.v3Reading] {
            figures.append(
                ModelFigure(
                    seed.id,
                    "\(seed.style.name)\(seed.vibrancy ? " + vibrancy" : ""), full screen, \(seed.path.rawValue)",
                    device: seed.deviceID, unit: "ms", measured: seed.ms, low: seed.accepted.lowerBound,
                    high: seed.accepted.upperBound, predicted: seed.predictedMs(by: model),
                    use: seed.usedInFit ? .fitted : .reading, source: seed.id))
        }
        for figure in IdleFigure.all {
            let idle = model.frame(of: figure.passes, on: figure.device).gapsMs
            figures.append(
                ModelFigure(
                    figure.id, "idle between the \(figure.vibrancy ? "vibrancy" : "blur") passes, light, full screen",
                    device: figure.deviceID, unit: "ms", measured: nil, low: figure.range.lowerBound,
                    high: figure.range.upperBound, predicted: idle, use: .fitted, source: figure.id))
        }
        for row in CaseStudy.all {
            let frame = row.frame(by: model)
            let use: Use = row.usedInFit ? .fitted : .heldOut
            figures.append(
                ModelFigure(
                    row.id, "\(row.sceneName) fps", device: row.deviceID, unit: "fps", measured: nil,
                    low: row.fps.lowerBound, high: row.fps.upperBound, predicted: frame.fps, use: use, source: row.id))
            if let gpu = row.gpuPercent {
                figures.append(
                    ModelFigure(
                        row.id, "\(row.sceneName) GPU", device: row.deviceID, unit: "%", measured: nil,
                        low: gpu.lowerBound, high: gpu.upperBound, predicted: frame.gpuPercent, use: use,
                        source: row.id))
            }
        }
        for evidence in DeviceEvidence.fillRates {
            let device = Device.named(evidence.deviceID)!
            figures.append(
                ModelFigure(
                    "fill", "single-texture fill rate (\(evidence.benchmark))", device: device.id, unit: "Mtexels/s",
                    measured: evidence.value, low: evidence.value * 0.85, high: evidence.value * 1.15,
                    predicted: device.fillRateMTexelsPerSecond, use: .heldOut, source: evidence.source))
        }
        for evidence in DeviceEvidence.ratios {
            let (low, high) = evidence.modelSpan
            figures.append(
                ModelFigure(
                    "ratio", evidence.benchmark, device: "\(evidence.fasterID) / \(evidence.slowerID)", unit: "×",
                    measured: evidence.value, low: evidence.value * 0.85, high: evidence.value * 1.15,
                    predicted: low, predictedHigh: low == high ? nil : high,
                    use: .heldOut, source: evidence.source))
        }
        for check in DeviceEvidence.manhattanChecks() {
            let figure = check.figure
            let what =
                "GFXBench 5.0 Manhattan on screen, \(Int(figure.fps)) fps at \(figure.width)×\(figure.height)"
                + (check.lowerBound ? ", at the refresh: a lower bound" : ", held out")
            figures.append(
                ModelFigure(
                    "manhattan", what, device: "\(figure.deviceID) / \(check.anchorID)", unit: "×",
                    measured: check.lowerBound ? nil : check.measuredRatio,
                    low: check.lowerBound ? check.measuredRatio : check.measuredRatio * 0.85,
                    high: check.lowerBound ? .infinity : check.measuredRatio * 1.15,
                    predicted: check.predictedRatio, use: .heldOut, source: "DG"))
        }
        for device in Device.all {
            figures.append(
                ModelFigure(
                    "O4", "plain full-screen image: fills per frame", device: device.id, unit: "fills",
                    measured: nil, low: 2.5, high: .infinity,
                    predicted: ModelChecks.fillsPerFrame(on: device, estimator: estimator), use: .heldOut,
                    source: "O4"))
        }
        for device in ModelChecks.fallbackDevices {
            figures.append(
                ModelFigure(
                    "B4", "tint-only fallback, light, full screen", device: device.id, unit: "fps", measured: nil,
                    low: 60, high: 60, predicted: ModelChecks.fallback(on: device, estimator: estimator).fps,
                    use: .heldOut, source: "B4"))
        }
        return figures
    }
}
