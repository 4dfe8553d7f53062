import ArgumentParser
import Backdrop
import Foundation

/// `backdrop render`: one subcommand per mode (picture, image-effects, scene, batch), each taking only the options
/// its kind of request takes. Today's spelling (`backdrop render IN.png -o OUT.png --algorithm image-effects …`,
/// `--scene`, `--output-dir`) is the hidden default subcommand, ``EarlierSpelling``, whose arguments
/// ``RenderByOptionsCommand`` parses and runs: the same request.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a blur over a picture, Apple's ImageEffects, a whole scene, or many pictures.",
        discussion: """
            Each mode is a subcommand with the options it takes; 'backdrop render MODE --help' lists them. The \
            spelling of earlier versions, options alone (backdrop render photo.png -o out.png --style dark, \
            --algorithm image-effects, --scene NAME, --output-dir DIR), still works and draws the same bytes.

            Examples:
              backdrop render picture in.png -o out.png --style dark --frame 0,600,1024,168
              backdrop render picture in.png -o out.png --vibrancy glyphs.png --at 60,120
              backdrop render image-effects in.png -o o.png --style tint --tint 0.2,0.4,0.9
              backdrop render scene navbar-tabbar-blur --device iphone-5 -o s.png
              backdrop render batch shots/ more.png --output-dir previews --style dark
            """,
        subcommands: [
            RenderPictureCommand.self, RenderImageEffectsCommand.self, RenderSceneCommand.self,
            RenderBatchCommand.self, EarlierSpelling<RenderByOptionsCommand>.self,
        ],
        defaultSubcommand: EarlierSpelling<RenderByOptionsCommand>.self)
}

/// `backdrop render` as earlier versions spelled it: every mode's options in one command, the mode chosen by
/// `--algorithm`, `--scene` and `--output-dir`. Hidden from the help; it decodes into the same ``RenderRun`` as the
/// modes, and the request refuses the combinations the modes cannot spell, in the same words as always.
struct RenderByOptionsCommand: RenderSpelling {
    static let configuration = CommandConfiguration(
        commandName: "by-options", _superCommandName: "backdrop render",
        abstract: "Earlier versions' spelling: the mode chosen by options (--algorithm, --scene, --output-dir).",
        version: BackdropCommand.configuration.version, shouldDisplay: false)

    @Argument(
        help: ArgumentHelp(
            "The picture (\(ImageFormat.names); - reads standard input) to render over; with --output-dir, any number of them or folders of them.",
            valueName: "input"))
    var inputs: [String] = []

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Where to write the picture (.png, .jpg, .webp; - writes a PNG to standard output); for one input.",
            valueName: "path"))
    var output: String?

    @Option(
        name: .customLong("output-dir"),
        help: ArgumentHelp("Render every input into this folder (render batch).", valueName: "dir"))
    var outputDir: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("With --output-dir: files rendered at once.", valueName: "n"))
    var jobs: Int = BatchRender.defaultJobs

    @OptionGroup var blur: BlurOptions

    @Option(help: ArgumentHelp("system or image-effects (render image-effects).", valueName: "name"))
    var algorithm: RenderRequest.Algorithm = .system

    @Option(help: ArgumentHelp("With --algorithm image-effects: where the blur shows.", valueName: "mask.png"))
    var mask: String?

    @Option(help: ArgumentHelp("Draw a whole screen instead (render scene).", valueName: "scene"))
    var scene: String?

    @Option(help: ArgumentHelp("With --scene: an Instruments overlay.", valueName: "overlay"))
    var show: SceneOverlay?

    @Flag(help: "With --scene: draw the frame after the first.")
    var steady = false

    @Option(
        name: .customLong("scroll-offset"), parsing: .unconditional,
        help: ArgumentHelp("With --scene: move the layers that scroll up by this many points.", valueName: "points"))
    var scrollOffset: Double?

    @OptionGroup var timing: TimingOptions
    @OptionGroup var encoding: EncodingOptions

    /// The request these options make, defaults left out (`--style light` is no style given).
    var request: RenderRequest {
        var request = RenderRequest()
        blur.fill(&request)
        (request.scene, request.show) = (scene, show?.rawValue)
        (request.steady, request.scrollOffset) = (steady ? true : nil, scrollOffset)
        request.algorithm = algorithm == .system ? nil : algorithm.rawValue
        request.mask = mask
        return request
    }

    var renderRun: RenderRun {
        RenderRun(
            request, inputs: inputs, output: output, outputDirectory: outputDir, jobs: jobs, timingRuns: timing.runs,
            encoding: encoding)
    }
}
