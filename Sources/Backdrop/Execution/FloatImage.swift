/// A premultiplied RGBA picture in `Float`, one `SIMD4<Float>` (R, G, B, A) per pixel: the working format of
/// the passes.
///
/// Layout: row-major, rows `width` pixels apart, no padding; the storage is 16-byte aligned (the alignment of
/// `SIMD4<Float>`). It is a reference type so that row bands can be written from several threads at once;
/// callers must write disjoint rows. Hence `@unchecked Sendable`.
public final class FloatImage: @unchecked Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height` pixels, uninitialised until a pass writes them.
    public let pixels: UnsafeMutablePointer<SIMD4<Float>>

    /// An image of the given size, uninitialised.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = .allocate(capacity: max(1, width * height))
    }

    deinit { pixels.deallocate() }

    /// The first pixel of row `y`.
    @inline(__always) public func row(_ y: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
        pixels + y * width
    }

    /// The size in pixels.
    public var size: PixelSize { PixelSize(width: width, height: height) }
}
