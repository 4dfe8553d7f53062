import BackdropImageIO

/// A premultiplied RGBA picture in `Float`, one `SIMD4<Float>` (R, G, B, A) per pixel: the working format of
/// the passes.
///
/// Layout: row-major, rows ``rowStride`` pixels apart, each row starting on a 64-byte cache line. The stride is
/// the width rounded up to an odd number of cache lines (four pixels each), so that up to 64 consecutive rows
/// start in 64 different sets of a 64-set L1 cache: the vertical blur reads a pixel of each of 2r + 4 rows in
/// turn, and rows a multiple of 4 KB apart (a 256-pixel row is exactly 4 KB) would all fall in one 8-way set and
/// evict each other (measured: the vertical blur 1.8× slower). A row narrower than a cache line (under four
/// pixels) is not padded: its rows share lines anyway, and padding it would make a 1-pixel-wide picture cost four
/// times its pixels (memory follows the pixels, not the shape). It is a reference type so that row bands can be
/// written from several threads at once; callers must write disjoint rows. Hence `@unchecked Sendable`.
public final class FloatImage: @unchecked Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Pixels from the start of one row to the start of the next: `width` when it is under 4, otherwise ≥ `width`,
    /// a multiple of 4, an odd number of 64-byte cache lines.
    public let rowStride: Int
    /// The first pixel of row 0; `height × rowStride` pixels, uninitialised until a pass writes them (the
    /// padding at each row's end is never read).
    private let pixels: UnsafeMutablePointer<SIMD4<Float>>

    /// An image of the given size, uninitialised.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        let lines = (max(1, width) + 3) / 4
        rowStride = width < 4 ? max(1, width) : 4 * (lines | 1)
        pixels = UnsafeMutableRawPointer.allocate(
            byteCount: max(1, rowStride * height) * MemoryLayout<SIMD4<Float>>.stride,
            alignment: 64
        ).bindMemory(to: SIMD4<Float>.self, capacity: rowStride * height)
    }

    deinit { pixels.deallocate() }

    /// The first pixel of row `y`.
    @inline(__always) public func row(_ y: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
        pixels + y * rowStride
    }

    /// The pixel at (x, y).
    public subscript(x: Int, y: Int) -> SIMD4<Float> {
        get { row(y)[x] }
        set { row(y)[x] = newValue }
    }

    /// The size in pixels.
    public var size: PixelSize { PixelSize(width: width, height: height) }
}

extension UnsafePointer where Pointee == SIMD4<Float> {
    /// This pixel and the next as one 8-lane vector (any alignment): the passes' loops work two pixels at a time.
    @inline(__always) var pixelPair: SIMD8<Float> { UnsafeRawPointer(self).loadUnaligned(as: SIMD8<Float>.self) }
}

extension UnsafeMutablePointer where Pointee == SIMD4<Float> {
    /// This pixel and the next as one 8-lane vector (any alignment), read or written at once.
    @inline(__always) var pixelPair: SIMD8<Float> {
        get { UnsafePointer(self).pixelPair }
        nonmutating set { UnsafeMutableRawPointer(self).storeBytes(of: newValue, as: SIMD8<Float>.self) }
    }
}
