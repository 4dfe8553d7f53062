import Backdrop
import BackdropTestSupport
import CVectorKernels
import Foundation
import Testing

/// `UIImage+ImageEffects` (``ImageEffectsPlan``) against an independent implementation written here from the
/// sample's description and the rounding the plan states: direct d × d box averages over clamped coordinates (no
/// running sums, no separable passes), the saturation matrix quantised here from the sample's floats, each step
/// stored as 8 bits as the sample's buffers are. Within one level on almost every sample and two at most.
@Suite("UIImage+ImageEffects")
struct ImageEffectsTests {
    /// The reference: straight RGBA8 in, straight RGBA8 out.
    static func reference(
        _ image: RGBAImage<UInt8>, style: ImageEffectsStyle, scale: Double, frame: PixelRect, mask: RGBAImage<UInt8>?
    ) -> RGBAImage<UInt8> {
        let w = frame.width, h = frame.height
        func at(_ x: Int, _ y: Int) -> [Double] {
            let p = image[frame.x + x, frame.y + y]
            let a = Double(p.w)
            return [Double(p.x), Double(p.y), Double(p.z)].map { (($0 * a + 127) / 255).rounded(.down) } + [a]
        }
        var crop = (0..<h).map { y in (0..<w).map { x in at(x, y) } }
        let s = style.radiusPoints * scale
        var effect = crop
        let blurred = s > 0
        if blurred {
            var d = Int(floor(s * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5))
            if d % 2 == 0 { d += 1 }
            for _ in 0..<3 {
                let previous = effect
                for y in 0..<h {
                    for x in 0..<w {
                        var sum = [0.0, 0, 0, 0]
                        for dy in -(d / 2)...(d / 2) {
                            for dx in -(d / 2)...(d / 2) {
                                let p = previous[min(max(y + dy, 0), h - 1)][min(max(x + dx, 0), w - 1)]
                                for c in 0..<4 { sum[c] += p[c] }
                            }
                        }
                        let area = Double(d * d)
                        effect[y][x] = sum.map { (($0 + (area / 2).rounded(.down)) / area).rounded(.down) }
                    }
                }
            }
            let t = style.saturation
            if abs(t - 1) > 1e-7 {
                // Outputs R, G, B from inputs R, G, B (the sample's rows are inputs B, G, R; columns outputs B, G, R).
                let m: [[Double]] = [
                    [0.2126 + 0.7873 * t, 0.2126 - 0.2126 * t, 0.2126 - 0.2126 * t],
                    [0.7152 - 0.7152 * t, 0.7152 + 0.2848 * t, 0.7152 - 0.7152 * t],
                    [0.0722 - 0.0722 * t, 0.0722 - 0.0722 * t, 0.0722 + 0.9278 * t],
                ]
                let q = m.map { $0.map { Double(Float($0 * 256).rounded()) } }  // (int16_t)roundf(m × 256)
                for y in 0..<h {
                    for x in 0..<w {
                        let p = effect[y][x]
                        for out in 0..<3 {
                            let v = p[0] * q[0][out] + p[1] * q[1][out] + p[2] * q[2][out]
                            effect[y][x][out] = min(max(((v + 128) / 256).rounded(.down), 0), 255)
                        }
                    }
                }
            }
        }
        var result = image
        for y in 0..<h {
            for x in 0..<w {
                var p = crop[y][x]
                if blurred {
                    var coverage = 255.0
                    if let mask {
                        let q = mask[x, y]
                        let luminance = ((54 * Double(q.x) + 183 * Double(q.y) + 19 * Double(q.z) + 128) / 256)
                            .rounded(.down)
                        coverage = ((luminance * Double(q.w) + 127) / 255).rounded(.down)
                    }
                    let e = effect[y][x].map { (($0 * coverage + 127) / 255).rounded(.down) }
                    p = (0..<4).map { min(255, e[$0] + ((p[$0] * (255 - e[3]) + 127) / 255).rounded(.down)) }
                }
                let a = style.tintAlpha
                let tint = [style.tint.x, style.tint.y, style.tint.z, 1].map { $0 * a * 255 }
                p = (0..<4).map { min(255, (tint[$0] + p[$0] * (1 - a) + 0.5).rounded(.down)) }
                let alpha = p[3]
                let straight = (0..<3).map {
                    alpha == 0 ? 0 : min(255, ((p[$0] * 255 + (alpha / 2).rounded(.down)) / alpha).rounded(.down))
                }
                crop[y][x] = p
                let index = 4 * ((frame.y + y) * image.width + frame.x + x)
                for c in 0..<3 { result.samples[index + c] = UInt8(straight[c]) }
                result.samples[index + 3] = UInt8(alpha)
            }
        }
        return result
    }

    /// The largest difference and the share of samples that differ by more than one level.
    static func agreement(_ a: RGBAImage<UInt8>, _ b: RGBAImage<UInt8>) -> (max: Int, overOne: Double) {
        let differences = zip(a.samples, b.samples).map { abs(Int($0) - Int($1)) }
        return (differences.max() ?? 0, Double(differences.filter { $0 > 1 }.count) / Double(differences.count))
    }

