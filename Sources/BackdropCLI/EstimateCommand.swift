import ArgumentParser
import Backdrop
import Foundation

struct EstimateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "estimate",
        abstract:
            "Predict what an effect view or a whole screen costs on a device's GPU: passes, idle gaps, frame rate, GPU use.",
        discussion: """
            Prices the passes of one frame with Backdrop's cost model (a roofline of fill, ALU and memory per pass and \
            a fixed cost per draw on the renderer; the tiler binning each render ahead of it, except a render that \
            samples the one before it, which waits; a framebuffer store and load when the frame leaves the screen and \
            returns; see --model). Every figure is a prediction; the iPad (3rd generation) and iPad Air are the devices the \
            published blur figures measured.

            Without --scene, the frame is one effect view (--style, --vibrancy, --view). With --scene, it is a whole \
            screen: a built-in scene (see 'backdrop scenes') or a JSON scene file; --explain then says which layers \
            cause offscreen passes and what the usual fix for each would save.

            --duration SECONDS runs the scene over time instead of pricing one frame: a frame drawn at each vsync of \
            the 60 Hz display (triple buffering), the layers with "scrolls" moving up --scroll points a second, the \
            rasterization cache keeping textures for 100 ms and 2.5 screens, each frame shown at the first vsync \
            after the GPU finishes it. It reports every frame and the run's fps, dropped frames, longest and 95th \
            percentile frame; --format svg draws the frame times against the 16.67 ms line (see docs/scenes.md).

            --path auto takes the model's decision for the device: blur when its full-screen light blur is \
            predicted to take at most 2/3 of the 16.67 ms frame, tint-only otherwise. Apple's iOS 7 policy is shown \
            beside it, with the reason where they differ. --path blur prices the blur even where the device would \
            not draw it (as the published iPad 3 figures did).

            Examples:
              backdrop estimate --device ipad-air --style extraLight --vibrancy
              backdrop estimate --all-devices --style light
              backdrop estimate --scene photos-table-shadows --all-devices
              backdrop estimate --scene contacts-table-masks --device iphone-4s --explain
              backdrop estimate --scene s.json --device iphone-5 --format svg -o t.svg
              backdrop estimate --scene s.json --device iphone-5 --duration 2 --scroll 600
              backdrop estimate --model
              backdrop estimate --model --format svg -o fit.svg
            """
    )

    @Option(help: ArgumentHelp("The device id (see 'backdrop devices'), e.g. --device ipad-air.", valueName: "id"))
    var device: String?

    @Flag(name: .customLong("all-devices"), help: "Estimate on every device of the table.")
    var allDevices = false

    @Option(
        help: ArgumentHelp(
            "A built-in scene's name (see 'backdrop scenes') or a JSON scene file.", valueName: "name|file"))
    var scene: String?

    @Flag(
        help:
            "With --scene: what bounds the frame, which layers cause offscreen passes, and what fixing each would save."
    )
    var explain = false

    @Option(
        help: ArgumentHelp(
            "With --scene: simulate this many seconds of frames at 60 Hz instead of pricing one frame.",
            valueName: "seconds"))
    var duration: Double?

    @Option(
        help: ArgumentHelp(
            "With --duration: how fast the layers that scroll move up, points a second (default 0).",
            valueName: "pt/s"))
    var scroll: Double?

    @Option(
        help: ArgumentHelp(
            "With --scene: the largest value of LAYER.PROPERTY (shadow.radius, repeat.count, frame.width, frame.height) that keeps --fps, with its range.",
            valueName: "layer.property"))
    var find: String?

    @Option(help: ArgumentHelp("With --find: the frame rate to keep (1–60, default 60).", valueName: "fps"))
    var fps: Double?

    @OptionGroup var styleOptions: StyleOptions

    @Flag(help: "Cover the view with vibrant content (passes 6 and 7).")
    var vibrancy = false

    @Option(
        help: ArgumentHelp(
            "The view's size in points, e.g. --view 320x64 (default: the whole screen).", valueName: "WxH"))
    var view: String?

    @Option(help: ArgumentHelp("auto (the model's decision), blur, or tint-only.", valueName: "path"))
    var path: Estimator.PathChoice = .auto

    @Option(help: ArgumentHelp("text (tables), json, or svg (one device's frame timeline).", valueName: "format"))
    var format: OutputFormat = .text

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Write to this file (atomically) instead of standard output.", valueName: "path"))
    var output: String?

    @Flag(
        help:
            "Print the cost model: its coefficients and every figure, fitted or held out, against its prediction (text, json or svg)."
    )
    var model = false

    @Flag(
        help:
            "With --model: fit the coefficients to the figures again (about a second) and report that fit instead of the stored one."
    )
    var refit = false

    func run() throws {
        if refit, !model { throw BackdropError(.badOption, "--refit goes with --model") }
        let estimator = refit ? Estimator(model: CostModel.refit()) : Estimator()
        if model {
            switch format {
            case .text: try emit(CostModelReport.text(estimator.model))
            case .json: try emit(CostModelReport.json(estimator.model))
            case .svg: try emit(ModelFitSVG.render(estimator.model))
            }
            return
        }
        let choice = path
        let devices = try chosenDevices()
        if format == .svg, devices.count != 1 {
            throw BackdropError(.badOption, "--format svg draws one device's frame: give --device, not --all-devices")
        }
        if let scene {
            try runScene(scene, devices: devices, estimator: estimator, choice: choice)
            return
        }
        if explain { throw BackdropError(.badOption, "--explain goes with --scene") }
        if duration != nil || scroll != nil {
            throw BackdropError(.badOption, "--duration and --scroll go with --scene")
        }
        let style = try styleOptions.resolve()
        let viewPoints = try view.map(Self.parseView)
        let estimates = try devices.map { device throws(BackdropError) in
            try estimator.estimate(
                device: device, style: style, vibrancy: vibrancy, viewPoints: viewPoints, path: choice)
        }
        try emit(
            estimates.map(EstimateRecord.init), svg: { TimelineSVG.render(estimates[0]) },
            text: { estimates.count == 1 ? EstimateText.detail(estimates[0]) : EstimateText.table(estimates) })
    }

    func runScene(_ name: String, devices: [Device], estimator: Estimator, choice: Estimator.PathChoice) throws {
        if vibrancy || view != nil || styleOptions.isGiven {
            throw BackdropError(.badOption, "--scene prices its own layers: leave out --style, --vibrancy and --view")
        }
        let scene = try BuiltInScenes.load(name)
        let budget = SceneWork.Budget.standard
        if fps != nil, find == nil { throw BackdropError(.badOption, "--fps goes with --find") }
        if let find {
            if explain || duration != nil || scroll != nil {
                throw BackdropError(.badOption, "--find prices one frame: leave out --explain, --duration and --scroll")
            }
            if format == .svg { throw BackdropError(.badOption, "--find prints text or json, not svg") }
            try budget.check(scene, run: .find, devices: devices.count)
            let fits = try devices.map { device throws(BackdropError) in
                try LargestFit(find, in: scene, device: device, fps: fps ?? 60, estimator: estimator, path: choice)
            }
            try emit(fits, svg: { "" }, text: { SceneText.fits(fits) })
            return
        }
        if let duration {
            if explain { throw BackdropError(.badOption, "--explain prices one frame: leave out --duration") }
            try SceneRun.validate(durationSeconds: duration, scrollPointsPerSecond: scroll ?? 0)
            try budget.check(scene, run: .duration(seconds: duration), devices: devices.count)
            let runs = try devices.map { device throws(BackdropError) in
                let path = estimator.path(choice, on: device)
                return try SceneRun(
                    scene: scene, device: device, durationSeconds: duration, scrollPointsPerSecond: scroll ?? 0,
                    path: path, model: estimator.model)
            }
            try emit(runs, svg: { FrameRunSVG.render(runs[0]) }, text: { runs.map(SceneText.run).joined() })
            return
        }
        if scroll != nil { throw BackdropError(.badOption, "--scroll goes with --duration") }
        if explain, format == .svg { throw BackdropError(.badOption, "--explain prints text or json, not svg") }
        try budget.check(scene, run: explain ? .explain : .estimate, devices: devices.count)
        let estimates = try devices.map { device throws(BackdropError) in
            try estimator.estimate(scene: scene, device: device, path: choice)
        }
        if explain {
            let advice = try estimates.map { estimate throws(BackdropError) in
                try SceneAdvice(scene: scene, device: estimate.device, estimator: estimator, path: choice)
            }
            let pairs = Array(zip(advice, estimates))
            try emit(
                pairs.map { ExplanationRecord($0.0, for: $0.1) }, svg: { "" },
                text: { pairs.map { SceneText.explanation($0.0, for: $0.1) }.joined() })
            return
        }
        try emit(
            estimates.map(SceneRecord.init), svg: { TimelineSVG.render(estimates[0]) },
            text: { estimates.count == 1 ? SceneText.detail(estimates[0]) : SceneText.table(estimates) })
    }

    /// Prints the estimates in the chosen format: their records as JSON (an array with --all-devices), the first
    /// one's timeline as SVG, or the text.
    func emit<Record: Encodable>(_ records: [Record], svg: () -> String, text: () -> String) throws {
        switch format {
        case .json: try emit(allDevices ? Self.json(records) : Self.json(records[0]))
        case .svg: try emit(svg())
        case .text: try emit(text())
        }
    }

    static func json<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
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
        let parts = text.lowercased().split(separator: "x").compactMap {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
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
        lines.append(
            "\(device.name) (\(device.id)): \(device.gpu), \(estimate.view) px view, \(estimate.style.name)\(estimate.vibrancy ? " + vibrancy" : ""), \(estimate.path.rawValue) path — predicted"
        )
        lines.append("")
        let rows = estimate.frame.passes.map { priced in
            [
                priced.pass.name, ms(priced.startMs), ms(priced.ms), priced.bound.rawValue,
                "\(priced.pass.pixelsWritten)",
                String(format: "%.0f", priced.pass.gpuFetches), String(format: "%.1f", Double(priced.bytes) / 1e6),
                priced.isOffscreen ? String(format: "%.1f MB", Double(priced.pass.textureBytes) / 1e6) : "on screen",
            ]
        }
        lines.append(
            TextTable(
                header: ["pass", "start ms", "ms", "bound", "pixels", "fetches", "MB moved", "target"], rows: rows
            ).rendered)
        lines.append("")
        let frame = estimate.frame
        let gaps = frame.gaps.map { ms($0.ms) }.joined(separator: " + ")
        let gapCount = "\(frame.gaps.count) gap\(frame.gaps.count == 1 ? "" : "s")"
        let switches =
            "\(frame.renderTargetSwitches) render-target switch\(frame.renderTargetSwitches == 1 ? "" : "es")"
        lines.append(
            "idle gaps:  \(gapCount) at \(switches): \(gaps.isEmpty ? "none" : "\(gaps) = \(ms(frame.gapsMs)) ms")")
        lines.append(
            "idle:       tiler lead \(ms(frame.tilerMs)) + gaps \(ms(frame.gapsMs)) = \(ms(frame.idleMs)) ms")
        lines.append(
            "frame:      busy \(ms(frame.busyMs)) + idle \(ms(frame.idleMs)) = \(ms(estimate.totalMs)) ms of \(ms(estimate.budgetMs)) ms → \(ms(estimate.leftMs)) ms left, \(String(format: "%.1f", estimate.fps)) fps, \(estimate.verdict.rawValue)"
        )
        lines.append("range:      \(frame.ranges().text) (\(FrameTimeline.Ranges.coverageText))")
        lines.append("bound:      \(estimate.frame.bound.rawValue) (on the \(estimate.device.screen) px screen)")
        if estimate.view == estimate.device.screen, SeedFigure.measuring(estimate) != nil {
            lines.append("measured:   \(measured(estimate)): the talk's ms and the prediction's error")
        }
        lines.append(
            "blur:       model \(estimate.decision.path.rawValue), Apple iOS 7 \(estimate.decision.applePolicy.rawValue) — \(estimate.decision.reason)"
        )
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
        let rows = estimates.map { e in
            [
                e.device.id, e.path.rawValue,
                e.decision.applePolicy.rawValue + (e.decision.agreesWithApple ? "" : " *"),
                "\(e.device.screen)", ms(e.totalMs), e.frame.ranges().text, ms(e.idleMs), ms(e.leftMs),
                String(format: "%.1f", e.fps),
                e.frame.bound.rawValue, e.verdict.rawValue, measured(e),
            ]
        }
        var text = TextTable(
            header: [
                "device", "path", "Apple iOS 7", "screen px", "total ms", FrameTimeline.Ranges.coverageText, "idle ms",
                "left ms", "fps", "bound",
                "verdict", "talk ms (error)",
            ],
            rows: rows
        ).rendered
        let first = estimates[0]
        text +=
            "\n\n\(first.style.name)\(first.vibrancy ? " + vibrancy" : ""), \(first.view == first.device.screen ? "full screen" : "view \(first.view) px on the first device"); predicted by Backdrop's cost model (see 'backdrop estimate --model')."
        for e in estimates where !e.decision.agreesWithApple {
            text +=
                "\n* \(e.device.id): model \(e.decision.path.rawValue), Apple \(e.decision.applePolicy.rawValue): \(e.decision.reason)"
        }
        return text + "\n"
    }
}
