/// A picture's EXIF orientation (TIFF tag 274): how its stored pixels turn to stand upright.
///
/// Contract: ``applied(to:)`` returns the upright picture; values 5–8 swap width and height. Exact (pixels move,
/// none is resampled).
public enum Orientation: Int, Sendable {
    case up = 1
    case mirrored, down, downMirrored, leftMirrored, right, rightMirrored, left

    /// The orientation an EXIF value names; `.up` for a value outside 1–8.
    public init(exif value: Int) {
        self = Orientation(rawValue: value) ?? .up
    }

    /// The upright picture of `stored`.
    public func applied(to stored: RGBAImage<UInt8>) -> RGBAImage<UInt8> {
        if self == .up { return stored }
        let (w, h) = (stored.width, stored.height)
        let swaps = rawValue >= 5
        let (outWidth, outHeight) = swaps ? (h, w) : (w, h)
        // The stored pixel shown at (x, y) of the upright picture.
        let source: (Int, Int) -> (Int, Int)
        switch self {
        case .up: source = { ($0, $1) }
        case .mirrored: source = { (w - 1 - $0, $1) }
        case .down: source = { (w - 1 - $0, h - 1 - $1) }
        case .downMirrored: source = { ($0, h - 1 - $1) }
        case .leftMirrored: source = { ($1, $0) }
        case .right: source = { ($1, h - 1 - $0) }
        case .rightMirrored: source = { (w - 1 - $1, h - 1 - $0) }
        case .left: source = { (w - 1 - $1, $0) }
        }
        let count = outWidth * outHeight * 4
        let samples = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            stored.samples.withUnsafeBufferPointer { input in
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        let (sx, sy) = source(x, y)
                        let from = (sy * w + sx) * 4, to = (y * outWidth + x) * 4
                        out[to] = input[from]
                        out[to + 1] = input[from + 1]
                        out[to + 2] = input[from + 2]
                        out[to + 3] = input[from + 3]
                    }
                }
            }
            initialized = count
        }
        return RGBAImage(width: outWidth, height: outHeight, samples: samples)
    }
}
