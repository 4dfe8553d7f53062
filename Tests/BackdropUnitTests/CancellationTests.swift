import Backdrop
import BackdropTestSupport
import Synchronization
import Testing

/// Issue 43, defect 7: `--render-timeout 1` let the running pass finish (2.8 s of CPU after the 503). A cancellation
/// now stops a pass between the pieces of its bands, on both schedulers, and the render throws.
@Suite("Cancelling a render inside a pass")
struct CancellationTests {
    @Test(arguments: Scheduler.allCases)
    func aCancelledPassStartsNoFurtherPiece(scheduler: Scheduler) {
        let cancellation = RenderCancellation()
        var parallelism = Parallelism(scheduler: scheduler, threads: 2)
        parallelism.cancellation = cancellation
        let rows = Atomic<Int>(0)
        parallelism.forEachBand(of: 3200, minimumBandSize: 16) { band in
            cancellation.cancel()
            rows.add(band.count, ordering: .relaxed)
        }
        // Each of the two bands (1600 rows) in 16 pieces of 100: at most the piece each thread had begun.
        #expect(rows.load(ordering: .relaxed) <= 2 * 100)
        #expect(rows.load(ordering: .relaxed) >= 100)
    }

    @Test func withoutACancellationEveryRowIsWorkedOnce() {
        var parallelism = Parallelism(threads: 2)
        parallelism.cancellation = RenderCancellation()
        let rows = Atomic<Int>(0)
        parallelism.forEachBand(of: 3201, minimumBandSize: 16) { band in rows.add(band.count, ordering: .relaxed) }
        #expect(rows.load(ordering: .relaxed) == 3201)
    }

    @Test func aRenderCancelledBeforeItStartsThrows() throws {
        let cancellation = RenderCancellation()
        cancellation.cancel()
        let source = noiseImage(width: 64, height: 48)
        #expect(throws: BackdropError.self) {
            try Renderer().render(
                source, effect: Effect(style: .light, frame: PixelRect(x: 0, y: 0, width: 64, height: 48)),
                cancellation: cancellation)
        }
    }

    /// The pieces change no byte: a render that could have been cancelled equals one that could not.
    @Test(arguments: [Effect.Quality.fast, .exact])
    func piecesChangeNoByte(quality: Effect.Quality) throws {
        let source = noiseImage(width: 301, height: 203)
        var effect = Effect(style: .dark, frame: PixelRect(x: 10, y: 20, width: 250, height: 170))
        effect.quality = quality
        let plain = try Renderer(parallelism: Parallelism(threads: 2)).render(source, effect: effect)
        let cancellable = try Renderer(parallelism: Parallelism(threads: 2)).render(
            source, effect: effect, cancellation: RenderCancellation())
        #expect(plain.samples == cancellable.samples)
    }
}
