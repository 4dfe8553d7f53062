/// What a scene draws where it gives no picture: an image layer without `image`, and a text layer's glyphs.
/// Deterministic (the same seed and size give the same pixels everywhere: plain float arithmetic, no
/// transcendental functions) and recognisable as what they stand for.
enum PlaceholderArt {
    /// A placeholder photograph: a diagonal gradient between two colours the seed picks, with a lighter disc (a
    /// subject) left of centre.
    struct Photo {
        let from: SIMD3<Double>
        let to: SIMD3<Double>

        init(seed: UInt64) {
            let hue = Double(seed % 360) / 360
            from = PlaceholderArt.rgb(hue: hue, saturation: 0.55, value: 0.9)
            to = PlaceholderArt.rgb(hue: (hue + 0.12).truncatingRemainder(dividingBy: 1), saturation: 0.7, value: 0.4)
        }

        /// The colour at (u, v) ∈ [0, 1]² of the layer's frame, opaque.
        func colour(u: Double, v: Double) -> SIMD4<Float> {
            let t = min(max((u + v) / 2, 0), 1)
            var colour = from * (1 - t) + to * t
            let dx = u - 0.38, dy = v - 0.42
            let inside = min(max((0.26 - (dx * dx + dy * dy).squareRoot()) * 40, 0), 1)
            colour = colour * (1 - 0.6 * inside) + SIMD3(repeating: 0.6 * inside)
            return SIMD4(Float(colour.x), Float(colour.y), Float(colour.z), 1)
        }
    }

    /// The colour of `hue`, `saturation` and `value` (HSV, each in [0, 1]).
    static func rgb(hue: Double, saturation: Double, value: Double) -> SIMD3<Double> {
        let sector = hue * 6, index = Int(sector) % 6, f = sector - sector.rounded(.down)
        let p = value * (1 - saturation), q = value * (1 - saturation * f), t = value * (1 - saturation * (1 - f))
        switch index {
        case 0: return SIMD3(value, t, p)
        case 1: return SIMD3(q, value, p)
        case 2: return SIMD3(p, value, t)
        case 3: return SIMD3(p, q, value)
        case 4: return SIMD3(t, p, value)
        default: return SIMD3(value, p, q)
        }
    }

    /// Glyph boxes for a text layer over `frame` (pixels): lines of `lineHeight` pixels (a 20 pt line), each glyph
    /// a box half a line wide and 60 % of it tall with a fifth of its width as spacing, words of three to eight
    /// glyphs (from `seed`) a glyph's width apart, lines filled to 90 % of the width: about a third of the frame.
    static func glyphs(in frame: SceneDrawing.Shape, lineHeight: Double, seed: UInt64) -> [SceneDrawing.Shape] {
        guard frame.width > 0, frame.height > 0, lineHeight > 0 else { return [] }
        let line = min(lineHeight, frame.height)
        let advance = line / 2, glyphWidth = advance * 0.8, glyphHeight = line * 0.6
        let lines = max(1, Int(frame.height / line))
        var state = seed | 1
        var boxes: [SceneDrawing.Shape] = []
        for row in 0..<min(lines, 10_000) {
            let top = frame.y + Double(row) * line + (line - glyphHeight) / 2
            var x = frame.x
            let end = frame.x + 0.9 * frame.width
            while x + glyphWidth <= end, boxes.count < 1_000_000 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let letters = 3 + Int((state >> 33) % 6)
                for _ in 0..<letters where x + glyphWidth <= end {
                    boxes.append(SceneDrawing.Shape(x: x, y: top, width: glyphWidth, height: glyphHeight))
                    x += advance
                }
                x += advance
            }
        }
        return boxes
    }
}
