import ArgumentParser
import Backdrop
import Foundation

/// `backdrop estimate`: one subcommand per mode (view, scene, explain, run, find, model), each taking only the
/// options its mode reads. Today's spelling (`backdrop estimate --scene S --explain …`) is the hidden default
/// subcommand, ``EarlierSpelling``, whose arguments ``EstimateByOptionsCommand`` parses and runs: the same
/// ``EstimateRun``.
struct EstimateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "estimate",
        abstract:
            "Predict what an effect view or a whole screen costs on a device's GPU: passes, idle gaps, frame rate, GPU use.",
        discussion: """
            Prices the passes of one frame with Backdrop's cost model (a roofline of fill, ALU and memory per pass and \
            a fixed cost per draw on the renderer; the tiler binning each render ahead of it, except a render that \
            samples the one before it, which waits; a framebuffer store and load when the frame leaves the screen and \
            returns; see 'estimate model'). Every figure is a prediction; the iPad (3rd generation) and iPad Air are \
            the devices the published blur figures measured.

            Each mode is a subcommand with the options it takes; 'backdrop estimate MODE --help' lists them. The \
            spelling of earlier versions, options alone (backdrop estimate --device ipad-air --style dark, --scene, \
            --explain, --duration, --find, --model), still works and prints the same.

            Examples:
              backdrop estimate view --device ipad-air --style extraLight --vibrancy
              backdrop estimate view --all-devices --style light
              backdrop estimate scene photos-table-shadows --all-devices
              backdrop estimate explain contacts-table-masks --device iphone-4s
              backdrop estimate scene s.json --device iphone-5 --format svg -o t.svg
              backdrop estimate run s.json --device iphone-5 --duration 2 --scroll 600
              backdrop estimate find s.json thumbnail.shadow.radius --device iphone-4s
              backdrop estimate model --format svg -o fit.svg
            """,
        subcommands: [
            EstimateViewCommand.self, EstimateSceneCommand.self, EstimateExplainCommand.self,
            EstimateRunCommand.self, EstimateFindCommand.self, EstimateModelCommand.self,
            EarlierSpelling<EstimateByOptionsCommand>.self,
        ],
        defaultSubcommand: EarlierSpelling<EstimateByOptionsCommand>.self)
}

/// `--device ID`, `--all-devices` or `--devices FILTER`: the devices a mode prices on.
struct DeviceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The device id (see 'backdrop devices'), e.g. --device ipad-air.", valueName: "id"))
    var device: String?

    @Flag(name: .customLong("all-devices"), help: "Estimate on every device of the table.")
    var allDevices = false

    @Option(
        name: .customLong("devices"),
        help: ArgumentHelp(
            "Estimate on the devices a filter selects: a comma list of families (iphone, ipad, ipod), years (2017, "
                + "2017+, 2014-2016), evidence labels (measured, scaled, extrapolated) and ids; given again, both must match.",
            valueName: "filter"))
    var filters: [String] = []
}

/// `--path`: which path the effect views are priced on.
struct PricedPathOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "auto (the model's decision for the device), blur (even where the device would not draw it), or tint-only.",
            valueName: "path"))
    var path: Estimator.PathChoice = .auto
}

/// `-o PATH`: where a mode's report goes.
struct ReportOutputOptions: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Write to this file (atomically) instead of standard output.", valueName: "path"))
    var output: String?
}

/// The scene a scene mode prices.
struct PricedSceneOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp("A built-in scene's name (see 'backdrop scenes') or a JSON scene file.", valueName: "scene"))
    var scene: String
}

/// `backdrop estimate view`: one effect view.
struct EstimateViewCommand: EstimateSpelling {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Price one effect view of a style: its passes, idle gaps, frame time and the blur decision.",
        discussion: """
            --path auto takes the model's decision for the device: blur when its full-screen light blur is \
            predicted to take at most 2/3 of the 16.67 ms frame, tint-only otherwise. Apple's iOS 7 policy is shown \
            beside it, with the reason where they differ. --path blur prices the blur even where the device would \
            not draw it (as the published iPad 3 figures did).

            Examples:
              backdrop estimate view --device ipad-air --style extraLight --vibrancy
              backdrop estimate view --all-devices --style light
              backdrop estimate view --device iphone-5 --view 320x64 --format svg -o t.svg
              backdrop estimate view --all-devices --style systemMaterial --reduce-transparency
            """ + OutputGlossary.view)

    @OptionGroup var devices: DeviceOptions
    @OptionGroup var style: StyleOptions

    @Flag(help: "Cover the view with vibrant content (passes 6 and 7).")
    var vibrancy = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The view's size in points, e.g. --view 320x64 (default: the whole screen).", valueName: "WxH"))
    var view: String?

    @OptionGroup var path: PricedPathOptions
    @OptionGroup var reduceTransparency: ReduceTransparencyOption

    @Option(help: ArgumentHelp("text (tables), json, or svg (one device's frame timeline).", valueName: "format"))
    var format: OutputFormat = .text

    @OptionGroup var output: ReportOutputOptions

    var estimateRun: EstimateRun {
        EstimateRun(
            device: devices.device, allDevices: devices.allDevices, deviceFilters: devices.filters, style: style.choice,
            vibrancy: vibrancy,
            view: view, path: path.path, accessibility: reduceTransparency.settings, format: format,
            output: output.output)
    }
}

