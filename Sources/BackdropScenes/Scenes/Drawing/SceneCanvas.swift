import BackdropImageIO
import BackdropRendering

/// A rectangle of premultiplied RGBA8 pixels at a place on the screen: the screen itself, or the texture of a group
/// (a mask, group opacity, a rasterized layer), 8 bits a sample as the GPU's render targets are.
///
/// Contract: every draw is source-over, `out = src + dst · (1 − src.a)`, computed in `Float` from the stored bytes
/// and rounded half up to bytes again, with `src` the paint (premultiplied, [0, 1]) times its coverage; a pixel's
/// coverage of a shape is its centre's signed distance `d` to the shape's edge, `clamp(½ − d, 0, 1)` (one pixel of
/// anti-aliasing across every edge, exact for an axis-aligned edge), times its coverage of the clip. Rows are drawn
/// in bands on several threads; each pixel is computed by the same code from the same inputs, so the result does
/// not depend on the thread count.
struct SceneCanvas {
    /// The canvas's place on the screen, pixels.
    let bounds: PixelRect
    /// Premultiplied RGBA8, row by row, `bounds.width` pixels a row.
    var samples: [UInt8]

    /// A transparent canvas over `bounds`, or an opaque black one.
    init(bounds: PixelRect, opaqueBlack: Bool = false) {
        self.bounds = bounds
        samples = [UInt8](repeating: 0, count: 4 * bounds.width * bounds.height)
        if opaqueBlack {
            samples.withUnsafeMutableBufferPointer { buffer in
                var index = 3
                while index < buffer.count {
                    buffer[index] = 255
                    index &+= 4
                }
            }
        }
    }

    /// The coverage of the pixel whose centre is (`cx`, `cy`) by `shape`.
    @inline(__always) static func coverage(_ shape: SceneDrawing.Shape, _ cx: Double, _ cy: Double) -> Float {
        let halfWidth = shape.width / 2, halfHeight = shape.height / 2
        let radius = min(max(shape.radius, 0), halfWidth, halfHeight)
        let qx = abs(cx - shape.x - halfWidth) - (halfWidth - radius)
        let qy = abs(cy - shape.y - halfHeight) - (halfHeight - radius)
        let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
        let distance = outside + min(max(qx, qy), 0) - radius
        return Float(min(max(0.5 - distance, 0), 1))
    }

    /// Whether the pixel whose centre is (`cx`, `cy`) lies wholly inside `shape` (its coverage is 1), by comparisons
    /// alone: at least half a pixel inside every edge and outside the corners' squares.
    @inline(__always) static func inside(_ shape: SceneDrawing.Shape, _ cx: Double, _ cy: Double) -> Bool {
        guard cx >= shape.x + 0.5, cx <= shape.x + shape.width - 0.5, cy >= shape.y + 0.5,
            cy <= shape.y + shape.height - 0.5
        else { return false }
        let radius = shape.radius
        return radius <= 0 || (cx >= shape.x + radius && cx <= shape.x + shape.width - radius)
            || (cy >= shape.y + radius && cy <= shape.y + shape.height - radius)
    }

    /// The coverage of the pixel centred at (`cx`, `cy`): 1 inside, else ``coverage(_:_:_:)``.
    @inline(__always) static func fastCoverage(_ shape: SceneDrawing.Shape, _ cx: Double, _ cy: Double) -> Float {
        inside(shape, cx, cy) ? 1 : coverage(shape, cx, cy)
    }

    /// `source` (premultiplied, [0, 1]) over the four bytes at `pixel`.
    @inline(__always) static func blend(_ source: SIMD4<Float>, into pixel: UnsafeMutablePointer<UInt8>) {
        let keep = 1 - source.w
        for lane in 0..<4 {
            let value = source[lane] * 255 + Float(pixel[lane]) * keep
            pixel[lane] = UInt8(min(max(value, 0), 255) + 0.5)  // 255.5 truncates to 255
        }
    }

    /// The whole pixels `shape` may touch, inside this canvas (possibly empty).
    func pixelsTouched(by shape: SceneDrawing.Shape) -> (x: Range<Int>, y: Range<Int>) {
        func span(_ low: Double, _ high: Double, _ start: Int, _ length: Int) -> Range<Int> {
            guard low.isFinite, high.isFinite else { return start..<start }
            let first = max(start, Int(max(min(low.rounded(.down), 1e9), -1e9)))
            let last = min(start + length, Int(max(min(high.rounded(.up), 1e9), -1e9)))
            return first < last ? first..<last : first..<first
        }
        return (
            span(shape.x, shape.x + shape.width, bounds.x, bounds.width),
            span(shape.y, shape.y + shape.height, bounds.y, bounds.height)
        )
    }

