import Backdrop
import Foundation

/// The text forms of scene estimates.
enum SceneText {
    static func ms(_ value: Double) -> String { String(format: "%.2f", value) }

    /// One device: every pass, then the totals.
    static func detail(_ estimate: SceneEstimate) -> String {
        let frame = estimate.frame
        let device = estimate.device
        let ranges = frame.ranges()
        var lines = [
            "\(estimate.scene.name) on the \(device.name) (\(device.id)), \(device.gpu), \(device.screen) px — predicted"
        ]
        if !estimate.scene.description.isEmpty { lines.append(estimate.scene.description) }
        lines.append("")
        if frame.passes.isEmpty {
            lines.append("nothing is drawn in a frame after the first (static scene, nothing animating)")
        } else {
            let rows = frame.passes.enumerated().map { index, p in
                [
                    p.pass.name, p.gpuPass.layer, p.isOffscreen ? "offscreen" : "screen", ms(p.startMs), ms(p.ms),
                    ranges.passText(index), p.bound.rawValue,
                    "\(p.pass.pixelsWritten)", String(format: "%.2f", Double(p.bytes) / 1e6),
                ]
            }
            lines.append(
                TextTable(
                    header: [
                        "pass", "layer", "target", "start ms", "ms", "ms range", "bound",
                        "pixels", "MB moved",
                    ], rows: rows
                ).rendered)
        }
        lines.append("")
        lines.append(
            "switches:  \(Plural.count(frame.renderTargetSwitches, "render-target switch")), \(Plural.count(frame.offscreenPasses, "offscreen pass")), idle \(ms(frame.idleMs)) ms"
        )
        lines.append(
            "frame:     busy \(ms(frame.busyMs)) + idle \(ms(frame.idleMs)) = \(ms(frame.totalMs)) ms → \(String(format: "%.1f", frame.fps)) fps, GPU \(String(format: "%.0f", frame.gpuPercent)) %, \(frame.verdict.rawValue)"
        )
        lines.append(
            "range:     \(ranges.text); \(ranges.busyAndIdleText) (\(FrameTimeline.Ranges.coverageText); evidence: \(device.evidence.rawValue))"
        )
        for warning in estimate.warnings { lines.append("warning:   \(warning)") }
        lines.append("bound:     \(frame.bound.rawValue) (on the \(device.screen) px screen)")
        if let row = CaseStudy.measuring(estimate) { lines.append("measured:  \(row.measurementText) in the talk") }
        if estimate.scene.redraw == .static {
            lines.append(
                "first:     \(ms(estimate.firstFrame.totalMs)) ms when it first appears (static: later frames redraw only what animates)"
            )
        }
        if estimate.rasterCacheBytes > 0 {
            lines.append(
                String(
                    format: "cache:     %.1f MB rasterized of %.1f MB (2.5 screens)",
                    Double(estimate.rasterCacheBytes) / 1e6,
                    Double(estimate.rasterCacheLimitBytes) / 1e6))
        }
        lines.append(
            "blur:      effect views \(ScenePlanner.effectViewWords(path: estimate.path, blurredEffectViews: estimate.blurredEffectViews)); model \(estimate.decision.path.rawValue), Apple iOS 7 \(estimate.decision.applePolicy.rawValue)"
        )
        for note in estimate.styleNotes { lines.append("style:     \(note)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `--find`'s answers: one line for one device, a table for several.
    static func fits(_ fits: [LargestFit]) -> String {
        func value(_ v: Double?, _ unit: String) -> String {
            guard let v else { return "none" }
            return (v.rounded() == v ? String(Int(v)) : String(format: "%.1f", v)) + " " + unit
        }
        func range(_ fit: LargestFit) -> String {
            fit.largestRange.allSatisfy { $0 == nil }
                ? "none" : "\(value(fit.largestRange[0], fit.unit)) to \(value(fit.largestRange[1], fit.unit))"
        }
        let rate = String(format: "%g fps", fits[0].fps)
        if fits.count == 1, let fit = fits.first {
            let device = Device.named(fit.device)?.name ?? fit.device
            guard let largest = fit.largest else {
                return
                    "\(fit.find): no value keeps \(rate) on the \(device): at the least, \(value(fit.least, fit.unit)), "
                    + "the frame takes \(ms(fit.leastMs)) ms (\(FrameTimeline.Ranges.coverageText): "
                    + "\(ms(fit.leastMsRange[0]))–\(ms(fit.leastMsRange[1])) ms) against \(ms(1000 / fit.fps)) ms, "
                    + "now \(value(fit.current, fit.unit)) (predicted)\n"
            }
            let ceiling =
                largest >= fit.greatest ? " (every value searched, up to \(value(fit.greatest, fit.unit)))" : ""
            return
                "\(fit.find): at most \(value(largest, fit.unit)) keeps \(rate) on the \(device)\(ceiling), now \(value(fit.current, fit.unit)); "
                + "\(FrameTimeline.Ranges.coverageText): \(range(fit)) (predicted)\n"
        }
        return TextTable(
            header: ["device", "largest that keeps \(rate)", FrameTimeline.Ranges.coverageText, "now"],
            rowsOf: fits, deviceID: \.device,
            row: { [$0.device, value($0.largest, $0.unit), range($0), value($0.current, $0.unit)] }
        ).rendered + "\n\n\(fits[0].find): predicted by Backdrop's cost model.\n"
    }

    /// Every device: one row each.
    static func table(_ estimates: [SceneEstimate]) -> String {
        let row = { (estimate: SceneEstimate) in
            let e = (device: estimate.device, path: estimate.path, frame: estimate.tableFrame)
            return [
                e.device.id, "\(e.device.screen)", e.path.rawValue + (estimate.isWhatIf ? " (what-if)" : ""),
                ms(e.frame.busyMs), ms(e.frame.idleMs),
                ms(e.frame.totalMs), e.frame.ranges().text, e.device.evidence.rawValue,
                String(format: "%.1f", e.frame.fps),
                String(format: "%.0f", e.frame.gpuPercent),
                "\(e.frame.offscreenPasses)", "\(e.frame.renderTargetSwitches)", e.frame.bound.rawValue,
                e.frame.verdict.rawValue, talk(estimate),
            ]
        }
        var text = TextTable(
            header: [
                "device", "screen px", "path", "busy ms", "idle ms", "total ms", FrameTimeline.Ranges.coverageText,
                "evidence", "fps",
                "GPU %", "offscreen",
                "switches", "bound", "verdict", "the talk",
            ],
            rowsOf: estimates, deviceID: \.device.id, row: row
        ).rendered
        let scene = estimates[0].scene
        text +=
            "\n\n\(scene.name) (\(scene.redraw.rawValue)): predicted by Backdrop's cost model (see 'backdrop estimate --model')."
        if scene.redraw == .static {
            let rest = estimates.map(\.frame.totalMs).max() ?? 0
            text += String(
                format:
                    " A static scene's row is its first frame; at rest it draws only what animates (at most %.2f ms here).",
                rest)
        }
        let whatIfStyles = scene.effectStyles.filter { style in
            estimates.contains { Estimator.whatIf(style, on: $0.device) != nil }
        }
        if !whatIfStyles.isEmpty {
            text +=
                "\n(what-if): the device never ran the iOS that shipped \(whatIfStyles.map(\.name).joined(separator: ", ")): a what-if, not a prediction of shipped behaviour."
        }
        if scene.effectStyles.contains(where: { $0.glass != nil }) { text += "\n\(GlassParameters.approximationNote)." }
        return text + "\n"
    }

    /// The case study's measurement for this scene on this device, "–" where the talk gave none.
    static func talk(_ estimate: SceneEstimate) -> String { CaseStudy.measuring(estimate)?.measurementText ?? "–" }

    /// Which layers go offscreen on one device, and what fixing each would save.
    static func explanation(_ advice: SceneAdvice, for estimate: SceneEstimate) -> String {
        var lines = [
            "\(estimate.scene.name) on the \(estimate.device.name) (\(estimate.device.screen) px): \(ms(estimate.frame.totalMs)) ms, \(String(format: "%.1f", estimate.frame.fps)) fps, \(Plural.count(estimate.frame.offscreenPasses, "offscreen pass")), bound by \(estimate.frame.bound.rawValue) (predicted)"
        ]
        if advice.items.isEmpty {
            lines.append("  no layer causes an offscreen pass on this device")
        }
        for item in advice.items {
            lines.append(
                "  \(item.layer): \(item.cause), \(Plural.count(item.offscreenPasses, "offscreen pass")) a frame")
            lines.append(
                String(format: "    fix: %@ → %.2f ms (saves %.2f ms)", item.fix, item.fixedTotalMs, item.savedMs))
        }
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// A run's summary: the figures Instruments' frame-rate track gives, and the frames over the 16.67 ms line.
    static func run(_ run: SceneRun) -> String {
        let f = { (value: Double) in String(format: "%.1f", value) }
        let over = run.frames.filter { $0.gpuMs > SceneRun.vsyncMs }.count
        let hits = run.frames.map(\.rasterCacheHits).reduce(0, +)
        let misses = run.frames.map(\.rasterCacheMisses).reduce(0, +)
        return """
            \(run.scene) on \(run.device): \(f(run.durationSeconds)) s, scrolling \(f(run.scrollPointsPerSecond)) pt/s — predicted
            frames:  \(run.frames.count) drawn, \(run.frames.filter { $0.presentedAtMs != nil }.count) shown → \(f(run.fps)) fps, \(run.droppedFrames) dropped (vsyncs that showed a frame again)
            GPU:     longest \(f(run.longestFrameMs)) ms, 95th percentile \(f(run.p95FrameMs)) ms, \(Plural.count(over, "frame")) over 16.67 ms
            cache:   \(Plural.count(hits, "rasterized hit")), \(Plural.count(misses, "miss"))

            """
    }

    /// Several devices' runs of one scene: a row per device (the figures of ``run(_:)``), then what was run.
    static func runTable(_ runs: [SceneRun]) -> String {
        let f = { (value: Double) in String(format: "%.1f", value) }
        let row = { (run: SceneRun) in
            [
                run.device, "\(run.frames.count)", "\(run.frames.filter { $0.presentedAtMs != nil }.count)", f(run.fps),
                "\(run.droppedFrames)", f(run.longestFrameMs), f(run.p95FrameMs),
                "\(run.frames.filter { $0.gpuMs > SceneRun.vsyncMs }.count)",
                "\(run.frames.map(\.rasterCacheHits).reduce(0, +))",
                "\(run.frames.map(\.rasterCacheMisses).reduce(0, +))",
            ]
        }
        let first = runs[0]
        return TextTable(
            header: [
                "device", "frames drawn", "frames shown", "fps", "dropped", "longest ms", "95th percentile ms",
                "over 16.67 ms", "cache hits", "cache misses",
            ], rowsOf: runs, deviceID: \.device, row: row
        ).rendered
            + "\n\n\(first.scene): \(f(first.durationSeconds)) s, scrolling \(f(first.scrollPointsPerSecond)) pt/s; "
            + "predicted by Backdrop's cost model (see 'backdrop estimate run --help' for the columns).\n"
    }
}
