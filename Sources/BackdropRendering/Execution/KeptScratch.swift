import Synchronization

/// A frame-sized scratch buffer kept from one render for the next, process-wide.
///
/// Why: an `UIImage+ImageEffects` render needs two frame-sized buffers, its output and the box passes' scratch. With
/// glibc's malloc defaults both come from the heap after the first render, and freeing both leaves a free top of
/// twice the largest buffer malloc has mapped, which it then gives back to the system: every render faulted in
/// 25 MB of fresh pages for the iPad retina frame. In a process with malloc's defaults (a test suite, the preview
/// server, any app; the command-line tool tunes malloc, `bd_prefer_few_page_faults`) the render took 15 ms
/// against 6.6 ms with the pages kept (`swift package benchmark --target Render --filter "image-effects light"`).
/// Keeping the scratch leaves one buffer to free, which malloc keeps.
///
/// Contract: ``withBuffer(count:_:)`` lends `body` a buffer of exactly `count` bytes whose contents are
/// unspecified; the buffer is never shared between two calls at once (a second concurrent call allocates its own).
/// At most one buffer of at most ``largestKeptBytes`` is kept after the call returns, the largest lent.
@_spi(KeptScratch) public final class KeptScratch: Sendable {
    /// The renderer's: keeps up to a 4096 × 4096 RGBA8 frame. Larger ones are freed, so that a huge picture does not
    /// hold its size in memory for the rest of the process.
    public static let shared = KeptScratch(largestKeptBytes: 64 << 20)

    /// The largest buffer kept between calls.
    public let largestKeptBytes: Int
    private let kept = Mutex<[UInt8]?>(nil)

    /// A keeper of buffers up to `largestKeptBytes`.
    public init(largestKeptBytes: Int) { self.largestKeptBytes = largestKeptBytes }

    /// The size of the buffer kept now, 0 when none is.
    public var keptBytes: Int { kept.withLock { $0?.count ?? 0 } }

    /// Runs `body` with a buffer of `count` bytes, the kept one when it is large enough.
    public func withBuffer<Result>(count: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Result) -> Result {
        guard count > 0 else { return body(UnsafeMutableBufferPointer(start: nil, count: 0)) }
        var buffer =
            kept.withLock { kept -> [UInt8]? in
                guard let buffer = kept, buffer.count >= count else { return nil }
                kept = nil
                return buffer
            } ?? Renderer.unfilled(count)
        let result = buffer.withUnsafeMutableBufferPointer { body(UnsafeMutableBufferPointer(rebasing: $0[..<count])) }
        if buffer.count <= largestKeptBytes {
            kept.withLock { kept in
                if kept.map({ $0.count < buffer.count }) ?? true { kept = buffer }
            }
        }
        return result
    }
}
