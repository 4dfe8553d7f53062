import BackdropImageIO
import BackdropRendering
import Foundation

/// A run of frames over time: a scene on one device for a duration, scrolling at a velocity, each frame
/// planned by ``ScenePlanner`` at its scroll offset and priced by the cost model, with the rasterization cache and
/// the display's vsync between them.
///
/// The model, and why:
/// - **Frames are drawn at vsyncs.** At each vsync (every 1000/60 ms) the render server draws a frame of the
///   screen as it is at that moment (the scroll offset is the velocity × the vsync's time), unless two frames are
///   already waiting for the GPU: triple buffering, one buffer on the display and two in flight, which iOS uses
///   while the screen scrolls (seed F1 and public notes on iOS 8). With double buffering a frame of 20 ms would be
///   shown every second vsync (30 fps); with triple buffering the GPU runs frames back to back and shows 50 a
///   second, what the one-frame estimate's `min(60, 1000 / frame ms)` says.
/// - **The GPU runs frames back to back** in the order they are submitted; a frame takes its priced total
///   (``FrameTimeline/totalMs``: the tiler's lead, idle and busy time).
/// - **A frame is shown at the first vsync after it is finished**, one new frame a vsync; a vsync at which a
///   frame is late (submitted, not finished) shows the previous one again: a dropped frame. A vsync with nothing
///   submitted (a static screen at rest) is not a drop. Every presented interval is a whole number of vsyncs.
/// - **The rasterization cache** (seed O2) holds textures keyed by the layer and its content (a reused table
///   cell is new content): an entry unused for more than 100 ms is evicted before a frame is drawn; a miss renders
///   the texture offscreen and inserts it; past 2.5 screens of RGBA8 the least recently used entries go first, and
///   a texture larger than the whole cache is never kept. LRU because the talk's cache evicts by age (the 100 ms
///   rule) and because a scrolling table reuses the most recently drawn cells; a rule that refused new entries when
///   full would keep cells that have scrolled away.
/// - **Static scenes** (B5) draw everything in their first frame and then only `animating` layers; with nothing
///   animating nothing is submitted.
public struct SceneRun: Sendable, Codable, Equatable {
    /// One frame of the run.
    public struct Frame: Sendable, Codable, Equatable {
        public var index: Int
        /// When the render server drew it (a vsync), ms from the start.
        public var startMs: Double
        /// Its GPU time, ms.
        public var gpuMs: Double
        /// The vsync at which it was shown, ms; nil when the run ended first.
        public var presentedAtMs: Double?
        public var rasterCacheHits: Int
        public var rasterCacheMisses: Int
        /// Bytes the cache holds after the frame.
        public var rasterCacheBytes: Int
    }

    /// The scene's name, the device's id, the duration (s) and the scroll velocity (points a second).
    public var scene: String
    public var device: String
    public var durationSeconds: Double
    public var scrollPointsPerSecond: Double
    public var frames: [Frame]
    /// Frames presented ÷ the duration, as Instruments averages the frame rate.
    public var fps: Double
    /// Vsyncs at which a frame was late and the previous one was shown again.
    public var droppedFrames: Int
    /// When each of those vsyncs came, ms.
    public var droppedAtMs: [Double]
    /// The longest and the 95th-percentile GPU time of a frame, ms.
    public var longestFrameMs: Double
    public var p95FrameMs: Double

    /// The display's refresh period, ms.
    public static let vsyncMs = 1000.0 / 60
    /// Rasterized textures unused for longer are evicted (seed O2).
    public static let rasterCacheLifetimeMs = 100.0
    /// The longest run simulated: 10 minutes of vsyncs keeps a request bounded.
    public static let longestDurationSeconds = 600.0

    /// Simulates `scene` on `device` for `durationSeconds`, scrolling at `scrollPointsPerSecond`, with effect
    /// views on the paths `path` gives (``ScenePlanner/init(device:choice:estimator:)``), priced by `model`.
    public init(
        scene: Scene, device: Device, durationSeconds: Double, scrollPointsPerSecond: Double = 0,
        path: Estimator.PathChoice, model: CostModel
    ) throws(BackdropError) {
        try Self.validate(durationSeconds: durationSeconds, scrollPointsPerSecond: scrollPointsPerSecond)
        self.scene = scene.name
        self.device = device.id
        self.durationSeconds = durationSeconds
        self.scrollPointsPerSecond = scrollPointsPerSecond
        let planner = ScenePlanner(device: device, choice: path, estimator: Estimator(model: model))
        let cache = RasterCache(limitBytes: planner.rasterCacheLimitBytes)
        let vsyncs = Self.vsyncs(durationSeconds: durationSeconds)
        var frames: [Frame] = []
        var gpuEnds: [Double] = []  // when each frame's GPU work ends
        var gpuFree = 0.0
        var waiting: [Int] = []  // submitted, not yet presented, oldest first
        var dropped: [Double] = []
        for tick in 0..<vsyncs {
            let now = Double(tick) * Self.vsyncMs
            // Present the oldest finished frame, one a vsync.
            if let oldest = waiting.first {
                if gpuEnds[oldest] <= now + 1e-9 {
                    frames[oldest].presentedAtMs = now
                    waiting.removeFirst()
                } else {
                    dropped.append(now)
                }
            }
            // Draw a new frame unless two are waiting, or nothing changes on a static screen at rest.
            guard waiting.count < 2 else { continue }
            let steady = !frames.isEmpty
            if scene.redraw == .static, steady, !Self.animates(scene.layers) { continue }
            cache.evict(unusedSince: now - Self.rasterCacheLifetimeMs)
            cache.startFrame(at: now)
            let plan = try planner.frame(
                of: scene, steady: steady, scrollOffset: scrollPointsPerSecond * now / 1000,
                rasterCache: { key, bytes in cache.lookUp(key, bytes: bytes) })
            let timeline = model.frame(of: plan.passes, on: device)
            let start = max(now, gpuFree)
            gpuFree = start + timeline.totalMs
            frames.append(
                Frame(
                    index: frames.count, startMs: now, gpuMs: timeline.totalMs, presentedAtMs: nil,
                    rasterCacheHits: cache.hits, rasterCacheMisses: cache.misses, rasterCacheBytes: cache.bytes))
            gpuEnds.append(gpuFree)
            waiting.append(frames.count - 1)
        }
        self.frames = frames
        droppedFrames = dropped.count
        droppedAtMs = dropped
        fps = Double(frames.filter { $0.presentedAtMs != nil }.count) / durationSeconds
        let times = frames.map(\.gpuMs).sorted()
        longestFrameMs = times.last ?? 0
        p95FrameMs = times.isEmpty ? 0 : times[min(times.count - 1, Int((0.95 * Double(times.count)).rounded(.up)) - 1)]
    }

