import BackdropRendering

/// Prices GPU passes on a ``Device``: the same model for a blur's passes and for every draw of a scene
/// (`docs/cost-model.md`, `docs/scene-format.md`).
///
/// The GPUs of the table (PowerVR SGX and Rogue) render in tiles, in two stages that work at the same time (seed
/// F4): the **tiler** bins a render's geometry into tiles, then the **renderer** shades each tile in on-chip
/// memory and writes it to DRAM once. A *render* is a run of consecutive passes into one target. What that means
/// for the price:
/// - **The tiler works ahead.** It bins the next render while the renderer shades the current one, so a render
///   whose tiling is done starts the moment the renderer is free: a switch to a new target costs no idle time of
///   its own. The tiler spends ``tilerClocksPerDraw`` GPU clocks on each draw (one object, its state and its
///   tile lists); before the first render the renderer waits for it (the lead of F4's timeline).
/// - **A render that samples what the render before it drew must wait for it** (``PassKind/readsEarlierRender``):
///   the driver submits it only once the texture is written out (``dependencyWaitMs``, the flush), and only then
///   can the tiler bin it, so the renderer idles through the flush and the tiling. That is the idle between the
///   passes of a blur (F3, V2) and why a shadow without a path, a chain of three such renders, leaves the GPU idler
///   than a mask, whose mask and content renders do not depend on each other (O5, O6). Apple's OpenGL ES guide:
///   on a tile-based deferred renderer, commands that "require it to render smaller scenes" cost it "much of its
///   efficiency"; the GPU must "flush out those commands immediately".
/// - **Every switch of render target leaves the renderer idle** for at least ``switchMs``, the context switch of
///   seed F3 ("between consecutive passes the GPU sits idle while it switches render targets"): the renderer
///   finishes one render and sets up the next target even when the tiler has binned it already. Renders that do not
///   depend on each other pay it too: O6's masks, whose renders are independent, leave the GPU idle "because
///   context switches leave the GPU idle", and V2 counts six gaps among seven passes, one of them before the
///   vibrant content, which reads nothing earlier.
/// - **Drawing on screen costs no memory traffic per draw.** Writes, blending and overdraw stay in the tile; the
///   framebuffer is stored once, at the end of the frame. Leaving the framebuffer mid-frame forces the tiles drawn
///   so far out to memory, and returning to it loads them back: a store and a load of the whole framebuffer
///   (``FrameTimeline/PricedPass/framebufferBytes``). That is why masks, shadows without a path and group opacity
///   cost far more than their pixels (seed O1, O3, O5, O6). An offscreen pass stores its own texture when it ends.
/// - **A pass takes as long as its slowest resource on the renderer** (a roofline), plus a fixed cost per draw:
///   - *fill*: texture fetches (a bilinear fetch counts once) or pixels, whichever is larger, plus
///     ``blendedPixelFillCost`` more per blended pixel (PowerVR blends in the shader), at the device's
///     texels per clock × clock (``Device/texelsPerSecond``);
///   - *ALU*: the colour maths of the upscale-and-tint pass (saturation matrix and tint, ``colorOpsPerPixel``)
///     and of the vibrancy filter (``vibrancyFilterOpsPerPixel``), at the GPU's peak GFLOPS. Plain draws have
///     no term here: a textured or solid pixel is limited by fill on every GPU of the table;
///   - *memory*: texels read from textures, offscreen stores and the framebuffer's stores and loads, at
///     ``bandwidthEfficiency`` × the bus's peak bandwidth;
///   - *per draw*: ``clocksPerDraw`` GPU clocks of render-state set-up that no pixel pays for.
///
/// Seven coefficients are fitted, the same for every device (``CostModel/fitted``, `CostModelFit.swift`); the
/// bandwidth efficiency is fixed and documented. No coefficient names a device. The GPU's utilisation is the
/// renderer's duty cycle (Instruments' "Renderer Utilization": the share of time spent on fragment work).
public struct CostModel: Sendable, Codable, Equatable {
    /// β: fill slots a blended pixel costs beyond an opaque one (the shader reads the tile's colour and blends).
    public var blendedPixelFillCost: Double
    /// c: floating-point operations per pixel of the upscale-and-tint pass (saturation matrix and tint).
    public var colorOpsPerPixel: Double
    /// v: floating-point operations per pixel of the vibrancy filter, Apple's private blend (seed V1: the most
    /// expensive pass of all).
    public var vibrancyFilterOpsPerPixel: Double
    /// d: GPU clocks of the renderer each draw costs whatever its size: render-state set-up.
    public var clocksPerDraw: Double
    /// k: GPU clocks of the tiler each draw costs: binning one object into the tile lists of its render.
    public var tilerClocksPerDraw: Double
    /// w: ms between the end of a render and the start of tiling the render that samples its texture: the flush
    /// of the texture to memory and the driver's submission of the next render.
    public var dependencyWaitMs: Double
    /// s: ms the renderer idles at least at every switch of render target (the context switch, seed F3).
    public var switchMs: Double
    /// e: the share of peak memory bandwidth that streaming reads and writes achieve. 0.8, typical of LPDDR2 and
    /// LPDDR3 controllers; not fitted (left free, the fit pushes it to 1, which no DRAM reaches).
    public var bandwidthEfficiency: Double
    /// e's value, fixed: 0.8 (Intel's external memory interface handbook: DRAM "typically has an efficiency of
    /// around 70%", 10–92 % with the controller).
    public static let documentedBandwidthEfficiency = 0.8