/// `backdrop estimate scene SCENE`: one frame of a whole screen.
struct EstimateSceneCommand: EstimateSpelling {
    static let configuration = CommandConfiguration(
        commandName: "scene",
        abstract: "Price one frame of a whole screen: a built-in scene or a JSON scene file.",
        discussion: """
            Examples:
              backdrop estimate scene photos-table-shadows --device iphone-4s
              backdrop estimate scene photos-table-shadows --all-devices
              backdrop estimate scene navbar-tabbar-blur --device iphone-5 --reduce-transparency
            """ + OutputGlossary.scene)

    @OptionGroup var scene: PricedSceneOptions
    @OptionGroup var devices: DeviceOptions
    @OptionGroup var path: PricedPathOptions
    @OptionGroup var reduceTransparency: ReduceTransparencyOption

    @Option(help: ArgumentHelp("text (tables), json, or svg (one device's frame timeline).", valueName: "format"))
    var format: OutputFormat = .text

    @OptionGroup var output: ReportOutputOptions

    var estimateRun: EstimateRun {
        EstimateRun(
            device: devices.device, allDevices: devices.allDevices, deviceFilters: devices.filters, scene: scene.scene,
            path: path.path,
            accessibility: reduceTransparency.settings, format: format, output: output.output)
    }
}

/// `backdrop estimate explain SCENE`: what bounds a scene's frame and what fixing each layer would save.
struct EstimateExplainCommand: EstimateSpelling {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Say what bounds a scene's frame, which layers cause offscreen passes, and what fixing each saves.")

    @OptionGroup var scene: PricedSceneOptions
    @OptionGroup var devices: DeviceOptions
    @OptionGroup var path: PricedPathOptions

    @Option(help: ArgumentHelp("text or json.", valueName: "format"))
    var format: TableFormat = .text

    @OptionGroup var output: ReportOutputOptions

    var estimateRun: EstimateRun {
        EstimateRun(
            device: devices.device, allDevices: devices.allDevices, deviceFilters: devices.filters, scene: scene.scene,
            explain: true,
            path: path.path, format: OutputFormat(rawValue: format.rawValue) ?? .text, output: output.output)
    }
}

/// `backdrop estimate run SCENE --duration S`: a scene over time, frame by frame.
struct EstimateRunCommand: EstimateSpelling {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Simulate a scene over time at 60 Hz: every frame, the fps, dropped frames, the longest frames.",
        discussion: """
            A frame is drawn at each vsync of the 60 Hz display (triple buffering), the layers with "scrolls" moving \
            up --scroll points a second (down when negative), the rasterization cache keeping textures for 100 ms \
            and 2.5 screens, each frame shown at the first vsync after the GPU finishes it. It reports every frame \
            and the run's fps, dropped frames, longest and 95th percentile frame; --format svg draws the frame times \
            against the 16.67 ms line (see docs/scenes.md). With --all-devices the text is one table, a row per \
            device.

            Examples:
              backdrop estimate run s.json --device iphone-5 --duration 2 --scroll 600
              backdrop estimate run photos-table-shadows --all-devices --duration 2
            """ + OutputGlossary.run)

    @OptionGroup var scene: PricedSceneOptions
    @OptionGroup var devices: DeviceOptions

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("How many seconds of frames to simulate.", valueName: "seconds"))
    var duration: Double

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How fast the layers that scroll move up, points a second (negative: down; default 0).",
            valueName: "pt/s"))
    var scroll: Double?

    @OptionGroup var path: PricedPathOptions

    @Option(help: ArgumentHelp("text (tables), json, or svg (one device's frame times).", valueName: "format"))
    var format: OutputFormat = .text

    @OptionGroup var output: ReportOutputOptions

    var estimateRun: EstimateRun {
        EstimateRun(
            device: devices.device, allDevices: devices.allDevices, deviceFilters: devices.filters, scene: scene.scene,
            duration: duration,
            scroll: scroll, path: path.path, format: format, output: output.output)
    }
}

