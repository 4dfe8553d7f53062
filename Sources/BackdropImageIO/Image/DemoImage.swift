import Foundation

/// The built-in demo picture, generated (no file needed): a 1024×768 scene with a sky gradient, coloured discs,
/// stripes and small bars of "text", so that blur, saturation and tint are all easy to see; and built-in vibrant
/// content (grey icons and labels with anti-aliased alpha) to draw over the panel.
/// Deterministic: the same pixels on every run and machine.
public enum DemoImage {
    /// The picture's size: 1024×768.
    public static let size = PixelSize(width: 1024, height: 768)

    /// The view frame the demo blurs: a panel across the lower middle, like a control centre.
    public static let panel = PixelRect(x: 128, y: 384, width: 768, height: 288)

    /// Generates the picture.
    public static func make() -> RGBAImage<UInt8> {
        var image = RGBAImage<UInt8>(width: size.width, height: size.height)
        let discs: [(x: Double, y: Double, r: Double, color: SIMD3<Double>)] = [
            (220, 260, 150, SIMD3(0.95, 0.30, 0.25)), (520, 420, 190, SIMD3(0.20, 0.65, 0.95)),
            (820, 250, 140, SIMD3(0.98, 0.80, 0.15)), (700, 620, 120, SIMD3(0.30, 0.85, 0.40)),
            (330, 600, 100, SIMD3(0.70, 0.35, 0.90)),
        ]
        for y in 0..<size.height {
            for x in 0..<size.width {
                let fx = Double(x) / Double(size.width), fy = Double(y) / Double(size.height)
                // Sky: deep blue at the top to warm sand at the bottom.
                var c = SIMD3(0.10, 0.20, 0.45) * (1 - fy) + SIMD3(0.95, 0.75, 0.55) * fy
                c += SIMD3(repeating: 0.08 * sin(fx * 12))
                for disc in discs {
                    let d = ((Double(x) - disc.x) * (Double(x) - disc.x) + (Double(y) - disc.y) * (Double(y) - disc.y))
                        .squareRoot()
                    let coverage = min(max(disc.r - d + 0.5, 0), 1)  // anti-aliased edge
                    c = c * (1 - coverage) + disc.color * coverage
                }
                // Diagonal stripes in the top-left corner and bars of "text" across the middle.
                if x + y < 300, (x - y + 2048) / 16 % 2 == 0 { c = SIMD3(repeating: 0.97) }
                let row = (y - 440) / 28, inBar = (y - 440) % 28 < 10
                if y >= 440, row < 7, inBar, x > 180, x < 180 + 560 - row * 53, (x / 37) % 5 != 4 {
                    c = SIMD3(repeating: 0.08)
                }
                let v = (c.clamped(lowerBound: .zero, upperBound: .one) * 255).rounded(.toNearestOrEven)
                image[x, y] = SIMD4(UInt8(v.x), UInt8(v.y), UInt8(v.z), 255)
            }
        }
        return image
    }

    /// Where the built-in vibrant content goes: 32 pixels inside the panel's top-left corner.
    public static var vibrantContentOrigin: (x: Int, y: Int) { (panel.x + 32, panel.y + 32) }

    /// The built-in vibrant content, 704×224: a row of six rounded-square icons over three rows of label bars,
    /// mid grey (0.45) with anti-aliased alpha, transparent elsewhere, like a control centre's glyphs.
    public static func vibrantContent() -> RGBAImage<UInt8> {
        let width = 704, height = 224
        var image = RGBAImage<UInt8>(width: width, height: height)
        // Rounded boxes: centre, half size, corner radius.
        var boxes: [(cx: Double, cy: Double, hw: Double, hh: Double, r: Double)] = []
        for i in 0..<6 { boxes.append((Double(56 + i * 118), 56, 44, 44, 14)) }
        let labelLengths = [[300, 180], [420, 120], [240, 260]]
        for (row, lengths) in labelLengths.enumerated() {
            var left = 12.0
            for length in lengths {
                boxes.append((left + Double(length) / 2, Double(136 + row * 32), Double(length) / 2, 9, 9))
                left += Double(length) + 24
            }
        }
        for y in 0..<height {
            for x in 0..<width {
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                var coverage = 0.0
                for box in boxes {
                    // Signed distance to the rounded box; coverage is a one-pixel ramp across its edge.
                    let qx = max(abs(px - box.cx) - (box.hw - box.r), 0),
                        qy = max(abs(py - box.cy) - (box.hh - box.r), 0)
                    let distance = (qx * qx + qy * qy).squareRoot() - box.r
                    coverage = max(coverage, min(max(0.5 - distance, 0), 1))
                }
                guard coverage > 0 else { continue }
                image[x, y] = SIMD4(115, 115, 115, UInt8((coverage * 255).rounded()))
            }
        }
        return image
    }
}
