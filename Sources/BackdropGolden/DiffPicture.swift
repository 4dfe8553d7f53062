import BackdropImageIO

/// A picture that shows where two pictures differ, at a glance.
///
/// - Inputs: the expected and actual pictures (same size), and optionally the region that was compared.
/// - Output: the expected picture as dimmed grey (a quarter of its luma, so that the scene stays recognisable),
///   with every differing pixel painted red, brighter the larger its largest channel difference: one level is
///   red 128 (already plain against the dimmed grey, which stays below 64), ``fullRedAt`` levels or more are 255.
///   Pixels outside the region are dimmed further, to a tenth. Opaque.
public enum DiffPicture {
    /// The difference, in levels, drawn full red.
    public static let fullRedAt = 16

    /// The diff picture of `expected` against `actual`.
    public static func make(expected: RGBAImage<UInt8>, actual: RGBAImage<UInt8>, region: PixelRect? = nil)
        -> RGBAImage<UInt8>
    {
        precondition(expected.size == actual.size, "DiffPicture: \(expected.size) against \(actual.size)")
        let region = region ?? PixelRect(covering: expected.size)
        var samples = [UInt8](repeating: 255, count: expected.samples.count)
        for y in 0..<expected.height {
            for x in 0..<expected.width {
                let index = (y * expected.width + x) * 4
                let inside = x >= region.x && x < region.maxX && y >= region.y && y < region.maxY
                // Rec. 709 luma of the expected pixel, weighted by its alpha.
                let e = expected.samples, a = actual.samples
                let luma = (2126 * Int(e[index]) + 7152 * Int(e[index + 1]) + 722 * Int(e[index + 2])) / 10000
                let grey = UInt8(luma * Int(e[index + 3]) / 255 / (inside ? 4 : 10))
                var largest = 0
                if inside {
                    let bothTransparent = e[index + 3] == 0 && a[index + 3] == 0
                    for channel in (bothTransparent ? 3 : 0)..<4 {
                        largest = max(largest, abs(Int(e[index + channel]) - Int(a[index + channel])))
                    }
                }
                if largest > 0 {
                    let red = 128 + min(127, (largest - 1) * 127 / (fullRedAt - 1))
                    samples[index] = UInt8(red); samples[index + 1] = grey / 2; samples[index + 2] = grey / 2
                } else {
                    samples[index] = grey; samples[index + 1] = grey; samples[index + 2] = grey
                }
            }
        }
        return RGBAImage(width: expected.width, height: expected.height, samples: samples)
    }
}
