#if BACKDROP_X86_64_V3
    import _Builtin_intrinsics.intel
#endif

/// The composite's arithmetic for 8-bit output: 16-bit integers in 8.7 fixed point, sixteen lanes (four pixels)
/// to a vector, where `Float` needs eight.
///
/// - A value v at 8-bit output scale (0 … 255 + 2⁻¹², `CompositePass/outputScaled(_:maximum:)`) is held as
///   q = round(128·v), ties to even (``quantised(_:)``): 1/128 of a level. q ≤ 32 640, so q and the difference of
///   two of them fit in an `Int16`; interpolation and the vibrancy filter keep q within the two values they mix.
/// - A sample is ⌊q/128 + ½⌋, ties up (``bytes(_:_:)``, one `vpmulhrsw` by 256). An exact tie of the maths, such as
///   76.5 (the light tint over a channel that saturation clamps to 0), is q = 9792 exactly and rounds up, as in the
///   reference renders.
/// - Products are ``scaledProduct(_:_:)``: ⌊a·b/2¹⁵ + ½⌋ (`vpmulhrsw`), an integer times a fraction b/2¹⁵ in [0, 1).
///   Interpolation a + (b − a)·t is a + scaledProduct(b − a, round(t·2¹⁵)): exact where a = b, so flat areas keep
///   their exact value.
/// - Against the same steps in `Float`, a value can be off by about 1/128 of a level (the rounding of each end and
///   of the product), so a sample that lies that close to a rounding boundary can round the other way: one level,
///   on a small share of samples (`FixedPointTests` measures it).
///
/// Every operation has a portable body (`portable…`), public so that the tests check the two agree on every build.
public enum FixedPoint {
    /// Sixteen lanes of 8.7 fixed point: four pixels' R, G, B, A.
    public typealias Lanes = SIMD16<Int16>

    /// Units of q per level of an 8-bit sample.
    public static let unitsPerLevel: Float = 128

    /// The fraction t ∈ [0, 1) as a multiplier of ``scaledProduct(_:_:)``: round(t·2¹⁵), at most 32 767.
    public static func multiplier(_ t: Float) -> Int16 {
        Int16(min((Double(t) * 32_768).rounded(), 32_767))
    }