    /// The shortest run: one vsync, the least that draws a frame (issue 70 item 8: `--duration 1e-300` drew none and
    /// printed "0 drawn … 0.0 fps" with exit 0).
    public static var shortestDurationSeconds: Double { vsyncMs / 1000 }

    /// Throws `.badOption` for a duration or a velocity out of range.
    public static func validate(durationSeconds: Double, scrollPointsPerSecond: Double) throws(BackdropError) {
        guard durationSeconds >= shortestDurationSeconds, durationSeconds <= longestDurationSeconds else {
            throw BackdropError(
                .badOption,
                "--duration \(durationSeconds) is out of range (one frame, \(String(format: "%.4f", shortestDurationSeconds)) s, to \(longestDurationSeconds) s)"
            )
        }
        guard scrollPointsPerSecond.isFinite, abs(scrollPointsPerSecond) <= 100_000 else {
            throw BackdropError(
                .badOption, "--scroll \(scrollPointsPerSecond) is out of range (±100000 points a second)")
        }
    }

    /// The vsyncs of a run of `durationSeconds` (at most ``longestDurationSeconds``): the most frames it draws.
    public static func vsyncs(durationSeconds: Double) -> Int {
        let seconds = durationSeconds.isFinite ? min(max(durationSeconds, 0), longestDurationSeconds) : 0
        return Int((seconds * 1000 / vsyncMs).rounded())
    }

    /// Whether any layer, at any depth, animates.
    static func animates(_ layers: [SceneLayer]) -> Bool {
        layers.contains { $0.animating || animates($0.sublayers) || animates($0.effect?.vibrancy ?? []) }
    }
}

/// The rasterization cache of a run (seed O2): textures by ``ScenePlanner/RasterKey``; ``evict(unusedSince:)``
/// drops those unused since a time; a miss inserts the texture, evicting the least recently used until it fits
/// (ties by key), and a texture larger than the limit is never kept.
public final class RasterCache {
    public let limitBytes: Int
    private var entries: [ScenePlanner.RasterKey: (bytes: Int, lastUsed: Double)] = [:]
    /// The bytes held, and this frame's hits and misses.
    public private(set) var bytes = 0
    public private(set) var hits = 0
    public private(set) var misses = 0
    private var now = 0.0

    /// An empty cache of `limitBytes`.
    public init(limitBytes: Int) { self.limitBytes = limitBytes }

    /// Starts a frame at `time` (ms): look-ups use that time, and the frame's counts start at zero.
    public func startFrame(at time: Double) {
        now = time
        hits = 0
        misses = 0
    }

    /// Removes the entries last used before `time` (ms).
    public func evict(unusedSince time: Double) {
        for (key, entry) in entries where entry.lastUsed < time { remove(key) }
    }

    /// A hit (the entry is used now), or a miss (rendered, inserted, the least recently used evicted to fit).
    public func lookUp(_ key: ScenePlanner.RasterKey, bytes size: Int) -> Bool {
        if entries[key] != nil {
            entries[key]!.lastUsed = now
            hits += 1
            return true
        }
        misses += 1
        guard size <= limitBytes else { return false }
        while bytes + size > limitBytes, let oldest = entries.min(by: { Self.older($0, $1) })?.key { remove(oldest) }
        entries[key] = (size, now)
        bytes += size
        return false
    }

    /// Least recently used first; among equals, by key, so that eviction is deterministic.
    private static func older(
        _ a: (key: ScenePlanner.RasterKey, value: (bytes: Int, lastUsed: Double)),
        _ b: (key: ScenePlanner.RasterKey, value: (bytes: Int, lastUsed: Double))
    ) -> Bool {
        a.value.lastUsed != b.value.lastUsed
            ? a.value.lastUsed < b.value.lastUsed
            : (a.key.path, a.key.reuse) < (b.key.path, b.key.reuse)
    }

    private func remove(_ key: ScenePlanner.RasterKey) {
        if let entry = entries.removeValue(forKey: key) { bytes -= entry.bytes }
    }
}