    /// A model with the given coefficients; e defaults to its documented value.
    public init(
        blendedPixelFillCost: Double, colorOpsPerPixel: Double, vibrancyFilterOpsPerPixel: Double,
        clocksPerDraw: Double, tilerClocksPerDraw: Double, dependencyWaitMs: Double, switchMs: Double,
        bandwidthEfficiency: Double = CostModel.documentedBandwidthEfficiency
    ) {
        self.blendedPixelFillCost = blendedPixelFillCost
        self.colorOpsPerPixel = colorOpsPerPixel
        self.vibrancyFilterOpsPerPixel = vibrancyFilterOpsPerPixel
        self.clocksPerDraw = clocksPerDraw
        self.tilerClocksPerDraw = tilerClocksPerDraw
        self.dependencyWaitMs = dependencyWaitMs
        self.switchMs = switchMs
        self.bandwidthEfficiency = bandwidthEfficiency
    }

    /// Idle shorter than this is no gap (a nanosecond: what floating-point sums leave behind).
    static let shortestGapMs = 1e-6

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
            (ops / (device.effectiveGFLOPS * 1e9), .alu),
            (bytes / (device.memoryBandwidthGBps * 1e9 * bandwidthEfficiency), .memory),
        ]
        let slowest = candidates.max { $0.0 < $1.0 }!
        let perDraw = clocksPerDraw / (device.gpuClockMHz * 1e6)
        return ((slowest.0 + perDraw) * 1e3, slowest.1)
    }

    /// The frame of `passes`, in the order the GPU runs them, on `device`: the tiler's and the renderer's work
    /// for each render placed on their two rows, each pass priced, the framebuffer's traffic charged to the
    /// passes that cause it, and the renderer's idle time where it waits for the tiler. An empty list is an empty
    /// frame (a static scene at rest). The frame claims the device's interval (``Device/predictionInterval``).
    public func frame(of passes: [GPUPass], on device: Device) -> FrameTimeline {
        let framebuffer = 4 * device.screen.area
        let lastOnScreen = passes.lastIndex { $0.target == .screen }
        let clockHz = device.gpuClockMHz * 1e6
        var priced: [FrameTimeline.PricedPass] = []
        var tiling: [FrameTimeline.TilerRun] = []
        var gaps: [FrameTimeline.Gap] = []
        var tilerFree = 0.0, rendererFree = 0.0
        var screenHasContent = false, screenStored = false
        var first = 0
        while first < passes.count {
            var end = first + 1
            while end < passes.count, passes[end].target == passes[first].target { end += 1 }
            let waits =
                first > 0 && passes[first - 1].target != .screen && passes[first].descriptor.kind.readsEarlierRender
            let tilerStart = waits ? max(tilerFree, rendererFree + dependencyWaitMs) : tilerFree
            let tilerMs = tilerClocksPerDraw * Double(end - first) / clockHz * 1e3
            tiling.append(
                FrameTimeline.TilerRun(startMs: tilerStart, ms: tilerMs, layer: passes[first].layer, waited: waits))
            tilerFree = tilerStart + tilerMs
            var time = max(tilerFree, first > 0 ? rendererFree + switchMs : rendererFree)
            if first > 0, time > rendererFree + Self.shortestGapMs {
                gaps.append(FrameTimeline.Gap(startMs: rendererFree, ms: time - rendererFree, waitsForTexture: waits))
            }
            for index in first..<end {
                let pass = passes[index]
                var framebufferBytes = 0
                if index == first, index > 0 {
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
                        gpuPass: pass, startMs: time, ms: ms, bound: bound, framebufferBytes: framebufferBytes))
                time += ms
            }
            rendererFree = time
            first = end
        }
        return FrameTimeline(passes: priced, gaps: gaps, tiling: tiling, interval: device.predictionInterval)
    }
}
