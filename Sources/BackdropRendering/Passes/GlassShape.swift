/// Liquid Glass's outline over its frame: a rounded rectangle of the frame's size, the one definition that
/// ``GlassFacePass`` (the face, its rim and its anti-aliased edge) and the content drawn over glass (clipped to the
/// same coverage) share.
///
/// Contract: pixel (x, y) of the frame (0 ≤ x < width, 0 ≤ y < height) has its centre at (x + ½, y + ½); d is the
/// signed distance from that centre to the rounded rectangle (negative inside), in `Float`, by the steps of
/// ``place(x:y:)`` in their order (the vector kernels repeat them operation for operation); its coverage is
/// clamp(½ − d, 0, 1).
package struct GlassShape: Sendable {
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
    ) { place(centre: SIMD2(Float(x) + 0.5, Float(y) + 0.5)) }

    /// ``place(x:y:)`` for any point `centre` of the frame (in its pixels).
    @inline(__always) func place(centre: SIMD2<Float>) -> (
        centre: SIMD2<Float>, sign: SIMD2<Float>, q: SIMD2<Float>, outside: SIMD2<Float>, outsideLength: Float,
        d: Float
    ) {
        let p = centre - halfSize
        let sign = SIMD2<Float>(p.x < 0 ? -1 : 1, p.y < 0 ? -1 : 1)
        let q = SIMD2(abs(p.x), abs(p.y)) - (halfSize - SIMD2(repeating: radius))
        let outside = SIMD2(max(q.x, 0), max(q.y, 0))
        let outsideLength = (outside * outside).sum().squareRoot()
        let d = outsideLength + min(max(q.x, q.y), 0) - radius
        return (centre, sign, q, outside, outsideLength, d)
    }

    /// The outward normal at a place (``place(centre:)``'s parts): in a corner (q > 0 on both axes) the direction
    /// from the corner's centre; elsewhere the nearer side's.
    @inline(__always) static func normal(
        sign: SIMD2<Float>, q: SIMD2<Float>, outside: SIMD2<Float>, outsideLength: Float
    ) -> SIMD2<Float> {
        q.x > 0 && q.y > 0 ? outside / outsideLength * sign : q.x > q.y ? SIMD2(sign.x, 0) : SIMD2(0, sign.y)
    }

    /// The run of x in 0..<width around `centre` where `holds`, which holds for every x between `centre` and an x
    /// where it holds (empty when it fails at `centre`), by bisection either side.
    /// With `near`, a guess at the run (a neighbouring row's), the search starts there and widens its steps by
    /// doubling before it bisects: the same run, found in a few evaluations when the guess is close.
    package static func run(
        in width: Int, around centre: Int, near guess: Range<Int>? = nil, where holds: (Int) -> Bool
    )
        -> Range<Int>
    {
        guard centre >= 0, centre < width, holds(centre) else { return 0..<0 }
        var low = 0, high = centre  // the first x that holds lies in low...high
        if let guess, !guess.isEmpty {
            narrow(&low, &high, from: min(max(guess.lowerBound, low), high), firstHolding: true, holds)
        }
        while low < high {
            let x = (low + high) / 2
            if holds(x) { high = x } else { low = x + 1 }
        }
        var first = centre, last = width - 1  // the last x that holds lies in first...last
        if let guess, !guess.isEmpty {
            narrow(&first, &last, from: min(max(guess.upperBound - 1, first), last), firstHolding: false, holds)
        }
        while first < last {
            let x = (first + last + 1) / 2
            if holds(x) { first = x } else { last = x - 1 }
        }
        return low..<(first + 1)
    }

    /// Narrows low...high, which holds the boundary (the first x that holds, or with `firstHolding` false the last),
    /// around `start` (in low...high) by steps doubling away from it, keeping the boundary inside.
    private static func narrow(
        _ low: inout Int, _ high: inout Int, from start: Int, firstHolding: Bool, _ holds: (Int) -> Bool
    ) {
        // Reflected for the last x that holds: x ↦ −x turns it into the first that holds.
        func at(_ x: Int) -> Bool { holds(firstHolding ? x : -x) }
        var (lo, hi) = firstHolding ? (low, high) : (-high, -low)
        let s = firstHolding ? start : -start
        var step = 1
        if at(s) {  // the boundary is at s or before it
            hi = s
            while hi - step >= lo {
                if at(hi - step) {
                    hi -= step
                    step *= 2
                } else {
                    lo = hi - step + 1
                    break
                }
            }
        } else {  // after it
            lo = s + 1
            while lo - 1 + step <= hi {
                if at(lo - 1 + step) {
                    hi = lo - 1 + step
                    break
                } else {
                    lo += step
                    step *= 2
                }
            }
        }
        (low, high) = firstHolding ? (lo, hi) : (-hi, -lo)
    }

    /// The coverage of a pixel at signed distance `d`: clamp(½ − d, 0, 1).
    @inline(__always) static func coverage(_ d: Float) -> Float { min(max(0.5 - d, 0), 1) }

    /// The coverage of pixel (x, y) of the frame.
    @inline(__always) func coverage(x: Int, y: Int) -> Float { Self.coverage(place(x: x, y: y).d) }
}