/// `backdrop estimate find SCENE LAYER.PROPERTY`: the largest value that keeps a frame rate.
struct EstimateFindCommand: EstimateSpelling {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract: "Find the largest value of a scene layer's property that keeps a frame rate, with its range.")

    @OptionGroup var scene: PricedSceneOptions

    @Argument(
        help: ArgumentHelp(
            "LAYER.PROPERTY: shadow.radius, repeat.count, frame.width or frame.height of a layer, e.g. thumbnail.shadow.radius.",
            valueName: "layer.property"))
    var property: String

    @OptionGroup var devices: DeviceOptions

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The frame rate to keep (1–60, default 60).", valueName: "fps"))
    var fps: Double?

    @OptionGroup var path: PricedPathOptions

    @Option(help: ArgumentHelp("text or json.", valueName: "format"))
    var format: TableFormat = .text

    @OptionGroup var output: ReportOutputOptions

    var estimateRun: EstimateRun {
        EstimateRun(
            device: devices.device, allDevices: devices.allDevices, deviceFilters: devices.filters, scene: scene.scene,
            find: property, fps: fps,
            path: path.path, format: OutputFormat(rawValue: format.rawValue) ?? .text, output: output.output)
    }
}

/// `backdrop estimate model`: the cost model itself.
struct EstimateModelCommand: EstimateSpelling {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Print the cost model: its coefficients and every figure, fitted or held out, against its prediction."
    )

    @Flag(
        help:
            "Fit the coefficients to the figures again (about a second) and report that fit instead of the stored one."
    )
    var refit = false

    @Option(help: ArgumentHelp("text, json, or svg (the figures against the predictions).", valueName: "format"))
    var format: OutputFormat = .text

    @OptionGroup var output: ReportOutputOptions

    var estimateRun: EstimateRun { EstimateRun(format: format, output: output.output, model: true, refit: refit) }
}

/// `backdrop estimate` as earlier versions spelled it: every mode's options in one command, the mode chosen by
/// `--model`, `--scene`, `--explain`, `--duration` and `--find`. Hidden from the help.
struct EstimateByOptionsCommand: EstimateSpelling {
    static let configuration = CommandConfiguration(
        commandName: "by-options", _superCommandName: "backdrop estimate",
        abstract: "Earlier versions' spelling: the mode chosen by options (--scene, --explain, --duration, --model).",
        version: BackdropCommand.configuration.version, shouldDisplay: false)

    @OptionGroup var devices: DeviceOptions

    @Option(help: ArgumentHelp("A scene (estimate scene).", valueName: "name|file"))
    var scene: String?

    @Flag(help: "With --scene: estimate explain.")
    var explain = false

    @Option(parsing: .unconditional, help: ArgumentHelp("With --scene: estimate run.", valueName: "seconds"))
    var duration: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("With --duration: points a second.", valueName: "pt/s"))
    var scroll: Double?

    @Option(help: ArgumentHelp("With --scene: estimate find.", valueName: "layer.property"))
    var find: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("With --find: the frame rate to keep.", valueName: "fps"))
    var fps: Double?

    @OptionGroup var style: StyleOptions

    @Flag(help: "Cover the view with vibrant content.")
    var vibrancy = false

    @Option(parsing: .unconditional, help: ArgumentHelp("The view's size in points.", valueName: "WxH"))
    var view: String?

    @OptionGroup var path: PricedPathOptions

    @Option(help: ArgumentHelp("text, json, or svg.", valueName: "format"))
    var format: OutputFormat = .text

    @OptionGroup var output: ReportOutputOptions

    @Flag(help: "Print the cost model (estimate model).")
    var model = false

    @Flag(help: "With --model: fit again.")
    var refit = false

    var estimateRun: EstimateRun {
        EstimateRun(
            device: devices.device, allDevices: devices.allDevices, deviceFilters: devices.filters, scene: scene,
            explain: explain,
            duration: duration, scroll: scroll, find: find, fps: fps, style: style.choice, vibrancy: vibrancy,
            view: view, path: path.path, format: format, output: output.output, model: model, refit: refit)
    }
}
