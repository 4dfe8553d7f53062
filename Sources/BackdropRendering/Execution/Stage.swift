import BackdropImageIO

/// Computes one row of a stage into `out` (the stage's width in pixels, premultiplied RGBA).
/// Called from worker threads, for any row, in any order.
public typealias RowFunction = @Sendable (_ y: Int, _ out: UnsafeMutablePointer<SIMD4<Float>>) -> Void

/// How a pass reads the rows of its input: this alone decides whether the input is stored or computed inline.
public enum RowAccess: Sendable, Equatable {
    /// Output row y reads input row y only.
    case sameRow
    /// Output row y reads input rows y·k ..< y·k + k (each input row by one output row).
    case rowBlock(Int)
    /// Output row y reads several input rows near it, and each input row is read by several output rows
    /// (a vertical filter, an upscale).
    case neighbourhood

    /// Whether each input row is read by exactly one output row, so that computing the input inline costs
    /// nothing extra. Otherwise the input is stored once and read from memory.
    public var allowsInlineInput: Bool {
        switch self {
        case .sameRow, .rowBlock: return true
        case .neighbourhood: return false
        }
    }
}

/// The output of a pass as the next pass sees it: rows held in memory, or rows computed when asked for
/// (Halide's `compute_root` and `compute_inline`).
public enum Stage: Sendable {
    case stored(FloatImage)
    case computed(size: PixelSize, row: RowFunction)

    /// The size of the stage in pixels.
    public var size: PixelSize {
        switch self {
        case .stored(let image): return image.size
        case .computed(let size, _): return size
        }
    }

    /// Writes row `y` into `out` (`size.width` pixels).
    @inline(__always) public func readRow(_ y: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        switch self {
        case .stored(let image): out.update(from: image.row(y), count: image.width)
        case .computed(_, let row): row(y, out)
        }
    }

    /// Row `y` to read (`size.width` pixels): a stored row in place, without a copy, or a computed row written
    /// into `scratch`.
    @inline(__always) public func row(_ y: Int, orInto scratch: UnsafeMutablePointer<SIMD4<Float>>) -> UnsafePointer<
        SIMD4<Float>
    > {
        switch self {
        case .stored(let image): return UnsafePointer(image.row(y))
        case .computed(_, let row): row(y, scratch); return UnsafePointer(scratch)
        }
    }

    /// `row` as a stage that `consumer` reads: computed inline when it reads each row once, otherwise stored
    /// (every row computed once, in row bands on all threads).
    public static func rows(
        _ row: @escaping RowFunction, size: PixelSize, for consumer: RowAccess,
        parallelism: Parallelism
    ) -> Stage {
        guard !consumer.allowsInlineInput else { return .computed(size: size, row: row) }
        let image = FloatImage(width: size.width, height: size.height)
        parallelism.forEachBand(of: size.height) { band in
            for y in band { row(y, image.row(y)) }
        }
        return .stored(image)
    }

    /// The stored image. Only for passes whose input access is `.neighbourhood`, which the executor stores.
    public var storedImage: FloatImage {
        guard case .stored(let image) = self else { preconditionFailure("Stage: input was not stored") }
        return image
    }
}

/// Scratch rows for a row function, allocated once per call (a band of rows) and freed on return. On the heap,
/// not with `withUnsafeTemporaryAllocation`: calls inside that one's closure are marked `noinline`, which turns
/// the vector intrinsics of the loops inside (``SampleConversion``) into calls.
@inline(__always) func withScratchRow<R>(_ count: Int, _ body: (UnsafeMutablePointer<SIMD4<Float>>) -> R) -> R {
    let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: max(1, count))
    defer { row.deallocate() }
    return body(row)
}