    /// Draws `paint(x, y)` (premultiplied, [0, 1]) times `opacity` and the coverage of `shape` and of `clip`.
    mutating func draw(
        _ shape: SceneDrawing.Shape, clip: SceneDrawing.Shape, opacity: Double, parallelism: Parallelism,
        paint: @Sendable (Int, Int) -> SIMD4<Float>
    ) {
        let touched = pixelsTouched(by: shape.intersection(clip))
        guard !touched.x.isEmpty, !touched.y.isEmpty else { return }
        let alpha = Float(min(max(opacity, 0), 1))
        let bounds = self.bounds
        samples.withUnsafeMutableBufferPointer { buffer in
            let base = SendablePointer(buffer.baseAddress!)
            parallelism.forEachBand(of: touched.y.count, minimumBandSize: Parallelism.minimumRowsPerBand) { rows in
                for row in rows {
                    let y = touched.y.lowerBound + row
                    let line = base.pointer + 4 * ((y - bounds.y) * bounds.width - bounds.x)
                    let cy = Double(y) + 0.5
                    for x in touched.x {
                        let cx = Double(x) + 0.5
                        let weight = alpha * Self.fastCoverage(shape, cx, cy) * Self.fastCoverage(clip, cx, cy)
                        guard weight > 0 else { continue }
                        Self.blend(paint(x, y) * weight, into: line + 4 * x)
                    }
                }
            }
        }
    }

    /// `other` (a group's texture) composited over this canvas: times `opacity` and, with `mask`, its coverage.
    mutating func composite(_ other: SceneCanvas, opacity: Double, mask: SceneDrawing.Shape?, parallelism: Parallelism)
    {
        let region = bounds.intersection(other.bounds)
        guard region.width > 0, region.height > 0 else { return }
        let alpha = Float(min(max(opacity, 0), 1))
        let bounds = self.bounds, otherBounds = other.bounds
        other.samples.withUnsafeBufferPointer { source in
            let top = SendableConstPointer(source.baseAddress!)
            samples.withUnsafeMutableBufferPointer { buffer in
                let base = SendablePointer(buffer.baseAddress!)
                parallelism.forEachBand(of: region.height, minimumBandSize: Parallelism.minimumRowsPerBand) { rows in
                    for row in rows {
                        let y = region.y + row
                        let line = base.pointer + 4 * ((y - bounds.y) * bounds.width - bounds.x)
                        let upper = top.pointer + 4 * ((y - otherBounds.y) * otherBounds.width - otherBounds.x)
                        for x in region.x..<(region.x + region.width) {
                            var weight = alpha
                            if let mask { weight *= Self.fastCoverage(mask, Double(x) + 0.5, Double(y) + 0.5) }
                            let p = upper + 4 * x
                            guard weight > 0, p[3] > 0 else { continue }
                            let source = SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3])) / 255 * weight
                            Self.blend(source, into: line + 4 * x)
                        }
                    }
                }
            }
        }
    }

    /// The canvas as straight RGBA8, the form `Renderer` reads a picture in: the bytes themselves where a pixel is
    /// opaque (the screen always is), each colour divided by the alpha and rounded half up elsewhere.
    func bytes() -> RGBAImage<UInt8> {
        var straight = samples
        straight.withUnsafeMutableBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                let a = buffer[index + 3]
                if a != 255 {
                    for lane in 0..<3 {
                        buffer[index + lane] =
                            a == 0 ? 0 : UInt8(min(Float(buffer[index + lane]) * 255 / Float(a) + 0.5, 255))
                    }
                }
                index &+= 4
            }
        }
        return RGBAImage(width: bounds.width, height: bounds.height, samples: straight)
    }

    /// Replaces the pixels of `region` (screen pixels, inside the canvas) with `image`'s (straight RGBA8, the
    /// canvas's size), premultiplied (rounded half up).
    mutating func replace(_ region: PixelRect, with image: RGBAImage<UInt8>) {
        for y in region.y..<(region.y + region.height) {
            let start = 4 * ((y - bounds.y) * bounds.width + region.x - bounds.x)
            for index in start..<(start + 4 * region.width) {
                let alpha = image.samples[index | 3]
                samples[index] =
                    index & 3 == 3 || alpha == 255
                    ? image.samples[index] : UInt8(Float(image.samples[index]) * Float(alpha) / 255 + 0.5)
            }
        }
    }

    /// A straight pixel premultiplied.
    @inline(__always) static func premultiplied(_ pixel: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4(pixel.x * pixel.w, pixel.y * pixel.w, pixel.z * pixel.w, pixel.w)
    }
}

extension SceneDrawing.Shape {
    /// The bounding box of the part of this shape inside `other`'s bounding box (corners ignored).
    func intersection(_ other: SceneDrawing.Shape) -> SceneDrawing.Shape {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(x + width, other.x + other.width), y1 = min(y + height, other.y + other.height)
        return SceneDrawing.Shape(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
}
