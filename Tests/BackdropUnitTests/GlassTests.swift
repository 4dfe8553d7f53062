import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// iOS 26's Liquid Glass as Backdrop approximates it (`--style glass|clearGlass`).
@Suite("Liquid Glass (approximation)")
struct GlassTests {
    /// The face of ``GlassFacePass`` in Double, away from the rim (no refraction, no highlight), for a straight colour.
    static func face(_ c: SIMD3<Double>, _ g: GlassParameters) -> SIMD3<Double> {
        var y = 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z
        let cb = (c.z - y) / 1.8556 * g.faceSaturation, cr = (c.x - y) / 1.5748 * g.faceSaturation
        y = g.maxLuma * y / (g.maxLuma + (1 - g.maxLuma) * y)
        y = g.faceBlack + (g.faceWhite - g.faceBlack) * y
        let r = y + 1.5748 * cr, b = y + 1.8556 * cb
        var out = SIMD3(r, (y - 0.2126 * r - 0.0722 * b) / 0.7152, b)
        out = out * (1 - g.fillAlpha) + SIMD3(repeating: g.fillAlpha)
        if let tint = g.tint { out = out * (1 - GlassParameters.tintAlpha) + tint * GlassParameters.tintAlpha }
        return out.clamped(lowerBound: .zero, upperBound: .one)
    }

    @Test func theTwoGlassesAreAdaptiveApproximationsOfIOS26() throws {
        for name in ["glass", "clearGlass"] {
            let entry = try #require(StyleCatalogue.entry(named: name))
            #expect(entry.introducedInIOS == 26 && entry.isAdaptive && entry.evidence == .approximation)
            #expect(entry.light.glass != nil && entry.dark.glass != nil && entry.light.material == nil)
        }
    }

    /// Away from the rim a glass over a flat colour is its face of that colour, every style and appearance, with
    /// and without a tint.
    @Test(arguments: ["glass", "clearGlass"])
    func theMiddleOfAGlassIsItsFace(_ name: String) throws {
        let flat = RGBAImage<UInt8>(width: 240, height: 120, fill: (40, 150, 210, 255))
        let colour = SIMD3<Double>(40, 150, 210) / 255
        for appearance in ["light", "dark"] {
            for tint in [nil, "0.9,0.2,0.1"] as [String?] {
                let style = try StyleChoice(name: name, tint: tint, appearance: appearance).resolve()
                let out = try Renderer().render(flat, effect: Effect(style: style))
                let want = Self.face(colour, style.glass!) * 255
                let p = out[120, 60]
                for lane in 0..<3 {
                    #expect(abs(Double(p[lane]) - want[lane]) <= 1, "\(name) \(appearance) \(tint ?? "-") lane \(lane)")
                }
                #expect(out[120, 60] != flat[120, 60])
            }
        }
    }

    /// The face's colour runs on the blurred small image, before the upscale (``GlassFaceColour``): away from the rim
    /// a glass over a photo is within 2 levels of the face applied to each pixel of the upscaled blur (the old
    /// order: the same blur, k = 4 for glass and 8 for clear glass at scale 2.5, drawn by the style without its
    /// glass), and most of its samples are equal; the rim (here 20 pt of refraction, 1.5 pt of highlight) is left
    /// out: it reads the face's colour interpolated.
    @Test(arguments: ["glass", "clearGlass"])
    func theFaceBeforeTheUpscaleIsWithinTwoLevelsOfTheFaceAfterIt(_ name: String) throws {
        let source = try Fixtures.image("photos/coffee.png")
        let style = try StyleChoice(name: name, cornerRadius: 0).resolve()
        let frame = PixelRect(x: 10, y: 20, width: 400, height: 300)
        let out = try Renderer().render(source, effect: Effect(style: style, frame: frame, scale: 2.5))
        var blurOnly = style
        blurOnly.glass = nil
        let blurred = try Renderer().render(source, effect: Effect(style: blurOnly, frame: frame, scale: 2.5))
        let rim = 20 * 2.5 + 1  // the refraction's height in pixels, and one for the edge
        var worst = 0, equal = 0, count = 0
        for y in frame.y..<frame.maxY where Double(min(y - frame.y, frame.maxY - 1 - y)) >= rim {
            for x in frame.x..<frame.maxX where Double(min(x - frame.x, frame.maxX - 1 - x)) >= rim {
                let b = blurred[x, y]
                let want = Self.face(SIMD3(Double(b.x), Double(b.y), Double(b.z)) / 255, style.glass!) * 255
                for lane in 0..<3 {
                    let difference = Int(abs((want[lane]).rounded() - Double(out[x, y][lane])))
                    worst = max(worst, difference)
                    equal += difference == 0 ? 1 : 0
                    count += 1
                }
            }
        }
        #expect(count > 100_000 && worst <= 2, "\(name): \(worst) levels at worst over \(count) samples")
        #expect(Double(equal) > 0.5 * Double(count), "\(name): \(equal) of \(count) samples equal")
    }

