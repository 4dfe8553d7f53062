/// Prices GPU passes on a ``Device``: the same model for a blur's passes and for every draw of a scene
/// (`../shared/spec/cost-model.md`, `../shared/spec/scenes.md`).
///
/// The GPUs of the table (PowerVR SGX and Rogue) render in tiles: the frame's geometry is binned first (the
/// tiler), then each tile is shaded in on-chip memory and written to DRAM once. What that means for the price:
/// - **Drawing on screen costs no memory traffic per draw.** Writes, blending and overdraw stay in the tile; the
///   framebuffer is stored once, at the end of the frame.
/// - **A render-target switch is expensive twice.** The GPU idles while it drains and re-targets (seed F3:
///   0.1–0.2 ms a switch, ``gapMs``), and leaving the framebuffer mid-frame forces the tiles drawn so far out to
///   memory, while returning to it loads them back: a store and a load of the whole framebuffer
///   (``FrameTimeline/PricedPass/framebufferBytes``). That is why masks, shadows without a path and group opacity cost far
///   more than their pixels (seed O1, O3, O5, O6). An offscreen pass stores its own texture when it ends.
/// - **A pass takes as long as its slowest resource** (a roofline), plus a fixed cost per draw:
///   - *fill*: texture fetches (a bilinear fetch counts once) or pixels, whichever is larger, plus
///     ``blendedPixelFillCost`` more per blended pixel (PowerVR blends in the shader), at the device's
///     texels per clock × clock (``Device/texelsPerSecond``);
///   - *ALU*: the colour maths of the upscale-and-tint pass (saturation matrix and tint, ``colorOpsPerPixel``)
///     and of the vibrancy filter (``vibrancyFilterOpsPerPixel``), at the GPU's peak GFLOPS. Plain draws have
///     no term here: a textured or solid pixel is limited by fill on every GPU of the table;
///   - *memory*: texels read from textures, offscreen stores and the framebuffer's stores and loads, at
///     ``bandwidthEfficiency`` × the bus's peak bandwidth;
///   - *per draw*: ``clocksPerDraw`` GPU clocks of state set-up and per-object tiling that no pixel pays for.
///
/// Four coefficients are fitted, the same for every device (``CostModel/fitted``, `CostModelFit.swift`); the
/// bandwidth efficiency, the gap and the tiler's lead are fixed and documented. No coefficient names a device.
public struct CostModel: Sendable, Codable, Equatable {
    /// β: fill slots a blended pixel costs beyond an opaque one (the shader reads the tile's colour and blends).
    public var blendedPixelFillCost: Double
    /// c: floating-point operations per pixel of the upscale-and-tint pass (saturation matrix and tint).
    public var colorOpsPerPixel: Double
    /// v: floating-point operations per pixel of the vibrancy filter, Apple's private blend (seed V1: the most
    /// expensive pass of all).
    public var vibrancyFilterOpsPerPixel: Double
    /// d: GPU clocks each draw costs whatever its size: render-state set-up and the tiler's per-object work.
    public var clocksPerDraw: Double
    /// e: the share of peak memory bandwidth that streaming reads and writes achieve. 0.8, typical of LPDDR2 and
    /// LPDDR3 controllers; not fitted (left free, the fit pushes it to 1, which no DRAM reaches).
    public var bandwidthEfficiency: Double
    /// g: idle time per render-target switch, ms: 0.15, the middle of seed F3's 0.1–0.2 ms. Not fitted.
    public var gapMs: Double
    /// t: the tiler's lead before the renderer can start the first pass, ms (seed F4). A nominal 0.05, so that
    /// the timeline shows it; not fitted.
    public var tilerMs: Double

