/// The 8-bit premultiplication and division by 255 of `UIImage+ImageEffects`' passes
/// (``PremultiplyPass``, ``ImageEffectsCompositePass``).
///
/// Contract: integer arithmetic, exact for the ranges stated, the same bytes on every CPU.
enum ByteArithmetic {
    /// A straight RGBA8 pixel premultiplied: each colour ⌊(c · a + 127) / 255⌋, the alpha unchanged.
    @inline(__always) static func premultiplied(_ p: UnsafePointer<UInt8>) -> SIMD4<UInt32> {
        let a = UInt32(p[3])
        return SIMD4(
            dividedBy255(UInt32(p[0]) * a + 127), dividedBy255(UInt32(p[1]) * a + 127),
            dividedBy255(UInt32(p[2]) * a + 127), a)
    }

    /// ⌊y / 255⌋ for 0 ≤ y ≤ 65 152 (every value these passes divide), without a division.
    @inline(__always) static func dividedBy255(_ y: UInt32) -> UInt32 { (y &+ 1 &+ (y >> 8)) >> 8 }
    @inline(__always) static func dividedBy255(_ y: SIMD4<UInt32>) -> SIMD4<UInt32> { (y &+ 1 &+ (y &>> 8)) &>> 8 }
}
