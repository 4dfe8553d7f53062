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
            "The PNG to render over (any colour type and bit depth); with --output-dir, any number of PNGs or folders of them.",
            valueName: "input"))
    var inputs: [String] = []

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Where to write the PNG (written atomically); for one input.", valueName: "path"))
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
    var algorithm: RenderAlgorithm = .system

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

    @Flag(help: "Allow the output to overwrite the input file.")
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
        if scene != nil { return try drawScene() }
        if show != nil || steady || scrollOffset != nil {
            throw BackdropError(.badOption, "--show, --steady and --scroll-offset go with --scene")
        }
        let job = try renderJob()
        guard let outputDir else {
            guard inputs.count == 1, let input = inputs.first, let output else {
                throw BackdropError(
                    .badOption,
                    inputs.count == 1
                        ? "give -o PATH, or --output-dir DIR"
                        : "\(inputs.count) inputs need --output-dir DIR (-o is for one input)")
            }
            if !force, InputFile.same(input, output) {
                throw BackdropError(.badOption, "\(output): is the input file; pass --force to overwrite it")
            }
            print(try job.render(input, to: output, status: .forStandardError()))
            if let timingRuns {
                guard (1...10_000).contains(timingRuns) else {
                    throw BackdropError(.badOption, "--time \(timingRuns) is out of range (1…10000)")
                }
                print(try job.timing(of: input, runs: timingRuns))
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

    /// Everything but the file names, checked once before any file is read.
    func renderJob() throws(BackdropError) -> RenderJob {
        guard depth == 8 || depth == 16 else { throw BackdropError(.badOption, "--depth \(depth) must be 8 or 16") }
        let frameRect = try frame.map { text throws(BackdropError) in try PixelRect.parsed(text, as: "--frame") }
        try PNGDecoder.validate(maxPixels: maxPixels)
        guard !inputs.isEmpty else {
            throw BackdropError(.badOption, "give the PNG to render (see 'backdrop render --help')")
        }
        // The system algorithm's style; image-effects reads the same options its own way (tint is its style).
        let style = algorithm == .imageEffects ? BlurStyle.light : try styleOptions.resolve()
        let parallelism = try threadOptions.resolve()
        if at != nil, vibrancy == nil { throw BackdropError(.badOption, "--at goes with --vibrancy") }
        let targetDevice = try device.map { id throws(BackdropError) in try Device.lookup(id) }
        if tintOnly, path == .blur { throw BackdropError(.badOption, "--tint-only contradicts --path blur") }
        let decoder = PNGDecoder(maxPixels: maxPixels)
        let content = try vibrancy.map { path throws(BackdropError) in try decoder.decodeFile(path) }
        let options = EffectOptions(
            style: style, frame: frameRect, scale: scale, device: targetDevice,
            quality: exact ? .exact : .fast, path: tintOnly ? .tintOnly : path,
            vibrantContentSize: content?.size, vibrancyCorner: at)
        let (effect, deviceNote) = try options.effect()
        var job = RenderJob(
            effect: effect, vibrantContent: content, decoder: decoder, encoder: PNGEncoder(compression: compression),
            depth: depth, renderer: Renderer(parallelism: parallelism), note: deviceNote)
        if algorithm == .imageEffects {
            let conflicting: [(String, Bool)] = [
                ("--exact", exact), ("--vibrancy", vibrancy != nil), ("--tint-only", tintOnly),
                ("--path", path != .auto), ("--depth 16", depth != 8),
            ]
            if let (name, _) = conflicting.first(where: \.1) {
                throw BackdropError(.badOption, "\(name) is for the system algorithm, not image-effects")
            }
            job.imageEffects = try ImageEffectsStyle.resolve(styleOptions.choice)
            job.mask = try mask.map { path throws(BackdropError) in try decoder.decodeFile(path) }
        } else if mask != nil {
            throw BackdropError(.badOption, "--mask goes with --algorithm image-effects")
        }
        return job
    }
}
