import BackdropImageIO
import Foundation

/// Where vibrant content sits over an effect (`docs/effects.md`, section Vibrancy).
///
/// The content — a picture with alpha, typically grey glyphs, text and icons — is drawn at its own pixel size with
/// its top-left corner at `origin`, in pixels of the input picture, and clipped to the view's frame. The style's
/// ``VibrancyBlend`` decides how it mixes with the finished effect under it. Only the placement lives here, so that
/// the cost model can price vibrancy without the content's pixels; the renderer is handed the pixels.
public struct Vibrancy: Sendable, Equatable, Codable {
    /// Top-left corner of the content, in pixels of the input picture.
    public var x: Int
    /// Top edge of the content, in pixels of the input picture.
    public var y: Int
    /// The content's size in pixels (drawn 1:1, never scaled).
    public var contentSize: PixelSize
    /// iOS 13's vibrancy level over a system material (``VibrancyLevel``), or nil for the style's blend.
    public var level: VibrancyLevel?

    /// Content of `contentSize` with its top-left corner at (x, y), at `level` (nil: the style's blend).
    public init(x: Int, y: Int, contentSize: PixelSize, level: VibrancyLevel? = nil) {
        self.x = x
        self.y = y
        self.contentSize = contentSize
        self.level = level
    }

    /// Content of `contentSize` at `corner` ("x,y" in pixels, possibly negative), or at the frame's corner (the
    /// picture's when there is no frame) when `corner` is nil. Throws `.badOption` naming `what` when malformed or
    /// beyond ±``PixelRect/coordinateLimit``.
    public init(contentSize: PixelSize, corner: String?, as what: String, frame: PixelRect?) throws(BackdropError) {
        guard let corner else {
            self.init(x: frame?.x ?? 0, y: frame?.y ?? 0, contentSize: contentSize)
            return
        }
        let parts = corner.split(separator: ",", omittingEmptySubsequences: false)
            .map { Int($0.trimmingCharacters(in: .whitespaces)) }
        let limit = UInt(PixelRect.coordinateLimit)
        guard parts.count == 2, let x = parts[0], let y = parts[1], x.magnitude <= limit, y.magnitude <= limit else {
            throw BackdropError(
                .badOption,
                "\(what) '\(corner)' is not x,y (two whole numbers, each within ±\(PixelRect.coordinateLimit))")
        }
        self.init(x: x, y: y, contentSize: contentSize)
    }

    /// The rectangle the content covers, before clipping.
    public var contentRect: PixelRect {
        PixelRect(x: x, y: y, width: contentSize.width, height: contentSize.height)
    }
}

extension VibrancyBlend {
    /// What the blend subtracts from c + b before clamping, in units of 1.0: both blends are one clamp,
    /// clamp(c + b − s, 0, 1). Plus-darker (s = 1): max(0, c + b − 1), whose sum is never above 1. Plus-lighter
    /// (s = 0): min(1, c + b), whose sum is never below 0.
    public var subtrahend: Float {
        switch self {
        case .plusDarker: return 1
        case .plusLighter: return 0
        }
    }

    /// The blend of straight content colour `c` over straight backdrop colour `b`, per channel, every value in
    /// [0, one] (`one` stands for 1.0: 1, or a sample's maximum): clamp(c + b − subtrahend·one, 0, one).
    @inline(__always) public func blend(_ c: SIMD4<Float>, over b: SIMD4<Float>, one: Float = 1) -> SIMD4<Float> {
        (c + b - SIMD4(repeating: subtrahend * one)).limited(upTo: SIMD4(repeating: one))
    }

    /// A content pixel of straight colour c and alpha a ∈ [0, 1] over a finished backdrop pixel (straight colour b
    /// limited to [0, one], alpha A_b in the fourth lane; 1.0 stands as `one`): the straight colour
    /// b·(1 − a) + blend(c, b)·a = b + (blend − b)·a and the alpha a + A_b·(1 − a) = A_b + (one − A_b)·a.
    /// (``VibrancyFilterPass`` computes the same, four pixels at a time.)
    @inline(__always) public func composite(
        color c: SIMD3<Float>, alpha a: Float, over backdrop: SIMD4<Float>,
        one: Float = 1
    ) -> SIMD4<Float> {
        let color = backdrop + (blend(SIMD4(c, 0), over: backdrop, one: one) - backdrop) * a
        return SIMD4(color.x, color.y, color.z, backdrop.w + (one - backdrop.w) * a)
    }
}
