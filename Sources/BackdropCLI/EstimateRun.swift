import ArgumentParser
import Backdrop
import Foundation

/// What one `backdrop estimate` command does, whichever spelling asked for it (a mode's subcommand or today's
/// options): every field of every mode, the mode chosen by which are given (`model`, then `scene` with `find`,
/// `duration` or `explain`, else one effect view). The subcommands set only their own mode's fields; the checks
/// below refuse the other combinations that today's spelling can write, in the words it always had.
struct EstimateRun {
    var device: String?
    var allDevices = false
    /// `--devices`: filters of ``DeviceSelection``, all of which a device must match.
    var deviceFilters: [String] = []
    var scene: String?
    var explain = false
    var duration: Double?
    var scroll: Double?
    var find: String?
    var fps: Double?
    var style = StyleChoice()
    var vibrancy = false
    var view: String?
    var path: Estimator.PathChoice = .auto
    /// The device's settings the views are priced under (`estimate view` and `estimate scene` give them).
    var accessibility = AccessibilitySettings.none
    var format: OutputFormat = .text
    var output: String?
    var model = false
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
        if accessibility.reduceTransparency {
            try RenderRequest.checkReduceTransparency(path: choice, spelling: .option)
        }
        let devices = try chosenDevices()
        if format == .svg, devices.count != 1 {
            throw BackdropError(
                .badOption, "--format svg draws one device's frame: give --device, not --all-devices or --devices")
        }
        if let scene {
            try runScene(scene, devices: devices, estimator: estimator, choice: choice)
            return
        }
        if explain { throw BackdropError(.badOption, "--explain goes with --scene") }
        if duration != nil || scroll != nil {
            throw BackdropError(.badOption, "--duration and --scroll go with --scene")
        }
        let style = try style.resolve()
        let viewPoints = try view.map(Self.parseView)
        let estimates = try devices.map { device throws(BackdropError) in
            try estimator.estimate(
                device: device, style: style, vibrancy: vibrancy, viewPoints: viewPoints, path: choice,
                accessibility: accessibility)
        }
        try emit(
            estimates.map(EstimateRecord.init), svg: { TimelineSVG.render(estimates[0]) },
            text: { estimates.count == 1 ? EstimateText.detail(estimates[0]) : EstimateText.table(estimates) })
    }

    func runScene(_ name: String, devices: [Device], estimator: Estimator, choice: Estimator.PathChoice) throws {
        if vibrancy || view != nil || style.isGiven {
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
                try SceneRun(
                    scene: scene, device: device, durationSeconds: duration, scrollPointsPerSecond: scroll ?? 0,
                    path: choice, model: estimator.model)
            }
            try emit(
                runs, svg: { FrameRunSVG.render(runs[0]) },
                text: { runs.count == 1 ? SceneText.run(runs[0]) : SceneText.runTable(runs) })
            return
        }
        if scroll != nil { throw BackdropError(.badOption, "--scroll goes with --duration") }
        if explain, format == .svg { throw BackdropError(.badOption, "--explain prints text or json, not svg") }
        try budget.check(scene, run: explain ? .explain : .estimate, devices: devices.count)
        let estimates = try devices.map { device throws(BackdropError) in
            try estimator.estimate(scene: scene, device: device, path: choice, accessibility: accessibility)
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
        case .json: try emit(pricesSeveral ? Self.json(records) : Self.json(records[0]))
        case .svg: try emit(svg())
        case .text: try emit(text())
        }
    }

    static func json<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }

    /// Whether the command prices on a list of devices (`--all-devices` or `--devices`), whose JSON is an array even
    /// when the list holds one device.
    var pricesSeveral: Bool { allDevices || !deviceFilters.isEmpty }

    /// The devices to price on: `--device`'s one, or every device `--devices` selects (of all of them, so
    /// `--all-devices` beside it changes nothing).
    func chosenDevices() throws(BackdropError) -> [Device] {
        switch (device, pricesSeveral) {
        case (nil, true): return try DeviceSelection.select(deviceFilters)
        case (let id?, false): return [try Device.lookup(id)]
        case (_?, true): throw BackdropError(.badOption, "give --device or --all-devices/--devices, not both")
        case (nil, false): throw BackdropError(.badOption, "give --device ID, --all-devices or --devices FILTER")
        }
    }

    /// Parses "WxH" in points.
    static func parseView(_ text: String) throws(BackdropError) -> (width: Double, height: Double) {
        let parts = text.lowercased().split(separator: "x").compactMap {
            DecimalNumber.parse($0.trimmingCharacters(in: .whitespaces))
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

/// A `backdrop estimate` command of any spelling: what it asks for, as one ``EstimateRun``.
protocol EstimateSpelling: ParsableCommand {
    var estimateRun: EstimateRun { get }
}

extension EstimateSpelling {
    func run() throws { try estimateRun.run() }
}
