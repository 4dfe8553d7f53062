import ArgumentParser
import Backdrop

// The option groups `backdrop render`'s modes are made of: each mode takes the groups whose fields its kind of
// request takes, so that a combination the request refuses cannot be spelled in the new commands.
//
// Every option whose value is a number or holds numbers is parsed `.unconditional`: `--saturation -1`,
// `--at -20,40` and `--frame -10,0,200,100` are values, not options (a value that is out of range is then refused
// with its own one-line error).

/// The input picture's colour space (`--color-space`): the modes that draw over an input, not a scene's.
struct ColorSpaceOptions: ParsableArguments {
    @Option(
        name: .customLong("color-space"),
        help: ArgumentHelp(
            "srgb (default: an input's colour profile converted to sRGB before the effect, the output tagged sRGB) or keep (drawn in the input's own colour space, its profile written into the output).",
            valueName: "space"))
    var colorSpace: String?
}

/// The system blur's options: the style and the effect view (`render picture`, `render batch picture`).
struct BlurOptions: ParsableArguments {
    @OptionGroup var style: StyleOptions
    @OptionGroup var colorSpace: ColorSpaceOptions

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The view's frame in pixels of the input, x,y,w,h, e.g. --frame 0,600,1024,168 (default: the whole picture).",
            valueName: "x,y,w,h"))
    var frame: String?

    @Option(
        parsing: .unconditional,
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

    @Flag(
        name: .customLong("tint-only"),
        help: "Draw the blur-disabled fallback: the style's tint alone, more opaque (same as --path tint-only).")
    var tintOnly = false

    @Option(
        help: ArgumentHelp(
            "Vibrant content to draw over the effect: a PNG with alpha, any colour type.", valueName: "content.png"))
    var vibrancy: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Where the vibrant content's top-left corner goes, in pixels of the input, e.g. --at 60,120 (default: the frame's corner).",
            valueName: "x,y"))
    var at: String?

    @Option(
        name: .customLong("vibrancy-style"),
        help: ArgumentHelp(
            "Over a system material or glass: the vibrant content's level, label, secondaryLabel, tertiaryLabel, quaternaryLabel, fill, secondaryFill, tertiaryFill or separator (see 'backdrop styles').",
            valueName: "level"))
    var vibrancyStyle: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Output bits per sample: 8 or 16.", valueName: "bits"))
    var depth: Int = 8

    @OptionGroup var reduceTransparency: ReduceTransparencyOption

    @Flag(name: .customLong("increase-contrast"), help: ArgumentHelp(AccessibilityHelp.increaseContrast))
    var increaseContrast = false

    /// Sets `request`'s system-blur fields, defaults left out.
    func fill(_ request: inout RenderRequest) {
        style.fill(&request)
        (request.frame, request.scale, request.device) = (frame, scale, device)
        request.path = path == .auto ? nil : path.rawValue
        (request.exact, request.tintOnly) = (exact ? true : nil, tintOnly ? true : nil)
        (request.vibrancy, request.at, request.vibrancyStyle) = (vibrancy, at, vibrancyStyle)
        request.depth = depth == 8 ? nil : depth
        request.colorSpace = colorSpace.colorSpace
        reduceTransparency.fill(&request)
        request.increaseContrast = increaseContrast ? true : nil
    }
}

/// `--reduce-transparency`, the device's setting under which iOS draws no blur (docs/accessibility.md): one option
/// for every mode that draws or prices effect views (`render picture`, `render scene`, `estimate view`, `estimate
/// scene`), drawn and priced from the same plan.
struct ReduceTransparencyOption: ParsableArguments {
    @Flag(
        name: .customLong("reduce-transparency"),
        help:
            "Draw and price as iOS does with Reduce Transparency on: no blur (iOS 7's styles: the tint opaque; a system material: the backdrop's average colour through its recipe; glass: its face over that average, an approximation), so none of the blur's passes."
    )
    var isOn = false

    var settings: AccessibilitySettings { AccessibilitySettings(reduceTransparency: isOn) }

    /// Sets `request`'s field, left out when off.
    func fill(_ request: inout RenderRequest) { request.reduceTransparency = isOn ? true : nil }
}

/// The help of Increase Contrast (docs/accessibility.md).
enum AccessibilityHelp {
    static let increaseContrast =
        "Draw as iOS does with Increase Contrast on: the vibrancy level (--vibrancy-style) at its raised alpha; nothing else changes."
}

