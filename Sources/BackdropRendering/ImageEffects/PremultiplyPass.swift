import BackdropImageIO
import CVectorKernels

/// `UIImage+ImageEffects`' first step: the frame's crop of the picture, premultiplied.
///
/// - Input: the frame's rows of the straight picture. Output: the crop, premultiplied, the frame's size.
/// - Maths: each colour ⌊(c · a + 127) / 255⌋, the alpha unchanged (``ByteArithmetic/premultiplied(_:)``).
/// - Edges: none; each pixel reads itself.
/// - Precision: exact integers, the same bytes with the vector kernel (`bd_premultiply_row_v3`) or without.
struct PremultiplyPass: ImageEffectsPass {
    /// The frame cropped.
    let frame: PixelRect

    var name: String { "crop \(frame) and premultiply" }
    var minimumRowsPerBand: Int { Parallelism.minimumRowsPerBand }

    /// `inputs`: the frame of the source picture.
    func write(_ band: Range<Int>, of output: ByteRows, reading inputs: [ByteRows?]) {
        let source = inputs[0]!, width = output.width
        for y in band {
            let s = source.row(y), t = output.row(y)
            if VectorKernels.available {
                bd_premultiply_row_v3(s, width, t)
                continue
            }
            for x in 0..<width {
                let pixel = ByteArithmetic.premultiplied(s + 4 * x)
                for c in 0..<4 { t[4 * x + c] = UInt8(pixel[c]) }
            }
        }
    }
}
