import Backdrop
import Foundation
import Testing

/// Frames over time (``SceneRun``): the rasterization cache (seed O2), static screens (B5), presentation at vsyncs
/// (F1), and a uniform run against the one-frame estimate.
@Suite("Scenes over time")
struct SceneRunTests {
    static let ipod = Device.named("ipod-touch-5")!

    static func run(_ name: String, on device: Device = ipod, seconds: Double = 1, scroll: Double = 0) throws
        -> SceneRun
    {
        try SceneRun(
            scene: BuiltInScenes.named(name)!, device: device, durationSeconds: seconds, scrollPointsPerSecond: scroll,
            path: .blur, model: .fitted)
    }

    /// O2: a rasterized layer misses in its first frame and hits after it; a table's reused cells miss.
    @Test func o2RasterizedCellsMissOnceThenHitAndReusedCellsMissAgain() throws {
        let still = try Self.run("photos-table-rasterized")
        let visibleCells = still.frames[0].rasterCacheMisses
        #expect(visibleCells >= 5, "the first frame renders every visible cell")
        #expect(still.frames.dropFirst().allSatisfy { $0.rasterCacheMisses == 0 && $0.rasterCacheHits == visibleCells })
        let scrolling = try Self.run("photos-table-rasterized", scroll: 600)
        let misses = scrolling.frames.dropFirst().map(\.rasterCacheMisses).reduce(0, +)
        // 600 pt/s for a second brings six 100 pt cells in at the bottom: each a new texture, one miss each.
        #expect((5...7).contains(misses), "\(misses) misses as cells are reused")
        #expect(
            scrolling.frames.last!.rasterCacheBytes
                <= ScenePlanner(device: Self.ipod, path: .blur).rasterCacheLimitBytes)
    }

    /// O2: past 2.5 screens the least recently used go first, so four rasterized screens miss every frame.
    @Test func o2FourRasterizedScreensThrashTheCache() throws {
        let run = try Self.run("rasterized-pages")
        #expect(run.frames.allSatisfy { $0.rasterCacheHits == 0 && $0.rasterCacheMisses == 4 })
        let steady = try Estimator().estimate(scene: BuiltInScenes.named("rasterized-pages")!, device: Self.ipod)
        #expect(steady.rasterCacheBytes > steady.rasterCacheLimitBytes)
    }

    /// O2: an entry unused for more than 100 ms is evicted and misses again; one unused for less hits.
    @Test func o2AnEntryUnusedForMoreThan100msMissesAgain() {
        let key = ScenePlanner.RasterKey(path: "badge#0")
        for (gap, hit) in [(99.0, true), (101.0, false)] {
            let cache = RasterCache(limitBytes: 1000)
            cache.startFrame(at: 0)
            #expect(!cache.lookUp(key, bytes: 100))
            cache.evict(unusedSince: gap - SceneRun.rasterCacheLifetimeMs)
            cache.startFrame(at: gap)
            #expect(cache.lookUp(key, bytes: 100) == hit, "unused for \(gap) ms")
        }
        let cache = RasterCache(limitBytes: 250)
        cache.startFrame(at: 0)
        for name in ["a", "b", "c"] { _ = cache.lookUp(ScenePlanner.RasterKey(path: name), bytes: 100) }
        #expect(cache.bytes == 200, "the least recently used went first")
        #expect(!cache.lookUp(ScenePlanner.RasterKey(path: "a"), bytes: 100))
        #expect(!cache.lookUp(ScenePlanner.RasterKey(path: "huge"), bytes: 251), "larger than the cache: never kept")
    }

    /// B5: a static screen draws everything once, then only what animates; with nothing animating, nothing.
    @Test func b5AStaticScreenCostsOnlyItsAnimatingLayersAfterTheFirstFrame() throws {
        let spinner = try Self.run("static-spinner")
        #expect(spinner.frames.count == 60)
        #expect(spinner.frames.dropFirst().allSatisfy { $0.gpuMs < spinner.frames[0].gpuMs / 2 })
        let atRest = try Self.run("control-center")
        #expect(atRest.frames.count == 1, "nothing changes after the first frame: nothing is drawn")
        let shown = try #require(atRest.frames[0].presentedAtMs)
        #expect(atRest.droppedAtMs.allSatisfy { $0 < shown }, "only the first frame can be late: nothing follows it")
    }

    /// F1: a frame is shown at a vsync, one new frame a vsync: every presented interval is a whole number of
    /// vsyncs, on every built-in scene, on a slow and a fast device, scrolling.
    @Test(arguments: BuiltInScenes.names)
    func f1EveryPresentedIntervalIsAWholeNumberOfVsyncs(_ name: String) throws {
        for device in ["ipod-touch-5", "iphone-5s"] {
            let run = try Self.run(name, on: Device.named(device)!, scroll: 480)
            let shown = run.frames.compactMap(\.presentedAtMs)
            for (earlier, later) in zip(shown, shown.dropFirst()) {
                let vsyncs = (later - earlier) / SceneRun.vsyncMs
                #expect(vsyncs >= 0.999 && abs(vsyncs - vsyncs.rounded()) < 1e-6, "\(name) on \(device)")
            }
            for frame in run.frames where frame.presentedAtMs != nil {
                #expect(frame.presentedAtMs! >= frame.startMs + frame.gpuMs - 1e-9, "shown before it was finished")
            }
            let vsyncs = Int((run.durationSeconds * 1000 / SceneRun.vsyncMs).rounded())
            #expect(shown.count + run.droppedFrames <= vsyncs)
        }
    }

    /// A run whose frames are the same (no scroll, or exactly one cell a vsync, 60 × the cell's height a second,
    /// once the first cell is under the bar) shows as many frames a second as the one-frame estimate of that frame says: the GPU runs them back to
    /// back (triple buffering), 1000 / its ms a second.
    @Test(arguments: [
        ("photos-table-shadows", 0.0, 100.0), ("photos-table-shadows", 6000.0, 100.0),
        ("contacts-table-masks", 3600.0, 60.0),
    ])
    func aUniformRunAgreesWithTheOneFrameEstimate(_ name: String, _ scroll: Double, _ cell: Double) throws {
        let scene = BuiltInScenes.named(name)!
        let run = try Self.run(name, seconds: 3, scroll: scroll)
        let offset = scroll == 0 ? 0 : 2 * cell  // from the third vsync on, every frame shows the same cells
        let passes = try ScenePlanner(device: Self.ipod, path: .blur).frame(
            of: scene, steady: true, scrollOffset: offset
        ).passes
        let estimate = CostModel.fitted.frame(of: passes, on: Self.ipod)
        #expect(abs(run.fps - estimate.fps) <= 1, "run \(run.fps) fps, estimate \(estimate.fps) fps")
    }

    @Test func aDurationOrAScrollOutOfRangeIsAnError() {
        for (seconds, scroll) in [(0.0, 0.0), (601, 0), (1, .infinity), (1, 1e9)] {
            #expect(throws: BackdropError.self) { try Self.run("control-center", seconds: seconds, scroll: scroll) }
        }
    }
}
