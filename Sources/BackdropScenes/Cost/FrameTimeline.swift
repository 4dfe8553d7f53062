import BackdropRendering
import Foundation

/// One frame on the GPU's two stages (seed F4): the tiler's work for each render, the renderer's passes in order
/// with their start times, and the renderer's idle gaps where it waits for the tiler.
public struct FrameTimeline: Sendable {
    /// A pass with its predicted time.
    public struct PricedPass: Sendable {
        /// The pass as the GPU runs it.
        public let gpuPass: GPUPass
        /// When the renderer starts it, ms from the start of the frame.
        public let startMs: Double
        /// How long it takes, ms.
        public let ms: Double
        /// What limits it.
        public let bound: CostModel.Bound
        /// Framebuffer traffic charged to it: stores and loads at render-target switches, the final store.
        public let framebufferBytes: Int

        /// The pass as planned.
        public var pass: PassDescriptor { gpuPass.descriptor }
        /// Whether it draws into an offscreen texture.
        public var isOffscreen: Bool { gpuPass.target != .screen }
        /// Every byte it moves to and from memory.
        public var bytes: Int { pass.bytesMoved + framebufferBytes }
    }

    /// Time the renderer sits idle between two renders, waiting for the tiler to bin the next one.
    public struct Gap: Sendable {
        /// When it starts, ms from the start of the frame.
        public let startMs: Double
        /// How long it lasts, ms.
        public let ms: Double
        /// Whether the next render samples the texture the render before it drew, so that its tiling had to wait
        /// for that render to end (a dependency); otherwise the tiler simply had not caught up.
        public let waitsForTexture: Bool
    }

    /// The tiler binning one render (a run of passes into one target).
    public struct TilerRun: Sendable {
        /// When it starts, ms from the start of the frame.
        public let startMs: Double
        /// How long it takes, ms.
        public let ms: Double
        /// The layer of the render's first pass.
        public let layer: String
        /// Whether it waited for the render before it to end (its first pass samples that render's texture).
        public let waited: Bool
    }

    /// The passes in order.
    public let passes: [PricedPass]
    /// The renderer's idle gaps between renders.
    public let gaps: [Gap]
    /// The tiler's work, one run per render.
    public let tiling: [TilerRun]
    /// The interval the frame's device claims (``Device/predictionInterval``), which ``ranges()`` spans.
    public let interval: PredictionInterval

    /// A frame of `passes`, `gaps` and `tiling`, as ``CostModel/frame(of:on:)`` places them, claiming `interval`.
    public init(passes: [PricedPass], gaps: [Gap], tiling: [TilerRun], interval: PredictionInterval = .stored) {
        self.passes = passes
        self.gaps = gaps
        self.tiling = tiling
        self.interval = interval
    }

    /// The tiler's lead before the renderer starts the first pass, ms (0 for an empty frame).
    public var tilerMs: Double { passes.first?.startMs ?? 0 }

    /// The 60 Hz frame, ms (seed F1).
    public static let budgetMs = 1000.0 / 60

    /// The renderer's idle time in the gaps between renders, ms (seed F3, V2), without the tiler's lead.
    public var gapsMs: Double { gaps.reduce(0) { $0 + $1.ms } }
    /// The renderer's idle time, ms: waiting for the tiler's lead and in the gaps between renders.
    public var idleMs: Double { tilerMs + gapsMs }
    /// Time the renderer works, ms: the passes.
    public var busyMs: Double { passes.reduce(0) { $0 + $1.ms } }
    /// The whole frame's GPU time, ms: the renderer's work and its idle time.
    public var totalMs: Double { busyMs + idleMs }
    /// Render-target switches: consecutive passes into different targets.
    public var renderTargetSwitches: Int {
        zip(passes, passes.dropFirst()).filter { $0.gpuPass.target != $1.gpuPass.target }.count
    }
    /// Passes drawn into offscreen textures.
    public var offscreenPasses: Int { passes.filter(\.isOffscreen).count }
    /// The frame rate of a steady animation or scroll: min(60, 1000 / frame ms), as Instruments' OpenGL ES
    /// driver instrument averages it (`scenes.md`).
    public var fps: Double { totalMs <= Self.budgetMs ? 60 : 1000 / totalMs }
    /// The GPU's utilisation, 0–100: the renderer's busy time ÷ the frame interval at that rate, as the same
    /// instrument's renderer utilisation. Below 100 % even when frames drop, because of the idle gaps (seed O6).
    public var gpuPercent: Double { busyMs / max(totalMs, Self.budgetMs) * 100 }