    /// Sixteen values at 8-bit output scale (four pixels), rounded to q = round(128·v), ties to even, in lane order.
    @inline(__always) public static func quantised(_ values: SIMD16<Float>) -> Lanes {
        #if BACKDROP_X86_64_V3
            // The pack works within each 128-bit half: its 64-bit groups hold pixels 0, 2, 1, 3; one permute orders them.
            let scale = _mm256_set1_ps(unitsPerLevel)
            let packed = _mm256_packs_epi32(
                _mm256_cvtps_epi32(_mm256_mul_ps(values.lowHalf, scale)),
                _mm256_cvtps_epi32(_mm256_mul_ps(values.highHalf, scale)))
            return unsafeBitCast(
                _mm256_permutevar8x32_epi32(packed, _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7)), to: Lanes.self)
        #else
            return portableQuantised(values)
        #endif
    }

    /// ``quantised(_:)``'s portable body (`SampleConversion/roundedToNearest(_:)-(SIMD8<Float>)`, eight lanes at a
    /// time: the 16-lane narrowing compiles to a call).
    @inline(__always) public static func portableQuantised(_ values: SIMD16<Float>) -> Lanes {
        func half(_ v: SIMD8<Float>) -> SIMD8<Int16> {
            SIMD8(truncatingIfNeeded: SampleConversion.roundedToNearest(v * unitsPerLevel))
        }
        return Lanes(lowHalf: half(values.lowHalf), highHalf: half(values.highHalf))
    }

    /// ⌊a·b/2¹⁵ + ½⌋ in each lane (`vpmulhrsw`): a times the fraction b/2¹⁵, rounded to nearest, ties up.
    /// b = 0 gives 0. The largest fraction, b = 32 767, gives a for |a| < 16 384 and one unit less in size beyond.
    @inline(__always) public static func scaledProduct(_ a: Lanes, _ b: Lanes) -> Lanes {
        #if BACKDROP_X86_64_V3
            unsafeBitCast(
                _mm256_mulhrs_epi16(unsafeBitCast(a, to: __m256i.self), unsafeBitCast(b, to: __m256i.self)),
                to: Lanes.self)
        #else
            portableScaledProduct(a, b)
        #endif
    }

    /// ``scaledProduct(_:_:)``'s portable body, in 32-bit lanes.
    @inline(__always) public static func portableScaledProduct(_ a: Lanes, _ b: Lanes) -> Lanes {
        func half(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD8<Int16> {
            let product = SIMD8<Int32>(truncatingIfNeeded: a) &* SIMD8<Int32>(truncatingIfNeeded: b)
            return SIMD8(truncatingIfNeeded: (product &+ 16_384) &>> 15)
        }
        return Lanes(lowHalf: half(a.lowHalf, b.lowHalf), highHalf: half(a.highHalf, b.highHalf))
    }

    /// Each lane of `a` limited to [lower, upper] (lower ≤ upper in every lane): `vpmaxsw`, `vpminsw`.
    @inline(__always) public static func limited(_ a: Lanes, from lower: Lanes, upTo upper: Lanes) -> Lanes {
        #if BACKDROP_X86_64_V3
            let bounded = _mm256_min_epi16(
                _mm256_max_epi16(
                    unsafeBitCast(a, to: __m256i.self),
                    unsafeBitCast(lower, to: __m256i.self)),
                unsafeBitCast(upper, to: __m256i.self))
            return unsafeBitCast(bounded, to: Lanes.self)
        #else
            return portableLimited(a, from: lower, upTo: upper)
        #endif
    }

    /// ``limited(_:from:upTo:)``'s portable body.
    @inline(__always) public static func portableLimited(_ a: Lanes, from lower: Lanes, upTo upper: Lanes) -> Lanes {
        a.clamped(lowerBound: lower, upperBound: upper)
    }

    /// Each pixel's fourth lane (its alpha) in all four of its lanes (`vpshufb`).
    @inline(__always) public static func alphas(_ a: Lanes) -> Lanes {
        #if BACKDROP_X86_64_V3
            // Within each 128-bit half (two pixels): bytes 6–7 (the first pixel's alpha) four times, then 14–15.
            let pattern = _mm256_setr_epi8(
                6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15,
                6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15)
            return unsafeBitCast(_mm256_shuffle_epi8(unsafeBitCast(a, to: __m256i.self), pattern), to: Lanes.self)
        #else
            return portableAlphas(a)
        #endif
    }

    /// ``alphas(_:)``'s portable body.
    @inline(__always) public static func portableAlphas(_ a: Lanes) -> Lanes {
        Lanes(a[3], a[3], a[3], a[3], a[7], a[7], a[7], a[7], a[11], a[11], a[11], a[11], a[15], a[15], a[15], a[15])
    }

    /// The sixteen bytes at `pointer` (four pixels, any alignment) as lanes 0 … 255.
    @inline(__always) static func lanes(sixteenBytesAt pointer: UnsafeRawPointer) -> Lanes {
        unsafeBitCast(SampleConversion.words(sixteenBytesAt: pointer), to: Lanes.self)
    }

    /// Eight pixels' q (`first`, then `second`) as samples ⌊q/128 + ½⌋ in lane order: one 32-byte store.
    @inline(__always) public static func bytes(_ first: Lanes, _ second: Lanes) -> SIMD32<UInt8> {
        #if BACKDROP_X86_64_V3
            // The pack works within each 128-bit half: its 64-bit groups hold pixels 0–1, 4–5, 2–3, 6–7.
            let levels = Lanes(repeating: 256)
            let packed = _mm256_packus_epi16(
                unsafeBitCast(scaledProduct(first, levels), to: __m256i.self),
                unsafeBitCast(scaledProduct(second, levels), to: __m256i.self))
            return unsafeBitCast(
                _mm256_permutevar8x32_epi32(packed, _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7)), to: SIMD32<UInt8>.self)
        #else
            return portableBytes(first, second)
        #endif
    }

    /// ``bytes(_:_:)``'s portable body.
    @inline(__always) public static func portableBytes(_ first: Lanes, _ second: Lanes) -> SIMD32<UInt8> {
        SIMD32(lowHalf: bytes(first), highHalf: bytes(second))
    }

    /// Four pixels' q as samples ⌊q/128 + ½⌋ in lane order (q ∈ [0, 32 703]: a sample ≤ 255).
    @inline(__always) public static func bytes(_ group: Lanes) -> SIMD16<UInt8> {
        SIMD16(truncatingIfNeeded: (group &+ 64) &>> 7)
    }
}

