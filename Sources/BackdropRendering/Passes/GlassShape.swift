/// Liquid Glass's outline over its frame: a rounded rectangle of the frame's size, the one definition that
/// ``GlassFacePass`` (the face, its rim and its anti-aliased edge) and the content drawn over glass (clipped to the
/// same coverage) share.
///
/// Contract: pixel (x, y) of the frame (0 ≤ x < width, 0 ≤ y < height) has its centre at (x + ½, y + ½); d is the
/// signed distance from that centre to the rounded rectangle (negative inside), in `Float`, by the steps of
/// ``place(x:y:)`` in their order (the vector kernels repeat them operation for operation); its coverage is
/// clamp(½ − d, 0, 1).
struct GlassShape: Sendable {
    /// Half the frame's size, and the corner radius, in pixels.
    let halfSize: SIMD2<Float>, radius: Float

    /// The outline of a `width` × `height` frame with corners of `radius` pixels (at most half the shorter side).
    init(width: Int, height: Int, radius: Float) {
        halfSize = SIMD2(Float(width), Float(height)) / 2
        self.radius = radius
    }

    /// Pixel (x, y)'s place in the shape: its centre, the signs of its offset from the middle, q (the offset's
    /// magnitude past the inner rectangle), q's positive part and its length, and d, the signed distance.
    @inline(__always) func place(x: Int, y: Int) -> (
        centre: SIMD2<Float>, sign: SIMD2<Float>, q: SIMD2<Float>, outside: SIMD2<Float>, outsideLength: Float,
        d: Float
    ) {
        let centre = SIMD2(Float(x) + 0.5, Float(y) + 0.5)
        let p = centre - halfSize
        let sign = SIMD2<Float>(p.x < 0 ? -1 : 1, p.y < 0 ? -1 : 1)
        let q = SIMD2(abs(p.x), abs(p.y)) - (halfSize - SIMD2(repeating: radius))
        let outside = SIMD2(max(q.x, 0), max(q.y, 0))
        let outsideLength = (outside * outside).sum().squareRoot()
        let d = outsideLength + min(max(q.x, q.y), 0) - radius
        return (centre, sign, q, outside, outsideLength, d)
    }

    /// The coverage of a pixel at signed distance `d`: clamp(½ − d, 0, 1).
    @inline(__always) static func coverage(_ d: Float) -> Float { min(max(0.5 - d, 0), 1) }

    /// The coverage of pixel (x, y) of the frame.
    @inline(__always) func coverage(x: Int, y: Int) -> Float { Self.coverage(place(x: x, y: y).d) }
}
