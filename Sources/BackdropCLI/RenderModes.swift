import ArgumentParser
import Backdrop

// `backdrop render`'s modes, one subcommand each: a mode takes only the option groups its kind of request takes.

/// `backdrop render picture IN.png -o OUT.png`: the system blur over one PNG.
struct RenderPictureCommand: RenderSpelling {
    static let configuration = CommandConfiguration(
        commandName: "picture",
        abstract: "Render a blur style (UIBlurEffect's look) over one picture.",
        discussion: """
            Inside the frame the picture is blurred (a Gaussian of σ × scale pixels), saturated and tinted; outside \
            it the output equals the input bit for bit. The default is the fast, GPU-style pipeline (downscale, \
            separable blur on the small image, upscale + tint): within 40 dB PSNR of the exact result. --exact runs \
            the full-resolution Gaussian instead.

            --vibrancy draws a PNG with alpha (glyphs, labels, icons) over the finished effect at its own pixel size, \
            with its top-left corner at --at x,y (pixels of the input, negative allowed; default: the frame's \
            corner), clipped to the frame: light styles darken it into the backdrop (plus-darker), dark lightens it \
            (plus-lighter). Content wholly outside the frame is an error.

            --device ID renders what that device would show: its scale (unless --scale is given) and its path as \
            Apple's iOS 7 shipped it (tint-only on the iPhone 4, iPad 2 and iPad 3), or the cost model's decision \
            for a device that never ran iOS 7 (see 'backdrop estimate'). --path blur or --path tint-only overrides it.

            The output is written as RGB when every pixel is opaque, as RGBA otherwise; --compression trades size for \
            speed, and the bytes depend only on the pixels and the compression. On a terminal, the stage in progress \
            (decoding, rendering, encoding) shows on standard error until the file is written.

            Examples:
              backdrop render picture in.png -o out.png --style dark --frame 0,600,1024,168
              backdrop render picture in.png -o out.png --style extraLight --tint-only
              backdrop render picture in.png -o out.png --vibrancy glyphs.png --at 60,120
              backdrop render picture in.png -o out.png --device ipad-3 --time 20
            """)

    @Argument(
        help: ArgumentHelp(
            "The picture to render over (PNG, JPEG, WebP or HEIF, told by content; - reads standard input).",
            valueName: "input"))
    var input: String

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Where to write the picture (.png, .jpg, .webp; written atomically; - writes a PNG to standard output).",
            valueName: "path"))
    var output: String

    @OptionGroup var blur: BlurOptions
    @OptionGroup var timing: TimingOptions
    @OptionGroup var encoding: EncodingOptions

    var renderRun: RenderRun {
        var request = RenderRequest()
        blur.fill(&request)
        return RenderRun(request, inputs: [input], output: output, timingRuns: timing.runs, encoding: encoding)
    }
}

/// `backdrop render image-effects IN.png -o OUT.png`: Apple's `UIImage+ImageEffects` over one PNG.
struct RenderImageEffectsCommand: RenderSpelling {
    static let configuration = CommandConfiguration(
        commandName: "image-effects",
        abstract: "Render Apple's UIImage+ImageEffects sample category over one picture.",
        discussion: """
            Three box blurs, an integer saturation matrix, 8-bit premultiplied, as the sample category's \
            applyBlurWithRadius: draws: --style light, extraLight, dark, tint with --tint, or custom (--sigma is the \
            radius in points); --mask PNG limits where the blur shows. No vibrancy, no tint-only path. See \
            docs/image-effects.md.

            Examples:
              backdrop render image-effects in.png -o o.png --style tint --tint 0.2,0.4,0.9
              backdrop render image-effects in.png -o o.png --style custom --sigma 12 \\
                  --saturation -1 --tint 1,1,1 --tint-alpha 0.2 --mask mask.png
            """)

