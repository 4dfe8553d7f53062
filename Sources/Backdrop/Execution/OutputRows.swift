/// The finished effect as the composite reads it: rows of straight colour and alpha at output scale
/// (``CompositePass/outputScaled(_:maximum:)``), at 1/k of the frame's width, already interpolated vertically.
///
/// The composite interpolates each row horizontally (``BilinearTaps``) while it writes the output, so the
/// full-resolution upscale never exists as an image of its own. With k = 1 (exact mode, tint-only) a row is one
/// frame row.
public struct OutputRows: Sendable {
    /// Values in a row.
    public let width: Int
    /// For each frame column, the two row values it interpolates; nil when k = 1.
    let columns: BilinearTaps?
    /// Writes the row for frame row `y` (`width` values).
    let row: RowFunction
}