/// Apple's `UIImage+ImageEffects` options (`render image-effects`, `render batch image-effects`): the five style
/// fields it reads, the frame, the scale and the mask.
struct ImageEffectsOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "light, extraLight, dark, tint (with --tint), or custom (with --sigma, --saturation, --tint and --tint-alpha).",
            valueName: "name"))
    var style: String = "light"

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Custom style: the blur radius in points, e.g. --sigma 12.", valueName: "points"))
    var sigma: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Custom style: saturation factor (1 = unchanged), e.g. --saturation -1.", valueName: "factor"))
    var saturation: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("tint and custom styles: the tint colour as r,g,b in 0…1.", valueName: "r,g,b"))
    var tint: String?

    @Option(
        name: .customLong("tint-alpha"), parsing: .unconditional,
        help: ArgumentHelp("Custom style: tint opacity in 0…1.", valueName: "alpha"))
    var tintAlpha: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The region to blur in pixels of the input, x,y,w,h (default: the whole picture).", valueName: "x,y,w,h"))
    var frame: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Pixels per point (default: the device's, or 1).", valueName: "scale"))
    var scale: Double?

    @Option(
        help: ArgumentHelp("Take this device's scale (see 'backdrop devices').", valueName: "id"))
    var device: String?

    @Option(
        help: ArgumentHelp(
            "A PNG of the frame's size whose luminance × alpha is where the blur shows.", valueName: "mask.png"))
    var mask: String?

    @OptionGroup var colorSpace: ColorSpaceOptions

    /// Sets `request`'s image-effects fields, the algorithm among them.
    func fill(_ request: inout RenderRequest) {
        request.algorithm = RenderRequest.Algorithm.imageEffects.rawValue
        request.style = style == "light" ? nil : style
        (request.sigma, request.saturation, request.tint, request.tintAlpha) = (sigma, saturation, tint, tintAlpha)
        (request.frame, request.scale, request.device, request.mask) = (frame, scale, device, mask)
        request.colorSpace = colorSpace.colorSpace
    }
}

/// A scene's options (`render scene`): the screen, the overlay and the moment drawn.
struct SceneDrawingOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("A built-in scene (see 'backdrop scenes') or a JSON scene file.", valueName: "scene"))
    var scene: String

    @Option(help: ArgumentHelp("The device whose screen is drawn (see 'backdrop devices').", valueName: "id"))
    var device: String

    @Option(
        help: ArgumentHelp(
            "auto (the device's path), blur, or tint-only: how the scene's effect views are drawn.",
            valueName: "path"))
    var path: Estimator.PathChoice = .auto

    @Option(
        help: ArgumentHelp(
            "Overlay offscreen, blended, rasterized or misaligned layers as Instruments colours them.",
            valueName: "overlay"))
    var show: SceneOverlay?

    @Flag(help: "Draw the frame after the first (rasterized layers from the cache, a static scene at rest).")
    var steady = false

    @OptionGroup var reduceTransparency: ReduceTransparencyOption

    @Option(
        name: .customLong("scroll-offset"), parsing: .unconditional,
        help: ArgumentHelp(
            "Move the layers that scroll up by this many points (down when negative), as estimate duration does.",
            valueName: "points"))
    var scrollOffset: Double?

    /// Sets `request`'s scene fields.
    func fill(_ request: inout RenderRequest) {
        (request.scene, request.device, request.show) = (scene, device, show?.rawValue)
        request.path = path == .auto ? nil : path.rawValue
        (request.steady, request.scrollOffset) = (steady ? true : nil, scrollOffset)
        reduceTransparency.fill(&request)
    }
}

/// How the pictures are written and read, and the threads: every render mode's.
struct EncodingOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "PNG compression: default, fast (for 16-bit output and pictures over 65,536 pixels wide; other 8-bit ones are written as default), or small (the smallest, dozens of times slower).",
            valueName: "level"))
    var compression: PNGEncoder.Compression = .default

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "With a .jpg, .jpeg or .webp output: its quality, 1–100 (default 90; a WebP at 100 is lossless).",
            valueName: "n"))
    var quality: Int?

    @Option(
        name: .customLong("max-pixels"), parsing: .unconditional,
        help: ArgumentHelp("Refuse pictures with more pixels than this, before decoding them.", valueName: "n"))
    var maxPixels: Int = PNGDecoder.defaultMaxPixels

    @Flag(help: "Allow the output to overwrite a file the command reads (the input, --vibrancy, --mask, the scene).")
    var force = false

    @OptionGroup var threads: ThreadOptions
}

/// `--time N`: the modes that render one picture over one input.
struct TimingOptions: ParsableArguments {
    @Option(
        name: .customLong("time"), parsing: .unconditional,
        help: ArgumentHelp(
            "Also time the render in process: render the decoded input this many more times and print the median and fastest (decoding and encoding excluded).",
            valueName: "n"))
    var runs: Int?
}

/// `--output-format`: what a batch writes, by the format's file extension.
extension OutputPictureFormat: ExpressibleByArgument {
    public init?(argument: String) {
        guard let format = Self.allCases.first(where: { $0.fileExtension == argument.lowercased() }) else {
            return nil
        }
        self = format
    }

    public static var allValueStrings: [String] { allCases.map(\.fileExtension) }
    public var defaultValueDescription: String { fileExtension }
}

/// Many inputs into a folder (`render batch`).
struct BatchOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "Pictures (\(ImageFormat.names), by content), or folders of them (every picture inside).",
            valueName: "input"))
    var inputs: [String] = []

    @Option(
        name: .customLong("output-dir"),
        help: ArgumentHelp(
            "Render every input into this folder (created if missing), named as the input with the output format's extension (a name that has it already is kept).",
            valueName: "dir"))
    var outputDir: String

    @Option(
        name: .customLong("output-format"),
        help: ArgumentHelp("The outputs' format: png (the default), jpg or webp (with --quality).", valueName: "format")
    )
    var outputFormat = OutputPictureFormat.png

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Files rendered at once (default \(BatchRender.defaultJobs), the faster here; each file also uses every core).",
            valueName: "n"))
    var jobs: Int = BatchRender.defaultJobs
}