    @Argument(
        help: ArgumentHelp(
            "The picture to render over (PNG, JPEG, WebP or HEIF, told by content; - reads standard input).",
            valueName: "input"))
    var input: String

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Where to write the picture (.png, .jpg, .webp; written atomically; - writes a PNG to standard output).",
            valueName: "path"))
    var output: String

    @OptionGroup var imageEffects: ImageEffectsOptions
    @OptionGroup var timing: TimingOptions
    @OptionGroup var encoding: EncodingOptions

    var renderRun: RenderRun {
        var request = RenderRequest()
        imageEffects.fill(&request)
        return RenderRun(request, inputs: [input], output: output, timingRuns: timing.runs, encoding: encoding)
    }
}

/// `backdrop render scene SCENE --device ID -o OUT.png`: a whole screen.
struct RenderSceneCommand: RenderSpelling {
    static let configuration = CommandConfiguration(
        commandName: "scene",
        abstract: "Draw a whole screen: a built-in scene or a JSON scene file, on a device.",
        discussion: """
            The scene is drawn at the device's screen size through the planner that 'backdrop estimate scene' \
            prices, its effect views on the path that estimate shows (see docs/scenes.md). --show overlays what \
            Instruments' colour debug options show: offscreen (yellow, deeper for more passes), blended (red; opaque \
            green), rasterized (cache hits green, misses red; --steady for the frame after the first), misaligned \
            (magenta; scaled images yellow).

            Examples:
              backdrop render scene navbar-tabbar-blur --device iphone-5 -o s.png
              backdrop render scene s.json --device iphone-4s --show offscreen -o s.png
            """)

    @OptionGroup var scene: SceneDrawingOptions

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Where to write the picture (.png, .jpg, .webp; written atomically; - writes a PNG to standard output).",
            valueName: "path"))
    var output: String

    @OptionGroup var encoding: EncodingOptions

    var renderRun: RenderRun {
        var request = RenderRequest()
        scene.fill(&request)
        return RenderRun(request, inputs: [], output: output, encoding: encoding)
    }
}

/// `backdrop render batch [picture | image-effects] INPUT… --output-dir DIR`.
struct RenderBatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Render many pictures (and every picture in a folder) into a folder with the same options.",
        discussion: """
            Each input is written into --output-dir under its own name with the --output-format's extension (.png by \
            default), --jobs files at once, with a progress \
            bar on a terminal; a file that fails is reported and the rest go on; the exit code is 1 if any failed. \
            'batch picture' (the default) takes 'render picture''s options, 'batch image-effects' those of \
            'render image-effects'.

            Examples:
              backdrop render batch shots/ more.png --output-dir previews --style dark
              backdrop render batch image-effects shots/ --output-dir previews --style dark
            """,
        subcommands: [RenderBatchPictureCommand.self, RenderBatchImageEffectsCommand.self],
        defaultSubcommand: RenderBatchPictureCommand.self)
}

/// `backdrop render batch picture`: the system blur over many pictures.
struct RenderBatchPictureCommand: RenderSpelling {
    static let configuration = CommandConfiguration(
        commandName: "picture", abstract: "The system blur over many pictures, as 'render picture' draws one.")

    @OptionGroup var batch: BatchOptions
    @OptionGroup var blur: BlurOptions
    @OptionGroup var encoding: EncodingOptions

    var renderRun: RenderRun {
        var request = RenderRequest()
        blur.fill(&request)
        return RenderRun(
            request, inputs: batch.inputs, output: nil, outputDirectory: batch.outputDir,
            outputFormat: batch.outputFormat, jobs: batch.jobs, encoding: encoding)
    }
}

/// `backdrop render batch image-effects`: `UIImage+ImageEffects` over many pictures.
struct RenderBatchImageEffectsCommand: RenderSpelling {
    static let configuration = CommandConfiguration(
        commandName: "image-effects",
        abstract: "Apple's UIImage+ImageEffects over many pictures, as 'render image-effects' draws one.")

    @OptionGroup var batch: BatchOptions
    @OptionGroup var imageEffects: ImageEffectsOptions
    @OptionGroup var encoding: EncodingOptions

    var renderRun: RenderRun {
        var request = RenderRequest()
        imageEffects.fill(&request)
        return RenderRun(
            request, inputs: batch.inputs, output: nil, outputDirectory: batch.outputDir,
            outputFormat: batch.outputFormat, jobs: batch.jobs, encoding: encoding)
    }
}