    /// The rim's refraction runs on the blurred small image too, before the upscale (`GlassRefraction`): within the
    /// refraction's band, past the band drawn per pixel at the edge (the highlight's 1.5 pt, or half a small pixel),
    /// a glass over a photo is within 6 levels of the old order, the face applied per output pixel to the upscaled
    /// blur read at p − n·a·(1 − t/h)² (the same blur, drawn by the style without its glass, read bilinearly in
    /// `Double`), and on average within one level; the band meets the middle without a seam (the middle is held
    /// within 2 levels by the test above). A square corner's diagonal, where the normal turns by 90°, is left out:
    /// the upscale smooths the refraction's jump there over a small pixel.
    @Test(arguments: ["glass", "clearGlass"])
    func theRimRefractedBeforeTheUpscaleIsWithinSixLevelsOfTheRimAfterIt(_ name: String) throws {
        let source = try Fixtures.image("photos/coffee.png")
        let style = try StyleChoice(name: name, cornerRadius: 0).resolve()
        let frame = PixelRect(x: 10, y: 20, width: 400, height: 300)
        let scale = 2.5, k = name == "glass" ? 4.0 : 8.0
        let out = try Renderer().render(source, effect: Effect(style: style, frame: frame, scale: scale))
        var blurOnly = style
        blurOnly.glass = nil
        let blurred = try Renderer().render(source, effect: Effect(style: blurOnly, frame: frame, scale: scale))
        let glass = style.glass!
        let (a, h) = (glass.refractionAmountPoints * scale, glass.refractionHeightPoints * scale)
        let exact = max(GlassParameters.highlightWidthPoints * scale, k / 2)
        let half = SIMD2(Double(frame.width), Double(frame.height)) / 2
        func read(_ p: SIMD2<Double>) -> SIMD3<Double> {
            let u = min(max(p.x - 0.5, 0), Double(frame.width - 1))
            let v = min(max(p.y - 0.5, 0), Double(frame.height - 1))
            let (x0, y0) = (Int(u), Int(v))
            let (x1, y1) = (min(x0 + 1, frame.width - 1), min(y0 + 1, frame.height - 1))
            let (fx, fy) = (u - Double(x0), v - Double(y0))
            func at(_ x: Int, _ y: Int) -> SIMD3<Double> {
                let b = blurred[frame.x + x, frame.y + y]
                return SIMD3(Double(b.x), Double(b.y), Double(b.z)) / 255
            }
            let top = at(x0, y0) * (1 - fx) + at(x1, y0) * fx
            return (top * (1 - fy) + (at(x0, y1) * (1 - fx) + at(x1, y1) * fx) * fy)
        }
        var worst = 0, total = 0, count = 0
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let centre = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
                let q = SIMD2(abs(centre.x - half.x), abs(centre.y - half.y)) - half
                let t = -max(q.x, q.y)
                guard t >= exact, t < h, abs(q.x - q.y) >= 2 * k else { continue }
                let normal =
                    q.x > q.y
                    ? SIMD2<Double>(centre.x < half.x ? -1 : 1, 0) : SIMD2<Double>(0, centre.y < half.y ? -1 : 1)
                let falloff = 1 - t / h
                let want = Self.face(read(centre - normal * (a * falloff * falloff)), glass) * 255
                for lane in 0..<3 {
                    let difference = Int(abs(want[lane].rounded() - Double(out[frame.x + x, frame.y + y][lane])))
                    (worst, total, count) = (max(worst, difference), total + difference, count + 1)
                }
            }
        }
        let mean = Double(total) / Double(count)
        #expect(count > 50_000 && worst <= 6, "\(name): \(worst) levels at worst over \(count) samples")
        #expect(mean < 1, "\(name): \(mean) levels on average")
    }

    /// Outside the rounded rectangle the picture is the source's; the top rim catches the highlight (lighter than
    /// the middle), the left rim, whose normal is horizontal, does not.
    @Test func theShapeClipsAndTheTopRimCatchesTheHighlight() throws {
        let flat = RGBAImage<UInt8>(width: 300, height: 200, fill: (90, 100, 120, 255))
        let style = try StyleChoice(name: "glass", cornerRadius: 40).resolve()
        let frame = PixelRect(x: 20, y: 30, width: 240, height: 120)
        let out = try Renderer().render(flat, effect: Effect(style: style, frame: frame))
        #expect(out[21, 31] == flat[21, 31], "the corner outside the radius shows the source")
        #expect(out[5, 5] == flat[5, 5], "outside the frame")
        let middle = out[140, 90], top = out[140, 30], left = out[20, 90]
        #expect(top.x > middle.x + 20 && top.y > middle.y + 20, "top rim \(top) middle \(middle)")
        #expect(abs(Int(left.x) - Int(middle.x)) <= 1, "left rim \(left) middle \(middle)")
        let capsule = try Renderer().render(
            flat, effect: Effect(style: try StyleChoice(name: "glass").resolve(), frame: frame))
        #expect(capsule[34, 44] == flat[34, 44], "a capsule's corner is wider than 40 pt's")
        #expect(out[34, 44] != flat[34, 44])
    }

    /// The rim reads the blurred backdrop further inside: over a picture with a vertical edge, a pixel at the left
    /// rim shows what lies to its right.
    @Test func theRimRefracts() throws {
        var picture = RGBAImage<UInt8>(width: 200, height: 100, fill: (0, 0, 0, 255))
        for y in 0..<100 { for x in 30..<200 { picture[x, y] = SIMD4(255, 255, 255, 255) } }
        let style = try StyleChoice(name: "clearGlass", cornerRadius: 0).resolve()
        let out = try Renderer().render(picture, effect: Effect(style: style, quality: .exact))
        var flatGlass = style
        flatGlass.glass!.refractionAmountPoints = 0
        let unrefracted = try Renderer().render(picture, effect: Effect(style: flatGlass, quality: .exact))
        #expect(Int(out[3, 50].x) > Int(unrefracted[3, 50].x) + 40, "\(out[3, 50]) vs \(unrefracted[3, 50])")
        #expect(out[100, 50] == unrefracted[100, 50], "away from the rim nothing moves")
    }

    /// The face's row runs (`GlassShape.run`): searched from a guess (the row above's run) they are the runs found
    /// by bisection from scratch, for every run around the middle of small rows and every guess; a row whose
    /// middle fails has none; and a guess at the run itself takes a few tests where bisection takes about 2 log₂ of
    /// the width.
    @Test func aRunSearchedFromAGuessIsTheRunFoundFromScratch() {
        for width in [1, 2, 3, 8, 21] {
            let centre = width / 2
            for first in 0...centre {
                for last in centre..<width {
                    let holds = { (x: Int) in x >= first && x <= last }
                    #expect(GlassShape.run(in: width, around: centre, where: holds) == first..<(last + 1))
                    for low in 0...width {
                        for high in low...width {
                            let found = GlassShape.run(in: width, around: centre, near: low..<high, where: holds)
                            #expect(found == first..<(last + 1), "width \(width), guess \(low)..<\(high)")
                        }
                    }
                }
            }
            #expect(GlassShape.run(in: width, around: centre, near: 0..<width) { $0 != centre } == 0..<0)
        }
        var tests = 0
        let holds = { (x: Int) -> Bool in
            tests += 1
            return x >= 1000 && x <= 3000
        }
        _ = GlassShape.run(in: 4096, around: 2048, where: holds)
        let fromScratch = tests
        tests = 0
        #expect(GlassShape.run(in: 4096, around: 2048, near: 1000..<3001, where: holds) == 1000..<3001)
        #expect(fromScratch >= 20 && tests <= 5, "\(fromScratch) tests from scratch, \(tests) from the guess")
    }

    @Test func aGlassRendersTheSameBytesOnAnyThreadCount() throws {
        let source = noiseImage(width: 203, height: 157, seed: 21)
        let style = try StyleChoice(name: "glass", tint: "0.2,0.5,1", appearance: "dark", cornerRadius: 24).resolve()
        let effect = Effect(style: style, frame: PixelRect(x: 7, y: 9, width: 180, height: 120), scale: 2)
        let one = try Renderer(parallelism: .serial).render(source, effect: effect)
        let many = try Renderer(parallelism: Parallelism(threads: 4)).render(source, effect: effect)
        #expect(one.samples == many.samples)
    }

    @Test(arguments: [
        (
            StyleChoice(name: "light", cornerRadius: 12),
            "--corner-radius and --capsule go with --style glass or clearGlass"
        ),
        (StyleChoice(name: "systemMaterial", capsule: true), "--corner-radius and --capsule go with --style glass"),
        (StyleChoice(name: "glass", cornerRadius: 12, capsule: true), "give --corner-radius or --capsule, not both"),
        (StyleChoice(name: "glass", sigma: 3), "--sigma, --saturation and --tint-alpha go with --style custom"),
        (StyleChoice(name: "glass", tint: "2,0,0"), "--tint '2,0,0' is not r,g,b"),
        (StyleChoice(name: "glass", cornerRadius: -1), "--corner-radius -1.0 is outside"),
        (StyleChoice(name: "light", tint: "1,0,0"), "go with --style custom"),
    ])
    func glassOptionsElsewhereAreOneLineErrors(_ choice: StyleChoice, _ message: String) {
        do {
            _ = try choice.resolve()
            Issue.record("accepted \(choice)")
        } catch {
            #expect(error.message.contains(message) && !error.message.contains("\n"), "\(error.message)")
        }
    }

    /// Glass's tint-only path (Reduce Transparency's look) and vibrant content over it are planned: the face after
    /// the average colour, the vibrancy passes after the face.
    @Test func glassPlansItsTintOnlyPathAndVibrantContent() throws {
        let style = try StyleChoice(name: "glass").resolve()
        let size = PixelSize(width: 16, height: 16)
        let reduced = try RenderPlan(effect: Effect(style: style, path: .tintOnly), imageSize: size)
        #expect(reduced.passes.map(\.kind) == [.capture, .tintOnly, .glassFace, .composite])
        let vibrancy = Vibrancy(x: 0, y: 0, contentSize: PixelSize(width: 4, height: 4), level: .fill)
        let vibrant = try RenderPlan(effect: Effect(style: style, vibrancy: vibrancy), imageSize: size)
        #expect(
            Array(vibrant.passes.map(\.kind).suffix(4)) == [.glassFace, .vibrantContent, .vibrancyFilter, .composite])
    }

    /// Glass numbers a library caller sets out of range are refused when the plan is made, in one line naming the
    /// number: a NaN or an infinity would otherwise reach the rim's bilinear read as a pixel position.
    @Test(arguments: [
        ("refractionAmountPoints", Double.nan), ("refractionAmountPoints", .infinity), ("refractionHeightPoints", 0),
        ("highlightSpread", 2), ("maxLuma", 0), ("fillAlpha", -0.5), ("faceSaturation", .infinity),
    ])
    func glassNumbersOutOfRangeAreRefused(field: String, value: Double) throws {
        let fields: [String: WritableKeyPath<GlassParameters, Double>] = [
            "refractionAmountPoints": \.refractionAmountPoints, "refractionHeightPoints": \.refractionHeightPoints,
            "highlightSpread": \.highlightSpread, "maxLuma": \.maxLuma, "fillAlpha": \.fillAlpha,
            "faceSaturation": \.faceSaturation,
        ]
        var style = try StyleChoice(name: "glass").resolve()
        style.glass![keyPath: try #require(fields[field])] = value
        let error = try #require(throws: BackdropError.self) {
            try RenderPlan(effect: Effect(style: style), imageSize: PixelSize(width: 16, height: 16))
        }
        #expect(error.message.hasPrefix("the glass's "))
        #expect(!error.message.contains("\n"))
        var tinted = try StyleChoice(name: "glass").resolve()
        tinted.glass!.tint = SIMD3(0.5, .nan, 0.5)
        #expect(throws: BackdropError.self) {
            try RenderPlan(effect: Effect(style: tinted), imageSize: PixelSize(width: 16, height: 16))
        }
    }

    /// Every device prices glass, on the blur path, with its face as a pass of its own, and says it never ran iOS 26
    /// exactly where its last iOS is older (every device before the iPhone 11 and its iPads).
    @Test func everyDevicePricesGlassAsAWhatIfWhereItNeverRanIt() throws {
        for device in Device.all {
            for name in ["glass", "clearGlass"] {
                let style = try StyleChoice(name: name).resolve()
                let estimate = try Estimator().estimate(device: device, style: style, vibrancy: false)
                #expect(estimate.path == .blur && estimate.totalMs > 0)
                let never = Int(device.lastIOS.prefix { $0.isNumber })! < 26
                #expect(estimate.decision.reason.contains("never ran iOS 26") == never, "\(device.id)")
                #expect(Estimator.isWhatIf(style, on: device) == never, "\(device.id)")
                #expect(estimate.frame.passes.contains { $0.pass.kind == .glassFace })
            }
        }
    }
}
