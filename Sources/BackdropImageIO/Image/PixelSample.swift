/// A channel sample of an ``RGBAImage``: an unsigned integer whose full range maps to [0, 1].
///
/// Conversions round to nearest, the way PNG tools reduce and widen depths.
public protocol PixelSample: FixedWidthInteger & UnsignedInteger & SIMDScalar & Codable & Sendable {
    /// The sample that stands for 1.0 (255 or 65535), as a float.
    static var maximumValue: Float { get }
    /// Bits per sample in a PNG (8 or 16).
    static var bitDepth: Int { get }
    /// Widens or keeps an 8-bit sample exactly: v·(max/255), which is an integer for 8 and 16 bits.
    init(widening8 value: UInt8)
}

extension UInt8: PixelSample {
    /// 255.
    public static var maximumValue: Float { 255 }
    /// 8.
    public static var bitDepth: Int { 8 }
    @inlinable public init(widening8 value: UInt8) { self = value }
}

extension UInt16: PixelSample {
    /// 65535.
    public static var maximumValue: Float { 65535 }
    /// 16.
    public static var bitDepth: Int { 16 }
    @inlinable public init(widening8 value: UInt8) { self = UInt16(value) &* 257 }
}

extension UInt8 {
    /// Reduces a 16-bit sample to 8 bits, rounding v·255/65535 to nearest (as the PNG expected decodes do).
    @inlinable public init(reducing16 value: UInt16) {
        self = UInt8((UInt32(value) * 255 + 32767) / 65535)
    }
}
