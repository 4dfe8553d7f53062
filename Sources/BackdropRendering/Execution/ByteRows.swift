import BackdropImageIO

/// Rows of 8-bit RGBA in memory, four samples a pixel: the stage the passes of an ``ImageEffectsPlan`` read and write,
/// as ``FloatImage`` is the system passes'.
///
/// A view of samples someone else owns (a picture, the frame of one, the kept scratch) for the length of one render.
/// Passes write disjoint rows from several threads at once, hence `@unchecked Sendable`; a view of a picture that is
/// only read is never written.
struct ByteRows: @unchecked Sendable {
    /// The first sample of row 0.
    let base: UnsafeMutablePointer<UInt8>
    /// Pixels in a row.
    let width: Int
    /// Rows.
    let height: Int
    /// Samples from the start of one row to the start of the next (at least 4 · `width`).
    let rowStride: Int

    /// `width` × `height` pixels from `base`, rows `rowStride` samples apart (default: packed, 4 · `width`).
    init(_ base: UnsafeMutablePointer<UInt8>, width: Int, height: Int, rowStride: Int? = nil) {
        self.base = base
        self.width = width
        self.height = height
        self.rowStride = rowStride ?? 4 * width
    }

    /// The `frame` of a picture `pictureWidth` pixels wide whose first sample is `base`.
    init(_ base: UnsafeMutablePointer<UInt8>, frame: PixelRect, ofPictureWidth pictureWidth: Int) {
        self.init(
            base + 4 * (frame.y * pictureWidth + frame.x), width: frame.width, height: frame.height,
            rowStride: 4 * pictureWidth)
    }

    /// The first sample of row `y`.
    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { base + y * rowStride }

    /// Whether each row starts where the one before ends: what the box passes' column sums assume.
    var isPacked: Bool { rowStride == 4 * width }
}
