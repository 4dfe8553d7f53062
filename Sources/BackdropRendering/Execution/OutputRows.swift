/// The finished effect as the composite reads it: rows of straight colour and alpha at output scale
/// (`CompositePass/outputScaled(_:maximum:)`), at 1/k of the frame's width, already interpolated vertically.
///
/// The composite interpolates each row horizontally (`BilinearTaps`) while it writes the output, so the
/// full-resolution upscale never exists as an image of its own. With k = 1 (exact mode, tint-only) a row is one
/// frame row.
public struct OutputRows: Sendable {
    /// Values in a row.
    public let width: Int
    /// For each frame column, the two row values it interpolates; nil when k = 1.
    let columns: BilinearTaps?
    /// Writes the row for frame row `y` (`width` values).
    let row: RowFunction
    /// Writes the same row in ``FixedPoint`` (`width` pixels, and the padding to a group of four): for upscaled rows
    /// at 8-bit output scale, interpolated from a fixed-point table. nil otherwise: the composite then works on
    /// ``row``'s floats.
    let fixedPointRow: FixedPointRowFunction?
    /// Liquid Glass's blurred frame before its face's colour, for the rim's highlight (`GlassBlurredSurface`); nil
    /// but for glass.
    let glassSurface: GlassBlurredSurface?

    /// Writes row `y` in ``FixedPoint`` into `out`; called from worker threads, for any row, in any order.
    typealias FixedPointRowFunction = @Sendable (_ y: Int, _ out: UnsafeMutablePointer<SIMD4<Int16>>) -> Void

    init(
        width: Int, columns: BilinearTaps?, row: @escaping RowFunction, fixedPointRow: FixedPointRowFunction? = nil,
        glassSurface: GlassBlurredSurface? = nil
    ) {
        self.width = width
        self.columns = columns
        self.row = row
        self.fixedPointRow = fixedPointRow
        self.glassSurface = glassSurface
    }
}