extension SIMD16 where Scalar == Int16 {
    /// One pixel's four lanes in each of the four pixels' lanes.
    @inline(__always) init(repeatingPixel pixel: SIMD4<Int16>) {
        let two = SIMD8(lowHalf: pixel, highHalf: pixel)
        self.init(lowHalf: two, highHalf: two)
    }

    /// The pixel in lanes 0–3.
    @inline(__always) var firstPixel: SIMD4<Int16> { lowHalf.lowHalf }
}

/// A picture of ``FixedPoint`` values: the upscale's table at 8-bit output scale. Rows are `width` pixels plus
/// padding to a whole group of four, so that rows are read and written four pixels (32 bytes) at a time.
/// A reference type so that row bands can be written from several threads at once (disjoint rows).
final class FixedPointImage: @unchecked Sendable {
    /// The size in pixels.
    let width: Int, height: Int
    /// Pixels from one row's start to the next: `width` rounded up to a multiple of 4.
    let rowStride: Int
    private let pixels: UnsafeMutablePointer<SIMD4<Int16>>

    /// An image of the given size, uninitialised until ``quantise(_:intoRow:)`` writes its rows.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        rowStride = (max(1, width) + 3) / 4 * 4
        pixels = .allocate(capacity: rowStride * max(1, height))
    }

    deinit { pixels.deallocate() }

    /// The first pixel of row `y`.
    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<SIMD4<Int16>> { pixels + y * rowStride }

    /// Row y ← ``FixedPoint/quantised(_:)`` of the `width` values at `values`, four pixels at a time, and zeros
    /// in its padding.
    @inline(__always) func quantise(_ values: UnsafePointer<SIMD4<Float>>, intoRow y: Int) {
        let out = row(y)
        var x = 0
        while x &+ 4 <= width {
            UnsafeMutableRawPointer(out + x).storeBytes(
                of: FixedPoint.quantised(UnsafeRawPointer(values + x).loadUnaligned(as: SIMD16<Float>.self)),
                as: FixedPoint.Lanes.self)
            x &+= 4
        }
        while x < width {
            out[x] =
                FixedPoint.quantised(
                    SIMD16(
                        lowHalf: SIMD8(lowHalf: values[x], highHalf: .zero),
                        highHalf: .zero)
                ).firstPixel
            x &+= 1
        }
        while x < rowStride {
            out[x] = .zero
            x &+= 1
        }
    }

    /// `out` ← a + scaledProduct(b − a, multiplier) for rows a = `top`, b = `bottom`: the vertical interpolation,
    /// four pixels at a time (the last group reads and writes the padding).
    @inline(__always) func interpolate(
        between top: Int, and bottom: Int, multiplier: Int16,
        into out: UnsafeMutablePointer<SIMD4<Int16>>
    ) {
        let a = UnsafeRawPointer(row(top)), b = UnsafeRawPointer(row(bottom)), to = UnsafeMutableRawPointer(out)
        let weight = FixedPoint.Lanes(repeating: multiplier)
        var offset = 0
        let end = rowStride &* 8
        while offset < end {
            let above = a.loadUnaligned(fromByteOffset: offset, as: FixedPoint.Lanes.self)
            let below = b.loadUnaligned(fromByteOffset: offset, as: FixedPoint.Lanes.self)
            to.storeBytes(
                of: above &+ FixedPoint.scaledProduct(below &- above, weight), toByteOffset: offset,
                as: FixedPoint.Lanes.self)
            offset &+= 32
        }
    }
}
