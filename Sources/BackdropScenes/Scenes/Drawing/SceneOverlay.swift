import BackdropImageIO
import BackdropRendering

/// Instruments' colour debug options, drawn offline over a scene's picture from the planner's decisions for each
/// layer (``SceneDrawing/Layer``), so an overlay always agrees with `backdrop estimate --explain`.
///
/// Contract: each tinted layer's shape (inside its clip) is drawn source-over in the tint at the alpha below, in
/// the order the layers are drawn, so overlapping tints deepen as they do on a device:
/// - ``offscreen``: yellow at 1 − 0.65ⁿ for a layer that adds n offscreen passes itself (its mask, group, shadow or
///   effect view): one pass 35 %, a shadow's four 82 %;
/// - ``blended``: every layer with content, red at 50 % where it is blended, green at 50 % where it is opaque;
/// - ``rasterized``: every rasterized layer, green at 50 % where this frame draws it from the cache, red where it
///   renders it (every one in a first frame);
/// - ``misaligned``: magenta at 50 % for a layer whose edges do not fall on whole pixels, yellow at 50 % for an
///   image file drawn at another size than its own.
public enum SceneOverlay: String, Sendable, CaseIterable {
    case offscreen
    case blended
    case rasterized
    case misaligned

    /// `image` (the picture of `drawing`) with this overlay; `imageSizes` are the picture's image files' sizes.
    public func applied(
        to image: RGBAImage<UInt8>, drawing: SceneDrawing, imageSizes: [String: PixelSize],
        parallelism: Parallelism = Parallelism()
    ) -> RGBAImage<UInt8> {
        var canvas = SceneCanvas(bounds: PixelRect(x: 0, y: 0, width: image.width, height: image.height))
        canvas.replace(PixelRect(x: 0, y: 0, width: image.width, height: image.height), with: image)
        for layer in drawing.layers {
            guard let (tint, alpha) = tint(of: layer, imageSizes: imageSizes) else { continue }
            let paint = SceneCanvas.premultiplied(SIMD4(tint.x, tint.y, tint.z, 1))
            canvas.draw(layer.shape, clip: layer.clip, opacity: alpha, parallelism: parallelism) { _, _ in paint }
        }
        return canvas.bytes()
    }

    /// The tints, as Instruments draws them.
    public static let yellow = SIMD3<Float>(1, 1, 0)
    public static let red = SIMD3<Float>(1, 0, 0)
    public static let green = SIMD3<Float>(0, 1, 0)
    public static let magenta = SIMD3<Float>(1, 0, 1)

    /// The tint and its alpha for `layer`, or nil where this overlay leaves it untinted.
    public func tint(of layer: SceneDrawing.Layer, imageSizes: [String: PixelSize]) -> (SIMD3<Float>, Double)? {
        switch self {
        case .offscreen:
            guard layer.offscreenPasses > 0 else { return nil }
            var clear = 1.0
            for _ in 0..<min(layer.offscreenPasses, 64) { clear *= 0.65 }
            return (Self.yellow, 1 - clear)
        case .blended:
            return layer.blended.map { ($0 ? Self.red : Self.green, 0.5) }
        case .rasterized:
            return layer.rasterCacheHit.map { ($0 ? Self.green : Self.red, 0.5) }
        case .misaligned:
            if !layer.shape.isPixelAligned { return (Self.magenta, 0.5) }
            if case .file(let path)? = layer.picture, let size = imageSizes[path],
                size.width != Int(layer.shape.width) || size.height != Int(layer.shape.height)
            {
                return (Self.yellow, 0.5)
            }
            return nil
        }
    }
}
