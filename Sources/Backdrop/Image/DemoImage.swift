import Foundation

/// The built-in demo picture, generated (no file needed): a 1024×768 scene with a sky gradient, coloured discs,
/// stripes and small bars of "text", so that blur, saturation and tint are all easy to see.
/// Deterministic: the same pixels on every run and machine.
public enum DemoImage {
    /// The picture's size: 1024×768.
    public static let size = PixelSize(width: 1024, height: 768)

    /// The view frame the demo blurs: a panel across the lower middle, like a control centre.
    public static let panel = PixelRect(x: 128, y: 384, width: 768, height: 288)

    /// Generates the picture.
    public static func make() -> RGBAImage<UInt8> {
        var image = RGBAImage<UInt8>(width: size.width, height: size.height)
        let discs: [(x: Double, y: Double, r: Double, colour: SIMD3<Double>)] = [
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
                    let d = ((Double(x) - disc.x) * (Double(x) - disc.x) + (Double(y) - disc.y) * (Double(y) - disc.y)).squareRoot()
                    let coverage = min(max(disc.r - d + 0.5, 0), 1)  // anti-aliased edge
                    c = c * (1 - coverage) + disc.colour * coverage
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
}
