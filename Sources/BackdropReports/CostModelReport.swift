import BackdropCalibration
import BackdropImageIO
import BackdropScenes
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
                        "s", "idle at any switch of render target, ms", f("%.3f", model.switchMs),
                        "fitted: F3, V2 (six gaps), O6",
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
            "edge (0 inside it). A ratio between devices is predicted as the span of the model's ratios of what it prices:",
            "fill alone for a fill test; fill, ALU and bus for a scene.",
            "\(Plural.count(figures.count, "figure")), \(misses.count) outside their range: "
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
        lines += [""] + floorsText(model) + maskRowsBoundText(.o6, bandwidthShare: model.bandwidthEfficiency)
        lines += [""] + intervalText(PredictionInterval.compute())
        return lines.joined(separator: "\n") + "\n"
    }

    /// The prediction interval and how many held-out figures it covers, in the report's words.
    static func intervalText(_ computed: (interval: PredictionInterval, errors: [PredictionInterval.HeldOutError]))
        -> [String]
    {
        let (interval, errors) = computed
        let covered = errors.filter(\.covered).count
        var lines = [
            String(
                format:
                    "Ranges (PredictionInterval, docs/cost-model.md): every predicted frame time × %.3f to × %.3f, claimed to "
                    + "cover %.0f %%",
                exp(interval.lowLog), exp(interval.highLog), PredictionInterval.coverage * 100),
            String(
                format:
                    "of the figures the model is checked against; held out one at a time, %d of %d figures lie inside the "
                    + "range of the others (%.0f %%):",
                covered, errors.count, Double(covered) / Double(max(errors.count, 1)) * 100),
            "",
        ]
        lines.append(
            TextTable(
                header: ["id", "device", "figure", "measured ÷ predicted, held out", "inside"],
                rows: errors.map {
                    [$0.id, $0.device, $0.what, String(format: "%.3f", exp($0.logError)), $0.covered ? "yes" : "NO"]
                }
            ).rendered)
        if interval != .stored {
            lines.append("")
            lines.append(
                "The stored interval (PredictionInterval.stored) differs: the ranges printed elsewhere use it.")
        }
        return lines
    }

    /// The case-study rows out of reach of every fit (``CaseStudy/outOfReach(bandwidthShare:)``), in the report's
    /// words.
    static func floorsText(_ model: CostModel) -> [String] {
        let e = model.bandwidthEfficiency
        let rows = CaseStudy.all.filter { $0.outOfReach(bandwidthShare: e) }
        var lines = [
            "Rows no choice of coefficients reaches: their passes alone — fetches at the peak texel rate, bytes at "
                + String(format: "e = %.2f,", e),
            "nothing per draw, blend or wait — keep the renderer busier than their ranges allow"
                + (rows.isEmpty ? ": none." : ":"),
        ]
        for row in rows {
            lines.append(
                String(
                    format: "- %@: busy at least %.2f ms (%.2f at the bus's full peak); its row (%@) allows %.2f ms.",
                    row.description, row.floorBusyMs(bandwidthShare: e), row.floorBusyMs(bandwidthShare: 1),
                    row.measurementText, row.mostBusyMs))
        }
        return lines + [""]
    }

    /// Why O6's masks rows are not met together, in the report's words: the bound computed now.
    static func maskRowsBoundText(_ bound: MaskRowsBound, bandwidthShare: Double) -> [String] {
        let (fewer, more) = bound.masks
        let least = bound.leastFrameMs(bandwidthShare: bandwidthShare), peak = bound.leastFrameMs(bandwidthShare: 1)
        let meet = bound.bandwidthShareToMeet.map { String(format: "%.0f %%", $0 * 100) } ?? "no share"
        return [
            "Why \(bound.more.id)'s masks rows are not met together (docs/cost-model.md): if the \(bound.fewer.device.name)'s "
                + "\(fewer) masks meet their row and",
            "its overlay table its own, then in any model where a mask stores and loads the framebuffer the "
                + "\(bound.more.device.name)'s",
            String(
                format:
                    "%d masks, on the same GPU, clock and bus, take at least %.2f ms (%.1f fps) with the framebuffer "
                    + "moved at e = %.2f",
                more, least, 1000 / least, bandwidthShare),
            String(
                format:
                    "of the bus's peak, %.2f ms (%.1f fps) at the full peak, against %@ fps: the rows meet only from "
                    + "%@ of the peak on.",
                peak, 1000 / peak, CaseStudy.rangeText(bound.more.fps), meet),
        ]
    }

    /// The coefficients, every figure, the masks rows' bound and the rows out of reach as JSON:
    /// `{"coefficients": {…}, "figures": [ModelFigure…], "maskRowsBound": {…}, "outOfReach": [{…}]}`.
    public static func json(_ model: CostModel) throws -> String {
        struct Report: Encodable {
            let coefficients: CostModel
            let figures: [ModelFigure]
            let maskRowsBound: Bound
            let outOfReach: [Floor]
            let interval: PredictionInterval
            let coverage: Double
            let heldOutErrors: [PredictionInterval.HeldOutError]
        }
        /// A row no fit reaches: its floor against the most busy time its ranges allow.
        struct Floor: Encodable {
            let id: String, scene: String, device: String, floorBusyMs: Double, mostBusyMs: Double
        }
        let e = model.bandwidthEfficiency
        let floors = CaseStudy.all.filter { $0.outOfReach(bandwidthShare: e) }.map {
            Floor(
                id: $0.id, scene: $0.sceneName, device: $0.deviceID, floorBusyMs: $0.floorBusyMs(bandwidthShare: e),
                mostBusyMs: $0.mostBusyMs)
        }
        /// ``MaskRowsBound/o6``: the least frame of the iPod's masks table, at e and at the bus's peak, and the share
        /// of the peak from which the two masks rows can meet.
        struct Bound: Encodable {
            let id: String, device: String, masks: Int, fps: [Double]
            let leastFrameMs: Double, leastFrameMsAtPeakBandwidth: Double, bandwidthShareToMeet: Double?
        }
        let o6 = MaskRowsBound.o6
        let bound = Bound(
            id: o6.more.id, device: o6.more.deviceID, masks: o6.masks.more,
            fps: [o6.more.fps.lowerBound, o6.more.fps.upperBound],
            leastFrameMs: o6.leastFrameMs(bandwidthShare: model.bandwidthEfficiency),
            leastFrameMsAtPeakBandwidth: o6.leastFrameMs(bandwidthShare: 1),
            bandwidthShareToMeet: o6.bandwidthShareToMeet)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let (interval, errors) = PredictionInterval.compute()
        let data = try encoder.encode(
            Report(
                coefficients: model, figures: ModelFigure.all(for: model), maskRowsBound: bound, outOfReach: floors,
                interval: interval, coverage: PredictionInterval.coverage, heldOutErrors: errors))
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The measured value or range in the report's words ("18.15 ms", "30–40 fps", "≥ 2.5 fills").
    static func measuredText(_ figure: ModelFigure) -> String {
        if let measured = figure.measured { return String(format: "%.4g %@", measured, figure.unit) }
        if figure.high == .infinity { return String(format: "≥ %.4g %@", figure.low, figure.unit) }
        let whole = figure.low.rounded() == figure.low && figure.high.rounded() == figure.high
        return whole
            ? "\(CaseStudy.rangeText(figure.low...figure.high)) \(figure.unit)"
            : String(format: "%.3g–%.3g %@", figure.low, figure.high, figure.unit)
    }

    /// The prediction, or the model's span for a ratio ("1.99–2.00 ×").
    static func predictedText(_ figure: ModelFigure) -> String {
        if let high = figure.predictedHigh, high != figure.predicted {
            return String(format: "%.3g–%.3g %@", figure.predicted, high, figure.unit)
        }
        return String(format: "%.4g %@", figure.predicted, figure.unit)
    }
}
