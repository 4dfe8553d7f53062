import Foundation

/// The cost model described, as `backdrop estimate --model` prints it and `Reports/cost-model.txt` keeps it:
/// its coefficients with what fixed each, the figures it was fitted to, the held-out checks and their errors.
public enum CostModelReport {
    /// The whole description.
    public static func text(_ model: CostModel) -> String {
        let estimator = Estimator(model: model)
        func f(_ format: String, _ values: CVarArg...) -> String { String(format: format, arguments: values) }
        var lines = [
            "Backdrop's GPU cost model (docs/cost-model.md). Per pass: max(fill, ALU, memory) + a fixed cost per draw;",
            "at each render-target switch an idle gap, and the framebuffer stored and loaded again. Every figure below",
            "is computed by the model now; nothing is copied from a run.", "",
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
                    ["d", "GPU clocks per draw", f("%.0f", model.clocksPerDraw), "fitted: O5"],
                    [
                        "e", "share of peak memory bandwidth", f("%.2f", model.bandwidthEfficiency),
                        "fixed: typical of LPDDR2/3",
                    ],
                    ["g", "idle per render-target switch, ms", f("%.2f", model.gapMs), "fixed: F3 (0.1–0.2 ms)"],
                    ["t", "tiler lead before the first pass, ms", f("%.2f", model.tilerMs), "fixed: nominal (F4)"],
                ]
            ).rendered)
        lines += ["", "Blur and vibrancy figures (fitted; within ±10 % required):", ""]
        let seedRows = (SeedFigure.all + [SeedFigure.v3Reading]).map { seed in
            let predicted = seed.predictedMs(by: model)
            return [
                seed.id, seed.deviceID, seed.style.name + (seed.vibrancy ? " + vibrancy" : ""), seed.path.rawValue,
                f("%.2f", seed.ms), f("%.2f", predicted), f("%+.1f %%", (predicted - seed.ms) / seed.ms * 100),
                seed.id == "V3" ? "not fitted (our reading)" : "fitted",
            ]
        }
        lines.append(
            TextTable(
                header: [
                    "seed", "device", "effect (full screen)", "path", "measured ms", "predicted ms", "error", "use",
                ],
                rows: seedRows
            ).rendered)
        lines += ["", "Case studies (scenes.md; O5 fitted, O6 held out):", ""]
        let caseRows = CaseStudy.all.map { row in
            let frame = row.frame(by: model)
            let miss = row.miss(frame)
            return [
                row.id, row.sceneName, row.deviceID, rangeText(row.fps), f("%.1f", frame.fps),
                row.gpuPercent.map(rangeText) ?? "–", f("%.0f", frame.gpuPercent), f("%d", frame.offscreenPasses),
                row.usedInFit ? "fitted" : "held out", miss.fps == 0 && miss.gpu == 0 ? "yes" : "NO",
            ]
        }
        lines.append(
            TextTable(
                header: [
                    "seed", "scene", "device", "talk fps", "fps", "talk GPU %", "GPU %", "offscreen",
                    "use", "in range",
                ], rows: caseRows
            ).rendered)
        lines += ["", "Held-out checks:", ""]
        var checkRows = ModelChecks.fillRateErrors().map { entry in
            [
                "fill rate (±15 %)", entry.device.id,
                f("%.1f Mtexels/s measured", entry.device.measuredFillRateMTexelsPerSecond!),
                f("%.1f", entry.device.fillRateMTexelsPerSecond), f("%+.1f %%", entry.error * 100),
            ]
        }
        checkRows.append([
            "iPad 4 fill over iPad 3", "ipad-4", "about +16 % (AnandTech)",
            f("%+.1f %%", (ModelChecks.iPad4OverIPad3Fill - 1) * 100),
            f("%+.1f points", (ModelChecks.iPad4OverIPad3Fill - 1.16) * 100),
        ])
        for device in Device.all {
            let fills = ModelChecks.fillsPerFrame(on: device, estimator: estimator)
            checkRows.append([
                "O4: fills per frame (≥ 2.5)", device.id, "at least 2.5", f("%.1f", fills),
                fills >= 2.5 ? "holds" : "BREAKS",
            ])
        }
        for device in ModelChecks.fallbackDevices {
            let fallback = ModelChecks.fallback(on: device, estimator: estimator)
            checkRows.append([
                "tint-only fallback at 60 fps", device.id, "60 fps",
                f("%.1f fps (%.2f ms)", fallback.fps, fallback.totalMs), fallback.fps >= 60 ? "holds" : "BREAKS",
            ])
        }
        lines.append(TextTable(header: ["check", "device", "expected", "model", "error"], rows: checkRows).rendered)
        return lines.joined(separator: "\n") + "\n"
    }

    static func rangeText(_ range: ClosedRange<Double>) -> String {
        if range == CaseStudy.belowSixty { return "< 60" }
        return range.lowerBound == range.upperBound
            ? String(format: "%.0f", range.lowerBound)
            : String(format: "%.0f–%.0f", range.lowerBound, range.upperBound)
    }
}
