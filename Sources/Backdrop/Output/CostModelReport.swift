import Foundation

/// The cost model described, as `backdrop estimate --model` prints it and `Reports/cost-model.txt` keeps it:
/// its coefficients with what fixed each, the figures it was fitted to, the held-out checks and their errors.
public enum CostModelReport {
    /// The whole description.
    public static func text(_ model: CostModel) -> String {
        func f(_ format: String, _ values: CVarArg...) -> String { String(format: format, arguments: values) }
        var lines = [
            "Backdrop's GPU cost model (docs/cost-model.md). Two stages: the tiler bins each render ahead of the",
            "renderer, except a render that samples the one before it, which waits for it. Per pass on the renderer:",
            "max(fill, ALU, memory) + a fixed cost per draw; leaving the framebuffer stores it and returning loads it.",
            "Every figure below is computed by the model now; nothing is copied from a run.", "",
        ]
        lines.append(
            TextTable(
                header: ["", "coefficient", "value", "fixed by"],
                rows: [
                    [
                        "β", "fill slots a blended pixel costs beyond an opaque one",
                        f("%.3f", model.blendedPixelFillCost), "fitted: B1−B2, V5, O5",
                    ],
                    [
                        "c", "operations per pixel of the upscale-and-tint pass", f("%.1f", model.colorOpsPerPixel),
                        "fitted: B1, B2, V5",
                    ],
                    [
                        "v", "operations per pixel of the vibrancy filter", f("%.1f", model.vibrancyFilterOpsPerPixel),
                        "fitted: V4, V5",
                    ],
                    ["d", "renderer clocks per draw", f("%.0f", model.clocksPerDraw), "fitted: O5, O6"],
                    ["k", "tiler clocks per draw", f("%.0f", model.tilerClocksPerDraw), "fitted: F3, V2, O5, O6"],
                    [
                        "w", "wait before a render that samples the last one, ms", f("%.3f", model.dependencyWaitMs),
                        "fitted: F3, V2, O5, O6",
                    ],
                    [
                        "e", "share of peak memory bandwidth", f("%.2f", model.bandwidthEfficiency),
                        "fixed: typical of LPDDR2/3",
                    ],
                ]
            ).rendered)
        let figures = ModelFigure.all(for: model)
        let misses = figures.filter { !$0.inRange }
        lines += [
            "",
            "Every figure, measured (its range) against predicted; error from the figure, or from the range's nearest",
            "edge (0 inside it). A ratio between devices is predicted as the span of the model's fill and ALU ratios.",
            "\(figures.count) figures, \(misses.count) outside their range: "
                + (misses.isEmpty ? "none" : misses.map { "\($0.id) \($0.device)" }.joined(separator: ", ")) + ".",
            "",
        ]
        lines.append(
            TextTable(
                header: ["id", "device", "figure", "measured", "predicted", "error", "use", "source", "in range"],
                rows: figures.map { figure in
                    [
                        figure.id, figure.device, figure.what, measuredText(figure), predictedText(figure),
                        f("%+.1f %%", figure.errorPercent), figure.use.rawValue, figure.source,
                        figure.inRange ? "yes" : "NO",
                    ]
                }
            ).rendered)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The coefficients and every figure as JSON: `{"coefficients": {…}, "figures": [ModelFigure…]}`.
    public static func json(_ model: CostModel) throws -> String {
        struct Report: Encodable {
            let coefficients: CostModel
            let figures: [ModelFigure]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let data = try encoder.encode(Report(coefficients: model, figures: ModelFigure.all(for: model)))
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The measured value or range in the report's words ("18.15 ms", "30–40 fps", "≥ 2.5 fills").
    static func measuredText(_ figure: ModelFigure) -> String {
        if let measured = figure.measured { return String(format: "%.4g %@", measured, figure.unit) }
        if figure.high == .infinity { return String(format: "≥ %.4g %@", figure.low, figure.unit) }
        let whole = figure.low.rounded() == figure.low && figure.high.rounded() == figure.high
        return whole
            ? "\(rangeText(figure.low...figure.high)) \(figure.unit)"
            : String(format: "%.3g–%.3g %@", figure.low, figure.high, figure.unit)
    }

    /// The prediction, or the model's span for a ratio ("1.99–2.00 ×").
    static func predictedText(_ figure: ModelFigure) -> String {
        if let high = figure.predictedHigh, high != figure.predicted {
            return String(format: "%.3g–%.3g %@", figure.predicted, high, figure.unit)
        }
        return String(format: "%.4g %@", figure.predicted, figure.unit)
    }

    /// "30–40", "60" or "< 60": a range of the talk's words as the reports write it.
    public static func rangeText(_ range: ClosedRange<Double>) -> String {
        if range == CaseStudy.belowSixty { return "< 60" }
        return range.lowerBound == range.upperBound
            ? String(format: "%.0f", range.lowerBound)
            : String(format: "%.0f–%.0f", range.lowerBound, range.upperBound)
    }
}
