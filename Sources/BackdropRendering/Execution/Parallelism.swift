import COpenMP
import Dispatch

/// Which thread machinery runs the row bands of a pass.
public enum Scheduler: String, CaseIterable, Sendable, Codable {
    /// OpenMP (`#pragma omp parallel for`, static schedule) with exactly `threads` threads. The default: its
    /// workers wait for the next region by spinning, so the fast path's short regions start sooner than
    /// libdispatch's; `Reports/benchmarks.md` measures both.
    case openMP = "openmp"
    /// libdispatch's `concurrentPerform`: the work is cut into `threads` bands; libdispatch runs at most one
    /// per core at a time.
    case dispatch
}

/// How a pass's rows are spread over threads. The split never changes a result: every output row is
/// computed by the same code from the same inputs whatever band it falls in.
public struct Parallelism: Sendable, Equatable {
    /// The thread machinery.
    public var scheduler: Scheduler
    /// Row bands worked on at once (≥ 1).
    public var threads: Int
    /// When set, each band is worked in up to ``cancellablePieces`` pieces and the pieces not yet started once it is
    /// cancelled are skipped: a pass stops within a piece's time rather than running to its end (the preview's
    /// `--render-timeout` let a running pass go on for 2.8 s of CPU). A skipped piece leaves its rows unwritten, so
    /// whoever sets it must discard the output once it is cancelled (``Renderer`` and `PreparedRender` do). The
    /// pieces do not change a result: rows are computed by the same code whatever range they fall in.
    public var cancellation: RenderCancellation?

    /// The most pieces a band is cut into when ``cancellation`` is set.
    public static let cancellablePieces = 16

    /// `threads` bands at once on `scheduler` (at least 1).
    public init(scheduler: Scheduler = .openMP, threads: Int = Parallelism.defaultThreadCount) {
        self.scheduler = scheduler
        self.threads = max(1, threads)
    }

    /// The same machinery and threads; the cancellation is not compared.
    public static func == (left: Parallelism, right: Parallelism) -> Bool {
        left.scheduler == right.scheduler && left.threads == right.threads
    }

    /// One thread: for tests and tiny images.
    public static let serial = Parallelism(threads: 1)

    /// The number of cores OpenMP sees (OMP_NUM_THREADS when set).
    public static var defaultThreadCount: Int { max(1, Int(bd_openmp_max_threads())) }

    /// For a process about to `_exit` (which runs no exit handler): true when nothing of OpenMP's runtime outlives
    /// the process (it never started, or this thread alone used it and a hard pause shut it down, removing libomp's
    /// registration file in /dev/shm); false when other threads used it too, and the process must end with `exit`,
    /// whose handler shuts it down. Call it once, from one thread, after the last parallel region.
    package static func endProcess() -> Bool { bd_openmp_end_process() == 1 }

    /// Calls `body` with contiguous, disjoint ranges that together cover `0..<count`, possibly on several threads
    /// at once, and returns when all have returned. `body` must not be isolated to an actor: it runs on workers.
    public func forEachBand(of count: Int, minimumBandSize: Int = 1, _ body: @Sendable (Range<Int>) -> Void) {
        guard count > 0 else { return }
        if let cancellation {
            if cancellation.isCancelled { return }
            var uncancellable = self
            uncancellable.cancellation = nil
            uncancellable.forEachBand(of: count, minimumBandSize: minimumBandSize) { band in
                let pieces = max(1, min(Self.cancellablePieces, band.count / max(1, minimumBandSize)))
                for piece in 0..<pieces {
                    if cancellation.isCancelled { return }
                    let start = band.lowerBound + band.count * piece / pieces
                    body(start..<(band.lowerBound + band.count * (piece + 1) / pieces))
                }
            }
            return
        }
        let bands = min(threads, max(1, count / max(1, minimumBandSize)))
        if bands == 1 { body(0..<count); return }
        @Sendable func band(_ index: Int) -> Range<Int> {
            (count * index / bands)..<(count * (index + 1) / bands)
        }
        switch scheduler {
        case .dispatch:
            DispatchQueue.concurrentPerform(iterations: bands) { body(band($0)) }
        case .openMP:
            withoutActuallyEscaping(body) { body in
                var job = OpenMPJob(body: body, bands: bands, count: count)
                withUnsafeMutablePointer(to: &job) { pointer in
                    bd_openmp_parallel_for(Int64(bands), Int32(bands), pointer) { context, index in
                        let job = context!.assumingMemoryBound(to: OpenMPJob.self).pointee
                        let i = Int(index)
                        job.body((job.count * i / job.bands)..<(job.count * (i + 1) / job.bands))
                    }
                }
            }
        }
    }
}

/// The least work a band is given (`forEachBand`'s `minimumBandSize`), in one place: a small picture is not cut
/// into bands whose threads cost more to start than their work. Bands never change a result, only the speed.
extension Parallelism {
    /// Rows, for a pass that computes each row (a composite, a canvas fill, ImageEffects' steps): 16.
    package static let minimumRowsPerBand = 16
    /// Rows, for a pass that only copies them (ImageEffects' picture outside its frame): 64.
    package static let minimumCopiedRowsPerBand = 64
    /// Pixels, for a pass over a flat run of pixels (ImageEffects' saturation matrix): 4096.
    package static let minimumPixelsPerBand = 4096
}

/// What the C parallel-for passes back to each call: the Swift closure and how the work is cut.
private struct OpenMPJob {
    let body: @Sendable (Range<Int>) -> Void
    let bands: Int
    let count: Int
}
