import ArgumentParser
import Backdrop
import Foundation

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a blur style over a PNG and write the result as a PNG.",
        discussion: """
            Inside the frame the picture is blurred (a Gaussian of σ × scale pixels), saturated and tinted; outside \
            it the output equals the input bit for bit. The default is the fast, GPU-style pipeline (downscale, \
            separable blur on the small image, upscale + tint): within 40 dB PSNR of the exact result. --exact runs \
            the full-resolution Gaussian instead.

            --vibrancy draws a PNG with alpha (glyphs, labels, icons) over the finished effect at its own pixel size, \
            with its top-left corner at --at x,y (pixels of the input; default: the frame's corner), clipped to the \
            frame: light styles darken it into the backdrop (plus-darker), dark lightens it (plus-lighter). Content \
            wholly outside the frame is an error.

            --algorithm image-effects draws Apple's UIImage+ImageEffects sample category instead (three box blurs, an \
            integer saturation matrix, 8-bit premultiplied; --style light, extraLight, dark, tint with --tint, or \
            custom; --mask PNG); see docs/image-effects.md.

            --device ID renders what that device would show: its scale (unless --scale is given) and its path as \
            Apple's iOS 7 shipped it (tint-only on the iPhone 4, iPad 2 and iPad 3), or the cost model's decision \
            for a device that never ran iOS 7 (see 'backdrop estimate'). --path blur or --path tint-only overrides it.

            The output is written as RGB when every pixel is opaque, as RGBA otherwise; --compression trades size for \
            speed, and the bytes depend only on the pixels and the compression. On a terminal, the stage in progress \
            (decoding, rendering, encoding) shows on standard error until the file is written.

            --scene draws a whole screen instead: a built-in scene (see 'backdrop scenes') or a JSON scene file, at \
            --device's screen size, through the planner that 'backdrop estimate --scene' prices, its effect views on \
            the path that estimate shows (see docs/scenes.md). --show overlays what Instruments' colour debug options \
            show: offscreen (yellow, deeper for more passes), blended (red; opaque green), rasterized (cache hits \
            green, misses red; --steady for the frame after the first), misaligned (magenta; scaled images yellow).

            --output-dir renders many files (and every PNG in a folder given as input) with the same options, with \
            a progress bar on a terminal; a file that fails is reported and the rest go on; the exit code is 1 if \
            any failed.

            Examples:
              backdrop render photo.png -o out.png --style light
              backdrop render photo.png -o out.png --style dark --frame 0,600,1024,168
              backdrop render photo.png -o out.png --style dark --scale 2
              backdrop render photo.png -o out.png --style extraLight --tint-only
              backdrop render photo.png -o out.png --vibrancy glyphs.png --at 60,120
              backdrop render photo.png -o out.png --style light --device ipad-3
              backdrop render shots/ more.png --output-dir previews --style dark
              backdrop render --scene navbar-tabbar-blur --device iphone-5 -o s.png
              backdrop render --scene s.json --device iphone-4s --show offscreen -o s.png
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The PNG to render over (any colour type and bit depth; - reads standard input); with --output-dir, any number of PNGs or folders of them.",
            valueName: "input"))
    var inputs: [String] = []

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Where to write the PNG (written atomically; - writes it to standard output); for one input.",
            valueName: "path"))
    var output: String?

    @Option(
        name: .customLong("output-dir"),
        help: ArgumentHelp(
            "Render every input into this existing folder, under the input's file name; keeps going past a bad file.",
            valueName: "dir"))
    var outputDir: String?

    @Option(
        help: ArgumentHelp(
            "With --output-dir: files rendered at once (default \(BatchRender.defaultJobs), the faster here; each file also uses every core).",
            valueName: "n"))
    var jobs: Int = BatchRender.defaultJobs

    @OptionGroup var styleOptions: StyleOptions

    @Option(
        help: ArgumentHelp(
            "The view's frame in pixels of the input, x,y,w,h, e.g. --frame 0,600,1024,168 (default: the whole picture).",
            valueName: "x,y,w,h"))
    var frame: String?

    @Option(
        help: ArgumentHelp(
            "Pixels per point: σ in pixels is the style's σ × scale, e.g. --scale 2 for a retina screen (default: the device's, or 1).",
            valueName: "scale"))
    var scale: Double?

    @Option(
        help: ArgumentHelp(
            "Render as this device would (see 'backdrop devices'): its scale, and its path as iOS 7 shipped it.",
            valueName: "id"))
    var device: String?

    @Option(
        help: ArgumentHelp("auto (the device's path; blur without --device), blur, or tint-only.", valueName: "path"))
    var path: Estimator.PathChoice = .auto

    @Flag(help: "Run the full-resolution Gaussian instead of the fast GPU-style pipeline (slower; ≥ 50 dB).")
    var exact = false

    @Option(
        help: ArgumentHelp(
            "system (UIBlurEffect's look, the default) or image-effects (Apple's UIImage+ImageEffects sample).",
            valueName: "name"))
    var algorithm: RenderRequest.Algorithm = .system

    @Option(
        help: ArgumentHelp(
            "With --algorithm image-effects: a PNG of the frame's size whose luminance × alpha is where the blur shows.",
            valueName: "mask.png"))
    var mask: String?

    @Flag(
        name: .customLong("tint-only"),
        help: "Draw the blur-disabled fallback: the style's tint alone, more opaque (same as --path tint-only).")
    var tintOnly = false

    @Option(
        help: ArgumentHelp(
            "Vibrant content to draw over the effect: a PNG with alpha, any colour type.", valueName: "content.png"))
    var vibrancy: String?

    @Option(
        help: ArgumentHelp(
            "Where the vibrant content's top-left corner goes, in pixels of the input, e.g. --at 60,120 (default: the frame's corner).",
            valueName: "x,y"))
    var at: String?

    @Option(help: ArgumentHelp("Output bits per sample: 8 or 16.", valueName: "bits"))
    var depth: Int = 8

    @Option(
        help: ArgumentHelp(
            "PNG compression: fast, default (smaller than fast), or small (the smallest, dozens of times slower).",
            valueName: "level"))
    var compression: PNGEncoder.Compression = .default

    @Option(
        name: .customLong("max-pixels"),
        help: ArgumentHelp("Refuse inputs with more pixels than this, before decoding them.", valueName: "n"))
    var maxPixels: Int = PNGDecoder.defaultMaxPixels

    @Flag(help: "Allow the output to overwrite a file the command reads (the input, --vibrancy, --mask, --scene).")
    var force = false

    @Option(
        help: ArgumentHelp(
            "Draw a whole screen instead of rendering over a PNG: a built-in scene or a JSON scene file; needs --device.",
            valueName: "scene"))
    var scene: String?

    @Option(
        help: ArgumentHelp(
            "With --scene: overlay offscreen, blended, rasterized or misaligned layers as Instruments colours them.",
            valueName: "overlay"))
    var show: SceneOverlay?

    @Flag(
        help: "With --scene: draw the frame after the first (rasterized layers from the cache, a static scene at rest)."
    )
    var steady = false

    @Option(
        name: .customLong("scroll-offset"),
        help: ArgumentHelp(
            "With --scene: move the layers that scroll up by this many points, as estimate --duration does.",
            valueName: "points"))
    var scrollOffset: Double?

    @OptionGroup var threadOptions: ThreadOptions

    @Option(
        name: .customLong("time"),
        help: ArgumentHelp(
            "Also time the render in process: render the decoded input this many more times and print the median and fastest (decoding and encoding excluded); for one input.",
            valueName: "n"))
    var timingRuns: Int?

    func run() throws {
        if force { AtomicFile.allowReplacingInputs() }
        // Every option is checked before anything is written.
        if let timingRuns, !(1...10_000).contains(timingRuns) {
            throw BackdropError(.badOption, "--time \(timingRuns) is out of range (1…10000)")
        }
        if scene != nil {
            guard output != nil else { throw BackdropError(.badOption, "--scene needs -o PATH (and --device ID)") }
            if let name = [("--output-dir", outputDir != nil), ("--time", timingRuns != nil)].first(where: \.1)?.0 {
                throw BackdropError(
                    .badOption, "--scene draws the scene's own layers and effect views: leave out \(name)")
            }
        }
        let job = try renderJob()
        guard let outputDir else {
            guard inputs.count == 1 || scene != nil, let output else {
                throw BackdropError(
                    .badOption,
                    inputs.count == 1
                        ? "give -o PATH, or --output-dir DIR"
                        : "\(inputs.count) inputs need --output-dir DIR (-o is for one input)")
            }
            if !force, let input = inputs.first, InputFile.same(input, output) {
                throw BackdropError(.badOption, "\(output): is the input file; pass --force to overwrite it")
            }
            // With -o - standard output carries the PNG alone, so the report lines go to standard error.
            let report: (String) -> Void =
                output == StandardStreams.name
                ? { FileHandle.standardError.write(Data(($0 + "\n").utf8)) } : { print($0) }
            report(try job.render(inputs.first, to: output, status: .forStandardError()))
            if let timingRuns, let input = inputs.first {
                guard (1...10_000).contains(timingRuns) else {
                    throw BackdropError(.badOption, "--time \(timingRuns) is out of range (1…10000)")
                }
                report(try job.timing(of: input, runs: timingRuns))
            }
            return
        }
        guard output == nil else { throw BackdropError(.badOption, "give -o or --output-dir, not both") }
        guard timingRuns == nil else {
            throw BackdropError(.badOption, "--time is for one input (-o), not --output-dir")
        }
        guard (1...64).contains(jobs) else { throw BackdropError(.badOption, "--jobs \(jobs) is out of range (1…64)") }
        let batch = try BatchRender(inputs: inputs, outputDirectory: outputDir, force: force)
        if !batch.run(job, jobs: jobs) { throw ExitCode(1) }
    }

    /// The request these options make, defaults left out (`--style light` is no style given); the first input
    /// stands for all of them.
    var request: RenderRequest {
        var request = RenderRequest()
        styleOptions.fill(&request)
        (request.input, request.scene, request.device, request.show) = (inputs.first, scene, device, show?.rawValue)
        (request.steady, request.scrollOffset) = (steady ? true : nil, scrollOffset)
        request.algorithm = algorithm == .system ? nil : algorithm.rawValue
        (request.frame, request.scale, request.path) = (frame, scale, path == .auto ? nil : path.rawValue)
        (request.exact, request.tintOnly) = (exact ? true : nil, tintOnly ? true : nil)
        (request.vibrancy, request.at, request.mask) = (vibrancy, at, mask)
        request.depth = depth == 8 ? nil : depth
        return request
    }

    /// Everything but the file names, checked once before any input is read: the request prepared (its vibrant
    /// content, mask or scene read), the threads, the encoder.
    func renderJob() throws(BackdropError) -> RenderJob {
        try PNGDecoder.validate(maxPixels: maxPixels)
        let decoder = PNGDecoder(maxPixels: maxPixels)
        let parallelism = try threadOptions.resolve()
        return RenderJob(
            prepared: try request.prepare(files: .paths(decoder: decoder), spelling: .option), decoder: decoder,
            encoder: PNGEncoder(compression: compression), renderer: Renderer(parallelism: parallelism))
    }
}
