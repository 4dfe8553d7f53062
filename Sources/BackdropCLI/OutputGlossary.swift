import Backdrop

/// The words for every column and figure the listing and estimate commands print, in one place: each command's
/// `--help` ends with the entries its output uses, so that no figure in the output goes unexplained
/// (`OutputGlossaryTests` checks every column header against the help of the command that prints it).
enum OutputGlossary {
    /// One entry: the term as the output prints it, and what it means.
    typealias Entry = (term: String, meaning: String)

    /// A help section titled "In the output:" with one line per entry, wrapped by the argument parser.
    static func section(_ entries: [Entry]) -> String {
        // A loop, not joined(separator:): every command's configuration builds its help text on each parse.
        var text = "\n\nIn the output:"
        for entry in entries { text += "\n  \(entry.term): \(entry.meaning)" }
        return text
    }

    static let device: Entry = ("device", "the device's id (see 'backdrop devices')")
    static let pass: Entry = ("pass", "one GPU render pass (capture, downscale, blurs, tint, vibrancy, a layer)")
    static let layer: Entry = ("layer", "the scene layer the pass draws")
    static let startMs: Entry = ("start ms", "when the pass starts, in milliseconds from the frame's start")
    static let ms: Entry = ("ms", "milliseconds the pass takes")
    static let msRange: Entry = ("ms range", "the milliseconds the pass takes, over the 80 % range")
    static let bound: Entry = (
        "bound",
        "what limits the pass or frame: fill (sampling texels), alu (shader arithmetic) or memory (bandwidth)"
    )
    static let pixels: Entry = ("pixels", "pixels the pass writes")
    static let fetches: Entry = ("fetches", "texture fetches the pass makes")
    static let mbMoved: Entry = ("MB moved", "megabytes the pass reads from and writes to memory")
    static let target: Entry = (
        "target", "where the pass draws: an offscreen texture (with its size in MB) or the screen"
    )
    static let idle: Entry = (
        "idle ms",
        "time the GPU waits: the tiler's lead before the first pass, and a gap at each render-target switch "
            + "(a change of the texture drawn into)"
    )
    static let busy: Entry = ("busy ms", "time the GPU spends in passes")
    static let total: Entry = ("total ms", "busy + idle: the frame's GPU time")
    static let left: Entry = ("left ms", "what is left of the 16.67 ms frame (negative: frames are dropped)")
    static let fps: Entry = ("fps", "frames a second, at most 60")
    static let range: Entry = (
        "80 % range",
        "where the true figure lies 4 times in 5, from the model's errors on the published figures"
    )
    static let evidence: Entry = (
        "evidence",
        "measured (the device has a public figure of its own), scaled (its GPU generation has one) or extrapolated "
            + "(neither: a wider range)"
    )
    static let verdict: Entry = ("verdict", "fits, tight (under a quarter of the frame left) or drops frames")
    static let gpuPercent: Entry = ("GPU %", "the share of the 16.67 ms frame the GPU is busy")
    static let screenPx: Entry = ("screen px", "the device's screen in pixels")
    static let path: Entry = ("path", "blur, or tint-only (the tint alone, no blur)")
    static let appleIOS7: Entry = (
        "Apple iOS 7", "what Apple's iOS 7 drew on the device: blur, tint-only, or no iOS 7 (* where the model differs)"
    )
    static let talkError: Entry = (
        "talk ms (error)",
        "the milliseconds Apple measured in WWDC 2014 session 419 (docs/seed-figures.md) and the prediction's error; "
            + "– where none"
    )
    static let measured: Entry = (
        "measured", "the talk's milliseconds for this very view, and the prediction's error"
    )
    static let blur: Entry = ("blur", "the path the model chooses and the one Apple's iOS 7 shipped, with the reason")
    static let offscreen: Entry = ("offscreen", "passes a frame drawn into offscreen textures")
    static let switches: Entry = ("switches", "render-target switches a frame, each an idle gap")
    static let theTalk: Entry = (
        "the talk", "what WWDC 2014 session 419 measured for this screen (docs/seed-figures.md); – where none"
    )