    /// A model with the given coefficients; e, g and t default to their documented values.
    public init(
        blendedPixelFillCost: Double, colorOpsPerPixel: Double, vibrancyFilterOpsPerPixel: Double,
        clocksPerDraw: Double, bandwidthEfficiency: Double = 0.8, gapMs: Double = 0.15, tilerMs: Double = 0.05
    ) {
        self.blendedPixelFillCost = blendedPixelFillCost
        self.colorOpsPerPixel = colorOpsPerPixel
        self.vibrancyFilterOpsPerPixel = vibrancyFilterOpsPerPixel
        self.clocksPerDraw = clocksPerDraw
        self.bandwidthEfficiency = bandwidthEfficiency
        self.gapMs = gapMs
        self.tilerMs = tilerMs
    }

    /// What limits a pass.
    public enum Bound: String, Sendable, Codable {
        /// Texture units and pixel pipelines.
        case fill
        /// Shader arithmetic.
        case alu
        /// DRAM bandwidth.
        case memory
    }

    /// The time of one pass on `device`, ms, and what bounds it; `framebufferBytes` is the framebuffer traffic
    /// the timeline charges to it (stores and loads at switches, the frame's final store).
    public func price(_ pass: PassDescriptor, framebufferBytes: Int = 0, on device: Device) -> (
        ms: Double, bound: Bound
    ) {
        let pixels = Double(pass.pixelsWritten)
        let slots = max(pass.gpuFetches, pixels) + (pass.blends ? blendedPixelFillCost * pixels : 0)
        let ops =
            (pass.kind == .upscaleTint ? colorOpsPerPixel * pixels : 0)
            + (pass.kind == .vibrancyFilter ? vibrancyFilterOpsPerPixel * pixels : 0)
        let bytes = Double(pass.bytesMoved + framebufferBytes)
        let candidates: [(Double, Bound)] = [
            (slots / device.texelsPerSecond, .fill),
            (ops / (device.gflops * 1e9), .alu),
            (bytes / (device.memoryBandwidthGBps * 1e9 * bandwidthEfficiency), .memory),
        ]
        let slowest = candidates.max { $0.0 < $1.0 }!
        let perDraw = clocksPerDraw / (device.gpuClockMHz * 1e6)
        return ((slowest.0 + perDraw) * 1e3, slowest.1)
    }

    /// The frame of `passes`, in the order the GPU runs them, on `device`: each priced and placed on the
    /// renderer's timeline, with a gap at every render-target switch and the framebuffer's traffic charged to the
    /// passes that cause it. An empty list is an empty frame (a static scene at rest).
    public func frame(of passes: [GPUPass], on device: Device) -> FrameTimeline {
        let framebuffer = 4 * device.screen.area
        let lastOnScreen = passes.lastIndex { $0.target == .screen }
        var time = passes.isEmpty ? 0 : tilerMs
        var priced: [FrameTimeline.PricedPass] = []
        var gaps: [FrameTimeline.Gap] = []
        var screenHasContent = false, screenStored = false
        for (index, pass) in passes.enumerated() {
            var framebufferBytes = 0
            if index > 0, passes[index - 1].target != pass.target {
                gaps.append(FrameTimeline.Gap(startMs: time, ms: gapMs))
                time += gapMs
                if passes[index - 1].target == .screen, screenHasContent {
                    framebufferBytes += framebuffer  // the tiles drawn so far go out to memory
                    screenStored = true
                }
                if pass.target == .screen, screenStored {
                    framebufferBytes += framebuffer  // and come back
                }
            }
            if pass.target == .screen { screenHasContent = true }
            if index == lastOnScreen { framebufferBytes += framebuffer }  // the frame's final store
            let (ms, bound) = price(pass.descriptor, framebufferBytes: framebufferBytes, on: device)
            priced.append(
                FrameTimeline.PricedPass(
                    gpuPass: pass, startMs: time, ms: ms, bound: bound,
                    framebufferBytes: framebufferBytes))
            time += ms
        }
        return FrameTimeline(passes: priced, gaps: gaps, tilerMs: passes.isEmpty ? 0 : tilerMs)
    }
}
