import BackdropImageIO

/// `UIImage+ImageEffects`' picture outside its frame: the input, unchanged (an app draws its effect only in its view).
///
/// - Input: the whole source picture. Output: the whole output picture, of which this pass writes every pixel
///   outside `frame` and none inside it (the composite writes those).
/// - Precision: a copy, byte for byte.
struct CopyOutsideFramePass: ImageEffectsPass {
    /// The frame the composite writes.
    let frame: PixelRect

    var name: String { "copy the picture outside \(frame)" }
    var minimumRowsPerBand: Int { Parallelism.minimumCopiedRowsPerBand }

    /// `inputs`: the whole source picture.
    func write(_ band: Range<Int>, of output: ByteRows, reading inputs: [ByteRows?]) {
        let source = inputs[0]!, width = output.width
        for y in band {
            let spans = y < frame.y || y >= frame.maxY ? [0..<width] : [0..<frame.x, frame.maxX..<width]
            for span in spans where !span.isEmpty {
                (output.row(y) + 4 * span.lowerBound).update(
                    from: source.row(y) + 4 * span.lowerBound, count: 4 * span.count)
            }
        }
    }
}