    /// `estimate view`: one device's passes and totals, or a row per device.
    static let view = section([
        device, pass, startMs, ms, msRange, bound, pixels, fetches, mbMoved, target, busy, idle, total, left, fps,
        range,
        evidence, verdict, screenPx, path, appleIOS7, talkError, measured, blur,
    ])

    /// `estimate scene`: one device's passes and totals, or a row per device.
    static let scene = section([
        device, pass, layer, target, startMs, ms, msRange, bound, pixels, mbMoved, busy, idle, total, fps, range,
        evidence,
        gpuPercent, offscreen, switches, verdict, screenPx, path, theTalk,
    ])

    /// `estimate run`: a row per device.
    static let run = section([
        device,
        ("frames drawn", "frames the GPU drew in the run"),
        ("frames shown", "frames that reached the screen (a frame finished late is shown at the next vsync)"),
        ("fps", "frames shown a second"),
        ("dropped", "vsyncs that showed a frame again because the next was not ready"),
        ("longest ms", "the longest frame's GPU time"),
        ("95th percentile ms", "the GPU time 95 frames in 100 stay under"),
        ("over 16.67 ms", "frames whose GPU time passes the 60 Hz frame"),
        ("cache hits", "rasterized layers drawn from the rasterization cache"),
        ("cache misses", "rasterized layers drawn again into it"),
    ])

    /// `compare` and each case of `check`: the figures of one comparison.
    static let comparison = section([
        ("PSNR", "peak signal-to-noise ratio in dB over the four channels: higher is closer, ∞ identical"),
        ("max diff", "the largest difference of one channel, in levels of 255"),
        ("N of M pixels differ", "pixels whose difference counts (see --pixel-threshold and --threshold)"),
        ("SSIM", "structural similarity on luma, 1 for identical pictures (with --min-ssim)"),
        ("tolerance", "the limits the comparison was held to; identical when none was given"),
        ("[0.042 s]", "(check) the seconds the case took"),
    ])

    /// `devices`.
    static let devices = section([
        ("id", "what --device takes"),
        ("device", "the device's name"),
        ("GPU", "its graphics processor"),
        ("MHz", "the GPU's clock in megahertz (a published estimate)"),
        ("texels/clock", "texels its texture units sample each clock"),
        ("fill Mtexels/s", "the model's fill rate, millions of texels a second (texels/clock × MHz × efficiency)"),
        ("measured", "the fill rate GLBenchmark measured, where published; – where none"),
        ("GFLOPS", "shader arithmetic, billions of floating-point operations a second"),
        ("GB/s", "memory bandwidth, gigabytes a second"),
        ("screen", "the screen in pixels"),
        ("scale", "pixels per point"),
        ("year", "the year Apple released it"),
        ("last iOS", "the last iOS it runs: a style of a later iOS is a what-if on it"),
        ("iOS 7 blur", "what Apple's iOS 7 drew behind a blur view: blur, tint-only, or no iOS 7"),
        ("evidence", "measured (a public figure of its own checks its price), scaled (one of its GPU's), extrapolated"),
    ])

    /// `styles`.
    static let styles = section(
        [
            ("style", "what --style takes"),
            ("iOS", "the iOS version that introduced it"),
            ("appearance", "light or dark; adaptive styles have one row of each"),
            ("recipe", "an iOS 13 material's CoreMaterial recipe; - for the others"),
            ("sigma (pt)", "the blur's Gaussian σ in points (× the scale for pixels)"),
            ("saturation", "the saturation factor (1 keeps colours as they are)"),
            ("tint (white@alpha)", "the tint's grey level, 0 black to 1 white, and its opacity: 0.11@0.73"),
            ("brightness", "a material's brightness, added to each channel"),
            ("luminance", "a material's luminance curve: its amount, then its four values"),
            ("evidence", "measured, from Apple's files, derived, or approximation"),
        ]
            + VibrancyLevel.allCases.map { level in
                (
                    level.rawValue,
                    "the colour matrix --vibrancy-style \(level.rawValue) applies over the row's recipe or glass"
                )
            })
}
