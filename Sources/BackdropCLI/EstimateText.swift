import Backdrop
import Foundation

/// The text forms of estimates.
enum EstimateText {
    static func ms(_ value: Double) -> String { String(format: "%.2f", value) }

    /// One device: the passes, the gaps, the totals and the decision.
    static func detail(_ estimate: Estimate) -> String {
        let device = estimate.device
        var lines: [String] = []
        lines.append(
            "\(device.name) (\(device.id)): \(device.gpu), \(estimate.view) px view, \(estimate.style.name)\(estimate.vibrancy ? " + vibrancy" : ""), \(estimate.path.rawValue) path — predicted"
        )
        lines.append("")
        let ranges = estimate.frame.ranges()
        let rows = estimate.frame.passes.enumerated().map { index, priced in
            [
                priced.pass.name, ms(priced.startMs), ms(priced.ms), ranges.passText(index), priced.bound.rawValue,
                "\(priced.pass.pixelsWritten)",
                String(format: "%.0f", priced.pass.gpuFetches), String(format: "%.1f", Double(priced.bytes) / 1e6),
                priced.isOffscreen ? String(format: "%.1f MB", Double(priced.pass.textureBytes) / 1e6) : "on screen",
            ]
        }
        lines.append(
            TextTable(
                header: [
                    "pass", "start ms", "ms", "ms range", "bound", "pixels", "fetches",
                    "MB moved", "target",
                ], rows: rows
            ).rendered)
        lines.append("")
        let frame = estimate.frame
        let gaps = frame.gaps.map { ms($0.ms) }.joined(separator: " + ")
        let gapCount = Plural.count(frame.gaps.count, "gap")
        let switches = Plural.count(frame.renderTargetSwitches, "render-target switch")
        lines.append(
            "idle gaps:  \(gapCount) at \(switches): \(gaps.isEmpty ? "none" : "\(gaps) = \(ms(frame.gapsMs)) ms")")
        lines.append(
            "idle:       tiler lead \(ms(frame.tilerMs)) + gaps \(ms(frame.gapsMs)) = \(ms(frame.idleMs)) ms")
        lines.append(
            "frame:      busy \(ms(frame.busyMs)) + idle \(ms(frame.idleMs)) = \(ms(estimate.totalMs)) ms of \(ms(estimate.budgetMs)) ms → \(ms(estimate.leftMs)) ms left, \(String(format: "%.1f", estimate.fps)) fps, GPU \(String(format: "%.0f", frame.gpuPercent)) %, \(estimate.verdict.rawValue)"
        )
        lines.append(
            "range:      \(ranges.text); \(ranges.busyAndIdleText) (\(FrameTimeline.Ranges.coverageText); evidence: \(device.evidence.rawValue))"
        )
        lines.append("bound:      \(estimate.frame.bound.rawValue) (on the \(estimate.device.screen) px screen)")
        if estimate.view == estimate.device.screen, SeedFigure.measuring(estimate) != nil {
            lines.append("measured:   \(measured(estimate)): the talk's ms and the prediction's error")
        }
        lines.append(
            "blur:       model \(estimate.decision.path.rawValue), Apple iOS 7 \(estimate.decision.applePolicy.rawValue) — \(estimate.decision.reason)"
        )
        // The what-if is the decision's (above); Liquid Glass's note is the style's.
        if estimate.style.glass != nil { lines.append("style:      \(GlassParameters.approximationNote)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The talk's figure for this very estimate and the prediction's error ("14.50 (−6.4 %)"), "–" where the talk
    /// measured none.
    static func measured(_ estimate: Estimate) -> String {
        guard let seed = SeedFigure.measuring(estimate) else { return "–" }
        return seed.comparison(with: estimate.totalMs)
    }

    /// Every device: one row each, and the decisions that differ from Apple's below.
    static func table(_ estimates: [Estimate]) -> String {
        let row = { (e: Estimate) in
            [
                e.device.id, e.path.rawValue + (Estimator.whatIf(e.style, on: e.device) == nil ? "" : " (what-if)"),
                e.decision.applePolicy.rawValue + (e.decision.agreesWithApple ? "" : " *"),
                "\(e.device.screen)", ms(e.totalMs), e.frame.ranges().text, e.device.evidence.rawValue, ms(e.idleMs),
                ms(e.leftMs),
                String(format: "%.1f", e.fps),
                e.frame.bound.rawValue, e.verdict.rawValue, measured(e),
            ]
        }
        var text = TextTable(
            header: [
                "device", "path", "Apple iOS 7", "screen px", "total ms", FrameTimeline.Ranges.coverageText, "evidence",
                "idle ms",
                "left ms", "fps", "bound",
                "verdict", "talk ms (error)",
            ],
            rowsOf: estimates, deviceID: \.device.id, row: row
        ).rendered
        let first = estimates[0]
        text +=
            "\n\n\(first.style.name)\(first.vibrancy ? " + vibrancy" : ""), \(first.view == first.device.screen ? "full screen" : "view \(first.view) px on the first device"); predicted by Backdrop's cost model (see 'backdrop estimate --model')."
        if let e = estimates.first(where: { Estimator.whatIf($0.style, on: $0.device) != nil }) {
            let introduced = StyleCatalogue.entry(named: e.style.name)?.introducedInIOS ?? 0
            text +=
                "\n(what-if): the device never ran iOS \(introduced), which shipped \(e.style.name): a what-if, not a prediction of shipped behaviour."
        }
        if first.style.glass != nil { text += "\n\(GlassParameters.approximationNote)." }
        for e in estimates where !e.decision.agreesWithApple {
            text +=
                "\n* \(e.device.id): model \(e.decision.path.rawValue), Apple \(e.decision.applePolicy.rawValue): \(e.decision.reason)"
        }
        return text + "\n"
    }
}