    /// The frame's figures over a prediction interval, each as [low, high]. The frame time, the busy and idle times
    /// and each pass's time are scaled by the interval's ends; the frame rate follows the frame time's ends. GPU use
    /// takes the busy and the idle time each anywhere in the interval, independently (the fit checks whole frames, not
    /// how a frame splits between work and waiting): its low end is the least busy time over the most idle, its high
    /// end the most busy over the least idle, so it keeps a width when frames drop, where scaling both together
    /// would leave busy ÷ total one value.
    public struct Ranges: Sendable, Codable, Equatable {
        public let totalMs: [Double]
        public let fps: [Double]
        public let gpuPercent: [Double]
        public let busyMs: [Double]
        public let idleMs: [Double]
        /// One [low, high] for each of ``FrameTimeline/passes``, in order.
        public let passMs: [[Double]]
    }

    /// The ranges of this frame over its device's interval (``interval``).
    public func ranges() -> Ranges { ranges(interval) }

    /// The ranges of this frame over `interval`.
    public func ranges(_ interval: PredictionInterval) -> Ranges {
        let low = exp(interval.lowLog), high = exp(interval.highLog)
        func fps(_ factor: Double) -> Double { factor * totalMs <= Self.budgetMs ? 60 : 1000 / (factor * totalMs) }
        func gpu(busy: Double, idle: Double) -> Double {
            let busyMs = busy * self.busyMs
            return busyMs / max(busyMs + idle * idleMs, Self.budgetMs) * 100
        }
        return Ranges(
            totalMs: [low * totalMs, high * totalMs], fps: [fps(high), fps(low)],
            gpuPercent: [gpu(busy: low, idle: high), gpu(busy: high, idle: low)],
            busyMs: [low * busyMs, high * busyMs], idleMs: [low * idleMs, high * idleMs],
            passMs: passes.map { [low * $0.ms, high * $0.ms] })
    }

    /// What bounds a frame: the resource its passes spend the most time on (each pass's whole time counted under
    /// the resource that bounds it, ``CostModel/Bound``), or `idle` when the gaps between render targets take
    /// longer than any of them. It says what a fix must reduce: fewer pixels or blends (fill), cheaper colour maths
    /// (alu), fewer offscreen textures and switches (memory: the framebuffer is stored and loaded at each), or
    /// fewer switches (idle).
    public enum Bound: String, Sendable, Codable, CaseIterable {
        case fill, alu, memory, idle
    }

    /// The frame's time under `bound`, ms: the passes it bounds, or the gaps.
    public func ms(boundBy bound: Bound) -> Double {
        switch bound {
        case .idle: return idleMs
        case .fill: return passes.filter { $0.bound == .fill }.reduce(0) { $0 + $1.ms }
        case .alu: return passes.filter { $0.bound == .alu }.reduce(0) { $0 + $1.ms }
        case .memory: return passes.filter { $0.bound == .memory }.reduce(0) { $0 + $1.ms }
        }
    }

    /// The bound with the most time (fill for an empty frame); ties go to the first of fill, alu, memory, idle.
    public var bound: Bound {
        Bound.allCases.reduce(Bound.fill) { best, next in ms(boundBy: next) > ms(boundBy: best) ? next : best }
    }

    /// Below this much time left in the frame the verdict is "tight": B2's 2 ms left "is not enough".
    public static let tightBelowMs = budgetMs / 4
    /// What the frame leaves for the rest of the UI, ms (negative when it does not fit).
    public var leftMs: Double { Self.budgetMs - totalMs }

    /// Whether a frame fits the 60 Hz budget.
    public enum Verdict: String, Sendable, Codable {
        /// At least a quarter of the frame is left.
        case fits
        /// It fits, with less than a quarter of the frame left for everything else.
        case tight
        /// It takes longer than a frame.
        case dropsFrames = "drops frames"
    }

    /// fits, tight (under ``tightBelowMs`` left) or drops frames (over budget).
    public var verdict: Verdict {
        leftMs < 0 ? .dropsFrames : leftMs < Self.tightBelowMs ? .tight : .fits
    }
}
