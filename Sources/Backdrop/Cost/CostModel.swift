/// Prices the GPU passes of a ``RenderPlan`` on a ``Device``: a roofline per pass, plus the idle gaps of render
/// target switches (`../shared/spec/cost-model.md`).
///
/// A pass takes as long as the slowest of the three things it needs, each from the device's published capacity:
/// - **ALU**: (a·fetches + b·pixels + v·filter pixels) floating-point operations at the GPU's peak GFLOPS;
/// - **texture**: fetches at one bilinear fetch per texture unit per clock;
/// - **memory**: ``PassDescriptor/bytesMoved`` at the bus's peak bandwidth × e.
///
/// Between two consecutive passes that render into different targets (either of them offscreen) the GPU idles
/// for ``gapMs`` (seed F3: 0.1–0.2 ms; four gaps for the blur, six with vibrancy, V2). The frame also waits
/// ``tilerMs`` for the tiler to finish the first pass's geometry before the renderer starts (F4).
///
/// The coefficients a, b, v and e are global (the same for every device) and fitted to the seed figures by
/// ``CostModel/fitted``; see ``SeedFigure``.
public struct CostModel: Sendable, Codable, Equatable {
    /// a: shader operations per texture fetch (address arithmetic, filtering, the weighted sum).
    public var flopsPerFetch: Double
    /// b: shader operations per pixel written, beyond its fetches (colour maths, blending in the shader —
    /// PowerVR blends programmably — and the per-fragment overhead).
    public var flopsPerPixel: Double
    /// v: extra shader operations per pixel of the vibrancy filter, Apple's private colour filter (seed V1 says
    /// it is the most expensive pass of all).
    public var vibrancyFilterFlopsPerPixel: Double
    /// e: the share of peak memory bandwidth a pass achieves.
    public var bandwidthEfficiency: Double
    /// Idle time per render-target switch, ms: 0.15, the middle of seed F3's 0.1–0.2 ms. Not fitted.
    public var gapMs: Double
    /// Time the tiler spends on the first pass's geometry (a few full-screen quads) before the renderer can
    /// start, ms. A nominal 0.05 so that the timeline can show F4; not fitted.
    public var tilerMs: Double

    /// A model with the given coefficients.
    public init(flopsPerFetch: Double, flopsPerPixel: Double, vibrancyFilterFlopsPerPixel: Double,
                bandwidthEfficiency: Double, gapMs: Double = 0.15, tilerMs: Double = 0.05) {
        self.flopsPerFetch = flopsPerFetch
        self.flopsPerPixel = flopsPerPixel
        self.vibrancyFilterFlopsPerPixel = vibrancyFilterFlopsPerPixel
        self.bandwidthEfficiency = bandwidthEfficiency
        self.gapMs = gapMs
        self.tilerMs = tilerMs
    }

    /// What limits a pass.
    public enum Bound: String, Sendable, Codable {
        case alu
        case texture
        case memory
    }

    /// The time of one GPU pass on `device`, ms, and what bounds it.
    public func price(_ pass: PassDescriptor, on device: Device) -> (ms: Double, bound: Bound) {
        let pixels = Double(pass.pixelsWritten)
        let filterPixels = pass.kind == .vibrancyFilter ? pixels : 0
        let flops = flopsPerFetch * pass.gpuFetches + flopsPerPixel * pixels + vibrancyFilterFlopsPerPixel * filterPixels
        let seconds: [(Double, Bound)] = [
            (flops / (device.gflops * 1e9), .alu),
            (pass.gpuFetches / device.texelsPerSecond, .texture),
            (Double(pass.bytesMoved) / (device.memoryBandwidthGBps * 1e9 * bandwidthEfficiency), .memory),
        ]
        let slowest = seconds.max { $0.0 < $1.0 }!
        return (slowest.0 * 1e3, slowest.1)
    }

    /// The frame of `plan` on `device`: each GPU pass priced and placed on the renderer's timeline, with the
    /// gaps between them.
    public func frame(of plan: RenderPlan, on device: Device) -> FrameTimeline {
        let gpuPasses = plan.passes.filter(\.isGPURenderPass)
        var time = tilerMs
        var passes: [FrameTimeline.PricedPass] = []
        var gaps: [FrameTimeline.Gap] = []
        for (index, pass) in gpuPasses.enumerated() {
            if index > 0, pass.offscreen || gpuPasses[index - 1].offscreen {
                gaps.append(FrameTimeline.Gap(startMs: time, ms: gapMs))
                time += gapMs
            }
            let (ms, bound) = price(pass, on: device)
            passes.append(FrameTimeline.PricedPass(pass: pass, startMs: time, ms: ms, bound: bound))
            time += ms
        }
        return FrameTimeline(passes: passes, gaps: gaps, tilerMs: tilerMs)
    }
}

/// One frame on the GPU's renderer: the passes in order with their start times, and the idle gaps.
public struct FrameTimeline: Sendable {
    /// A pass with its predicted time.
    public struct PricedPass: Sendable {
        /// The pass as planned.
        public let pass: PassDescriptor
        /// When the renderer starts it, ms from the start of the frame.
        public let startMs: Double
        /// How long it takes, ms.
        public let ms: Double
        /// What limits it.
        public let bound: CostModel.Bound
    }

    /// An idle gap while the GPU switches render targets.
    public struct Gap: Sendable {
        /// When it starts, ms from the start of the frame.
        public let startMs: Double
        /// How long it lasts, ms.
        public let ms: Double
    }

    /// The GPU passes in order.
    public let passes: [PricedPass]
    /// The gaps between them.
    public let gaps: [Gap]
    /// The tiler's lead before the first pass, ms.
    public let tilerMs: Double

    /// Idle time in gaps, ms.
    public var idleMs: Double { gaps.reduce(0) { $0 + $1.ms } }
    /// The whole frame's GPU time, ms: the tiler's lead, the passes and the gaps.
    public var totalMs: Double { tilerMs + passes.reduce(0) { $0 + $1.ms } + idleMs }
}