    static let styles: [ImageEffectsStyle] = [
        .light, .extraLight, .dark, .tint(SIMD3(0.1, 0.5, 0.9)),
        ImageEffectsStyle(name: "custom", radiusPoints: 6, tint: SIMD3(1, 0.5, 0), tintAlpha: 0.2, saturation: -0.7),
    ]

    @Test(arguments: 0..<5)
    func theStylesAgreeWithTheIndependentImplementation(_ styleIndex: Int) throws {
        let style = Self.styles[styleIndex]
        for (alpha, scale, frame, masked) in [
            (false, 1.0, nil as PixelRect?, false), (true, 0.5, nil, false),
            (false, 1.0, PixelRect(x: 7, y: 5, width: 29, height: 19), true),
            (true, 0.25, PixelRect(x: 0, y: 3, width: 40, height: 20), false),
            // Scale 2: boxes of 39 to 113 pixels, wider than the picture, so every window reaches both edges.
            (false, 2.0, nil, false), (true, 2.0, PixelRect(x: 5, y: 2, width: 31, height: 27), true),
        ] {
            let image = noiseImage(width: 48, height: 32, seed: UInt64(styleIndex + 1), alpha: alpha)
            let plan = try ImageEffectsPlan(style: style, scale: scale, frame: frame, imageSize: image.size)
            let mask =
                masked ? noiseImage(width: plan.frame.width, height: plan.frame.height, seed: 7, alpha: true) : nil
            let ours = try Renderer(parallelism: .serial).render(image, imageEffects: plan, mask: mask)
            let theirs = Self.reference(image, style: style, scale: scale, frame: plan.frame, mask: mask)
            let (worst, overOne) = Self.agreement(ours, theirs)
            #expect(
                worst <= 2 && overOne < 0.01,
                "\(style.name), scale \(scale), frame \(plan.frame), mask \(masked): max \(worst), \(overOne * 100) % over one"
            )
            // Outside the frame the picture is untouched.
            if let frame {
                #expect(ours[frame.maxX, frame.y] == image[frame.maxX, frame.y] || frame.maxX >= image.width)
                #expect(ours[0, 0] == image[0, 0] || (frame.x == 0 && frame.y == 0))
            }
        }
    }

    /// Edges extend: a picture whose left half is black and right half white keeps pure black at the far left and
    /// pure white at the far right after the box passes (a zero border would darken the right edge).
    @Test func edgesExtendAtThePicturesAndTheCropsBorder() throws {
        var samples: [UInt8] = []
        for _ in 0..<20 { for x in 0..<60 { samples += x < 30 ? [0, 0, 0, 255] : [255, 255, 255, 255] } }
        let image = RGBAImage(width: 60, height: 20, samples: samples)
        let style = ImageEffectsStyle(name: "custom", radiusPoints: 3, tint: .zero, tintAlpha: 0, saturation: 1)
        let whole = try Renderer().render(
            image, imageEffects: ImageEffectsPlan(style: style, scale: 1, frame: nil, imageSize: image.size))
        #expect(whole[0, 10] == SIMD4(0, 0, 0, 255) && whole[59, 10] == SIMD4(255, 255, 255, 255))
        // A crop of the white half only: no black reaches it from outside the crop.
        let crop = try Renderer().render(
            image,
            imageEffects: ImageEffectsPlan(
                style: style, scale: 1, frame: PixelRect(x: 30, y: 0, width: 30, height: 20), imageSize: image.size))
        #expect(crop[30, 10] == SIMD4(255, 255, 255, 255))
    }

    @Test func theBoxWidthIsTheSamples() throws {
        // s = 30 × 2 = 60 → ⌊60 · 3√(2π)/4 + ½⌋ = 113 (odd); s = 20 → 38 → 39.
        let size = PixelSize(width: 8, height: 8)
        #expect(try ImageEffectsPlan(style: .light, scale: 2, frame: nil, imageSize: size).boxWidth == 113)
        #expect(try ImageEffectsPlan(style: .dark, scale: 1, frame: nil, imageSize: size).boxWidth == 39)
    }

    /// The plan is its passes in order, as its listing prints them: the crop premultiplied, three box passes, the
    /// saturation, the picture outside the frame, the composite; without a blur, only the last two (the saturation
    /// has no effect to act on).
    @Test func thePlanListsItsPassesInOrder() throws {
        let size = PixelSize(width: 64, height: 48)
        let frame = PixelRect(x: 4, y: 2, width: 40, height: 30)
        let blurred = try ImageEffectsPlan(style: .light, scale: 2, frame: frame, imageSize: size)
        #expect(
            blurred.steps == [
                "crop 4,2,40,30 and premultiply", "box blur 113×113 (pass 1)", "box blur 113×113 (pass 2)",
                "box blur 113×113 (pass 3)", "saturation × 1.8 (integer matrix, divisor 256)",
                "copy the picture outside 4,2,40,30",
                "effect over the crop, tint 0.3 over it, unpremultiply into the frame",
            ])
        let unblurred = ImageEffectsStyle(
            name: "custom", radiusPoints: 0, tint: SIMD3(1, 0, 0), tintAlpha: 0.5, saturation: 2)
        #expect(
            try ImageEffectsPlan(style: unblurred, scale: 1, frame: nil, imageSize: size).steps == [
                "copy the picture outside 0,0,64,48", "tint 0.5 over it, unpremultiply into the frame",
            ])
    }

    /// The widest box the 32-bit sums hold (2895: a radius of 1540 pixels) still agrees with the independent
    /// implementation, on a picture far narrower than the box; one pixel more of radius is refused by name.
    @Test func theWidestBoxAgreesAndAWiderOneIsRefused() throws {
        let image = noiseImage(width: 5, height: 3, seed: 9, alpha: true)
        let style = ImageEffectsStyle(
            name: "custom", radiusPoints: 770, tint: SIMD3(0.2, 0.3, 0.4), tintAlpha: 0.1,
            saturation: 1.4)
        let plan = try ImageEffectsPlan(style: style, scale: 2, frame: nil, imageSize: image.size)
        #expect(plan.boxWidth == 2895)
        let ours = try Renderer().render(image, imageEffects: plan)
        let (worst, _) = Self.agreement(
            ours, Self.reference(image, style: style, scale: 2, frame: plan.frame, mask: nil))
        #expect(worst == 0)
        var wider = style
        wider.radiusPoints = 770.5
        #expect(throws: BackdropError.self) {
            try ImageEffectsPlan(style: wider, scale: 2, frame: nil, imageSize: image.size)
        }
        do {
            _ = try ImageEffectsPlan(style: wider, scale: 2, frame: nil, imageSize: image.size)
        } catch {
            #expect(error.kind == .badOption && "\(error)".contains("2897 pixels wide"))
        }
    }

    @Test func theOutputIsTheSameOnOneThreadAndOnSeveral() throws {
        let image = noiseImage(width: 301, height: 177, seed: 3, alpha: true)
        let plan = try ImageEffectsPlan(style: .light, scale: 2, frame: nil, imageSize: image.size)
        #expect(
            try Renderer(parallelism: .serial).render(image, imageEffects: plan)
                == Renderer(parallelism: Parallelism(threads: 3)).render(image, imageEffects: plan))
    }

    /// The vector kernel's tint lines give every entry of the portable loop's table (checked here again, not only where
    /// they are found), for every style and 2000 random tints; a table no straight line gives has none, and the
    /// portable loop draws it.
    @Test func everyTintHasALineThatGivesItsTable() {
        var random = SplitMix64(seed: 29)
        let styles =
            [ImageEffectsStyle.light, .extraLight, .dark, .tint(SIMD3(0.2, 0.4, 0.9))]
            + (0..<2000).map { _ in
                ImageEffectsStyle(
                    name: "custom", radiusPoints: 1,
                    tint: SIMD3(
                        Double.random(in: -0.1...1.1, using: &random), Double.random(in: 0...1, using: &random),
                        Double.random(in: 0...1, using: &random)),
                    tintAlpha: Double.random(in: -0.1...1.1, using: &random), saturation: 1)
            }
        for style in styles {
            let fill = TintFill8(style: style)
            guard let lines = fill.lines else {
                Issue.record("\(style.tint), α \(style.tintAlpha): no line")
                continue
            }
            let wrong = (0..<4).flatMap { lane in
                (0..<256).filter { v in
                    let line = (UInt32(v) * lines[2 * lane] + lines[2 * lane + 1]) >> UInt32(TintFill8.fractionBits)
                    return min(255, line) != fill.table[256 * lane + v]
                }
            }
            #expect(wrong.isEmpty, "\(style.tint), α \(style.tintAlpha): values \(wrong) off their line")
        }
        let zigzag: [UInt32] = (0..<256).map { UInt32($0 % 2) }
        #expect(TintFill8.line(through: zigzag, keep: 0) == nil)
    }

    /// The box kernel's single-precision quotient, x = fl(n) + (⌊area/2⌋ + ½) times fl(1/area) truncated, is
    /// ⌊(n + ⌊area/2⌋) / area⌋ for every sum n a box of 8-bit values can have, for every box up to the kernel's widest
    /// (`BD_BOX16_WIDEST`): the bound its comment derives, checked value by value.
    @Test func theSinglePrecisionQuotientIsExactForEveryBoxItServes() {
        var wrong: [(box: Int, sum: Int)] = []
        for box in stride(from: 1, through: Int(BD_BOX16_WIDEST), by: 2) {
            let area = box * box
            let rounding = Float(area / 2) + 0.5, reciprocal = 1 / Float(area)
            for n in 0...(255 * area) where Int((Float(n) + rounding) * reciprocal) != (n + area / 2) / area {
                wrong.append((box, n))
                break
            }
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }
}
