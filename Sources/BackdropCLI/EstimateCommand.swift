import ArgumentParser
import Backdrop
import Foundation

struct EstimateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "estimate",
        abstract: "Predict what an effect view costs on a device's GPU: per pass, idle gaps, frame budget, blur or tint-only.",
        discussion: """
        Prices the same pass plan the renderer runs, with Backdrop's cost model (a roofline of ALU, texture \
        and memory per pass, fitted to Apple's published measurements; see --model). Every figure is a \
        prediction; the iPad (3rd generation) and iPad Air are the devices the published figures measured.

        --path auto takes the model's decision for the device: blur when its full-screen light blur is \
        predicted to take at most 2/3 of the 16.67 ms frame, tint-only otherwise. Apple's iOS 7 policy is shown \
        beside it, with the reason where they differ. --path blur prices the blur even where the device would \
        not draw it (as the published iPad 3 figures did).

        Examples:
          backdrop estimate --device ipad-air --style extraLight --vibrancy
          backdrop estimate --all-devices --style light
          backdrop estimate --device ipad-3 --style light --path blur --format json
          backdrop estimate --device iphone-5s --view 320x200 --format svg -o timeline.svg
          backdrop estimate --model
        """
    )

    @Option(help: ArgumentHelp("The device id (see 'backdrop devices'), e.g. --device ipad-air.", valueName: "id"))
    var device: String?

    @Flag(name: .customLong("all-devices"), help: "Estimate on every device of the table.")
    var allDevices = false

    @OptionGroup var styleOptions: StyleOptions

    @Flag(help: "Cover the view with vibrant content (passes 6 and 7).")
    var vibrancy = false

    @Option(help: ArgumentHelp("The view's size in points, e.g. --view 320x64 (default: the whole screen).", valueName: "WxH"))
    var view: String?

    @Option(help: ArgumentHelp("auto (the model's decision), blur, or tint-only.", valueName: "path"))
    var path: String = "auto"

    @Option(help: ArgumentHelp("text (tables), json, or svg (one device's frame timeline).", valueName: "format"))
    var format: String = "text"

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file (atomically) instead of standard output.", valueName: "path"))
    var output: String?

    @Flag(help: "Print the cost model: its coefficients, the seed figures it was fitted to and how well it reproduces them.")
    var model = false

    func run() throws {
        let estimator = Estimator()
        if model {
            try emit(ModelReport.text(estimator.model))
            return
        }
        guard let choice = Estimator.PathChoice(rawValue: path.lowercased()) else {
            throw BackdropError(.badOption, "unknown path '\(path)' (known: auto, blur, tint-only)")
        }
        guard ["text", "json", "svg"].contains(format) else {
            throw BackdropError(.badOption, "unknown format '\(format)' (known: text, json, svg)")
        }
        let devices = try chosenDevices()
        if format == "svg", devices.count != 1 {
            throw BackdropError(.badOption, "--format svg draws one device's frame: give --device, not --all-devices")
        }
        let style = try styleOptions.resolve()
        let viewPoints = try view.map(Self.parseView)
        let estimates = try devices.map { device throws(BackdropError) in
            try estimator.estimate(device: device, style: style, vibrancy: vibrancy, viewPoints: viewPoints, path: choice)
        }
        switch format {
        case "json":
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let records = estimates.map(EstimateRecord.init)
            let data = allDevices ? try encoder.encode(records) : try encoder.encode(records[0])
            try emit(String(decoding: data, as: UTF8.self) + "\n")
        case "svg":
            try emit(TimelineSVG.render(estimates[0]))
        default:
            try emit(estimates.count == 1 ? EstimateText.detail(estimates[0]) : EstimateText.table(estimates))
        }
    }

    func chosenDevices() throws(BackdropError) -> [Device] {
        switch (device, allDevices) {
        case (nil, true): return Device.all
        case (let id?, false): return [try Device.lookup(id)]
        case (_?, true): throw BackdropError(.badOption, "give --device or --all-devices, not both")
        case (nil, false): throw BackdropError(.badOption, "give --device ID or --all-devices")
        }
    }

    /// Parses "WxH" in points.
    static func parseView(_ text: String) throws(BackdropError) -> (width: Double, height: Double) {
        let parts = text.lowercased().split(separator: "x").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, parts.allSatisfy({ $0 > 0 && $0.isFinite }) else {
            throw BackdropError(.badOption, "--view '\(text)' is not WxH in points, e.g. 320x64")
        }
        return (parts[0], parts[1])
    }

    func emit(_ text: String) throws(BackdropError) {
        if let output {
            try AtomicFile.write(Array(text.utf8), to: output)
        } else {
            print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
        }
    }
}

/// The text forms of estimates.
enum EstimateText {
    static func ms(_ value: Double) -> String { String(format: "%.2f", value) }

