import Foundation

/// Where vibrant content sits over an effect (`../shared/spec/effects.md`, section Vibrancy).
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

    /// Content of `contentSize` with its top-left corner at (x, y).
    public init(x: Int, y: Int, contentSize: PixelSize) {
        self.x = x
        self.y = y
        self.contentSize = contentSize
    }

    /// Content of `contentSize` at `corner` ("x,y" in pixels, possibly negative), or at the frame's corner (the
    /// picture's when there is no frame) when `corner` is nil. Throws `.badOption` naming `what` when malformed.
    public init(contentSize: PixelSize, corner: String?, as what: String, frame: PixelRect?) throws(BackdropError) {
        guard let corner else {
            self.init(x: frame?.x ?? 0, y: frame?.y ?? 0, contentSize: contentSize)
            return
        }
        let parts = corner.split(separator: ",", omittingEmptySubsequences: false)
            .map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let x = parts[0], let y = parts[1] else {
            throw BackdropError(.badOption, "\(what) '\(corner)' is not x,y (two whole numbers)")
        }
        self.init(x: x, y: y, contentSize: contentSize)
    }

    /// The rectangle the content covers, before clipping.
    public var contentRect: PixelRect {
        PixelRect(x: x, y: y, width: contentSize.width, height: contentSize.height)
    }
}

extension VibrancyBlend {
    /// The blend of straight content colour `c` over straight backdrop colour `b`, per channel, both in [0, 1]:
    /// plus-darker max(0, c + b − 1), plus-lighter min(1, c + b). The alpha lane is not meaningful.
    @inline(__always) public func blend(_ c: SIMD4<Float>, over b: SIMD4<Float>) -> SIMD4<Float> {
        switch self {
        case .plusDarker: return (c + b - 1).limited(to: .zero, .one)
        case .plusLighter: return (c + b).limited(to: .zero, .one)
        }
    }

    /// Content pixel `content` (straight colour, alpha a) over the finished backdrop pixel `backdrop`
    /// (premultiplied), giving a premultiplied pixel:
    /// straight colour = b·(1 − a) + blend(c, b)·a, alpha = a + A_b·(1 − a).
    /// The backdrop's straight colour b is limited to [0, 1], as the composite would quantise it.
    @inline(__always) public func composite(_ content: SIMD4<Float>, over backdrop: SIMD4<Float>) -> SIMD4<Float> {
        // Written with whole-vector arithmetic only (lanes are picked by multiplying with 0/1 masks, not by lane
        // assignment), which keeps the compiled loop branch-free; one scalar reciprocal instead of a 4-lane divide.
        let colourLanes = SIMD4<Float>(1, 1, 1, 0), alphaLane = SIMD4<Float>(0, 0, 0, 1)
        let reciprocal: Float = backdrop.w > 0 ? 1 / backdrop.w : 0
        let straight = (backdrop * reciprocal).limited(to: .zero, .one)
        let b = straight * colourLanes + backdrop * alphaLane                   // (b, A_b)
        let blended = blend(content, over: straight) * colourLanes + alphaLane  // (blend(c, b), 1)
        // Lane w: A_b + (1 − A_b)·a = a + A_b·(1 − a).
        let mixed = b + (blended - b) * content.w
        return mixed * (colourLanes * mixed.w + alphaLane)
    }
}
