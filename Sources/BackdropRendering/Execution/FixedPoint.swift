import CVectorKernels

/// The composite's arithmetic for 8-bit output: 16-bit integers in 8.7 fixed point, sixteen lanes (four pixels)
/// to a vector, where `Float` needs eight.
///
/// - A value v at 8-bit output scale (0 … 255 + 2⁻¹², `CompositePass/outputScaled(_:maximum:)`) is held as
///   q = round(128·v), ties to even (``quantised(_:)``): 1/128 of a level. q ≤ 32 640, so q and the difference of
///   two of them fit in an `Int16`; interpolation and the vibrancy filter keep q within the two values they mix.
/// - A sample is ⌊q/128 + ½⌋, ties up (``bytes(_:_:)``: (q + 64) >> 7). An exact tie of the maths, such as
///   76.5 (the light tint over a channel that saturation clamps to 0), is q = 9792 exactly and rounds up, as in the
///   reference renders.
/// - Products are ``scaledProduct(_:_:)``: ⌊a·b/2¹⁵ + ½⌋, an integer times a fraction b/2¹⁵ in [0, 1).
///   Interpolation a + (b − a)·t is a + scaledProduct(b − a, round(t·2¹⁵)): exact where a = b, so flat areas keep
///   their exact value.
/// - Against the same steps in `Float`, a value can be off by about 1/128 of a level (the rounding of each end and
///   of the product), so a sample that lies that close to a rounding boundary can round the other way: one level,
///   on a small share of samples (`FixedPointTests` measures it).
///
/// Every operation is exact integer arithmetic in Clang's vector extensions (`backdrop_vector_lanes.h`), the same
/// values on every CPU; `FixedPointTests` holds each to its lane-by-lane definition.
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
    @inline(__always) public static func quantised(_ values: SIMD16<Float>) -> Lanes { bd_quantised16(values) }

    /// ⌊a·b/2¹⁵ + ½⌋ in each lane (x86's `pmulhrsw`): a times the fraction b/2¹⁵, rounded to nearest, ties up.
    /// b = 0 gives 0. The largest fraction, b = 32 767, gives a for |a| < 16 384 and one unit less in size beyond.
    @inline(__always) public static func scaledProduct(_ a: Lanes, _ b: Lanes) -> Lanes { bd_scaled_product16(a, b) }

    /// Each lane of `a` limited to [lower, upper] (lower ≤ upper in every lane).
    @inline(__always) public static func limited(_ a: Lanes, from lower: Lanes, upTo upper: Lanes) -> Lanes {
        bd_limited16(a, lower, upper)
    }

    /// Each pixel's fourth lane (its alpha) in all four of its lanes.
    @inline(__always) public static func alphas(_ a: Lanes) -> Lanes { bd_alphas16(a) }

    /// The sixteen bytes at `pointer` (four pixels, any alignment) as lanes 0 … 255.
    @inline(__always) static func lanes(sixteenBytesAt pointer: UnsafeRawPointer) -> Lanes {
        unsafeBitCast(SampleConversion.words(sixteenBytesAt: pointer), to: Lanes.self)
    }

    /// Eight pixels' q (`first`, then `second`) as samples ⌊q/128 + ½⌋ in lane order: one 32-byte store.
    @inline(__always) public static func bytes(_ first: Lanes, _ second: Lanes) -> SIMD32<UInt8> {
        bd_fixed_point_bytes32(first, second)
    }

    /// Four pixels' q as samples ⌊q/128 + ½⌋ in lane order (q ∈ [0, 32 703]: a sample ≤ 255).
    @inline(__always) public static func bytes(_ group: Lanes) -> SIMD16<UInt8> { bd_fixed_point_bytes16(group) }
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
    /// four pixels at a time (the last group reads and writes the padding); on CPUs with AVX2 its C twin,
    /// `bd_fixed_point_interpolate_v3`, the same values.
    @inline(__always) func interpolate(
        between top: Int, and bottom: Int, multiplier: Int16,
        into out: UnsafeMutablePointer<SIMD4<Int16>>
    ) {
        let a = UnsafeRawPointer(row(top)), b = UnsafeRawPointer(row(bottom)), to = UnsafeMutableRawPointer(out)
        if VectorKernels.available {
            return bd_fixed_point_interpolate_v3(
                a.assumingMemoryBound(to: Int16.self), b.assumingMemoryBound(to: Int16.self), multiplier,
                to.assumingMemoryBound(to: Int16.self), rowStride / 4)
        }
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