    /// One device: the passes, the gaps, the totals and the decision.
    static func detail(_ estimate: Estimate) -> String {
        let device = estimate.device
        var lines: [String] = []
        lines.append("\(device.name) (\(device.id)): \(device.gpu), \(estimate.view) px view, \(estimate.style.name)\(estimate.vibrancy ? " + vibrancy" : ""), \(estimate.path.rawValue) path — predicted")
        lines.append("")
        let rows = estimate.frame.passes.map { priced in
            [priced.pass.name, ms(priced.startMs), ms(priced.ms), priced.bound.rawValue, "\(priced.pass.pixelsWritten)",
             String(format: "%.0f", priced.pass.gpuFetches), String(format: "%.1f", Double(priced.pass.bytesMoved) / 1e6),
             priced.pass.offscreen ? String(format: "%.1f MB", Double(priced.pass.textureBytes) / 1e6) : "on screen"]
        }
        lines.append(TextTable(header: ["pass", "start ms", "ms", "bound", "pixels", "fetches", "MB moved", "target"], rows: rows).rendered)
        lines.append("")
        let gaps = estimate.frame.gaps.map { ms($0.ms) }.joined(separator: " + ")
        lines.append("idle gaps:  \(estimate.frame.gaps.count) render-target switches, \(gaps.isEmpty ? "none" : gaps) = \(ms(estimate.idleMs)) ms")
        lines.append("frame:      \(ms(estimate.totalMs)) ms of \(ms(estimate.budgetMs)) ms (tiler lead \(ms(estimate.frame.tilerMs)) ms) → \(ms(estimate.leftMs)) ms left, \(String(format: "%.0f", estimate.fps)) fps, \(estimate.verdict.rawValue)")
        lines.append("blur:       model \(estimate.decision.path.rawValue), Apple iOS 7 \(estimate.decision.applePolicy.rawValue) — \(estimate.decision.reason)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every device: one row each, and the decisions that differ from Apple's below.
    static func table(_ estimates: [Estimate]) -> String {
        let rows = estimates.map { e in
            [e.device.id, e.path.rawValue, e.decision.applePolicy.rawValue + (e.decision.agreesWithApple ? "" : " *"),
             ms(e.totalMs), ms(e.idleMs), ms(e.leftMs), String(format: "%.0f", e.fps), e.verdict.rawValue,
             e.device.hasSeedMeasurements ? "yes" : "–"]
        }
        var text = TextTable(header: ["device", "path", "Apple iOS 7", "total ms", "idle ms", "left ms", "fps", "verdict", "measured in the talk"],
                             rows: rows).rendered
        let first = estimates[0]
        text += "\n\n\(first.style.name)\(first.vibrancy ? " + vibrancy" : ""), \(first.view == first.device.screen ? "full screen" : "view \(first.view) px on the first device"); predicted by Backdrop's cost model (see 'backdrop estimate --model')."
        for e in estimates where !e.decision.agreesWithApple {
            text += "\n* \(e.device.id): model \(e.decision.path.rawValue), Apple \(e.decision.applePolicy.rawValue): \(e.decision.reason)"
        }
        return text + "\n"
    }
}

/// The cost model described: coefficients, fit, hold-out.
enum ModelReport {
    static func text(_ model: CostModel) -> String {
        var lines = ["Backdrop's GPU cost model: per pass, max(ALU, texture, memory) time; a gap per render-target switch.", ""]
        lines.append(String(format: "a  shader operations per texture fetch      %8.2f   fitted", model.flopsPerFetch))
        lines.append(String(format: "b  shader operations per pixel written      %8.2f   fitted", model.flopsPerPixel))
        lines.append(String(format: "v  extra operations per vibrancy-filter px  %8.2f   fitted", model.vibrancyFilterFlopsPerPixel))
        lines.append(String(format: "e  share of peak memory bandwidth           %8.3f   fitted", model.bandwidthEfficiency))
        lines.append(String(format: "g  idle per render-target switch, ms        %8.2f   F3 (0.1–0.2 ms), not fitted", model.gapMs))
        lines.append(String(format: "t  tiler lead before the first pass, ms     %8.2f   nominal (F4), not fitted", model.tilerMs))
        lines.append("")
        let rows = (SeedFigure.all + [SeedFigure.v3Reading]).map { seed in
            let predicted = seed.predictedMs(by: model)
            let role = seed.id == "V3" ? "not fitted (our reading)" : seed.usedInFit ? "fitted" : "held out"
            return [seed.id, seed.deviceID, seed.style.name + (seed.vibrancy ? " + vibrancy" : ""), seed.path.rawValue,
                    String(format: "%.2f", seed.ms), String(format: "%.2f", predicted),
                    String(format: "%+.1f %%", (predicted - seed.ms) / seed.ms * 100), role]
        }
        lines.append(TextTable(header: ["seed", "device", "effect (full screen)", "path", "measured ms", "predicted ms", "error", "use"],
                               rows: rows).rendered)
        return lines.joined(separator: "\n") + "\n"
    }
}
