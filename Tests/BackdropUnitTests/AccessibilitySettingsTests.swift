import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// Reduce Transparency and Increase Contrast (`docs/accessibility.md`): what each draws, and that a scene under
/// Reduce Transparency is drawn and priced from the same planner, without blur.
@Suite("Accessibility settings")
struct AccessibilitySettingsTests {
    static let reduceTransparency = AccessibilitySettings(reduceTransparency: true)
    static let frame = PixelRect(x: 40, y: 30, width: 200, height: 120)

    /// The pixel at (x, y).
    static func pixel(_ image: RGBAImage<UInt8>, _ x: Int, _ y: Int) -> [Int] {
        let i = (y * image.width + x) * 4
        return image.samples[i..<i + 4].map(Int.init)
    }

    /// Every pixel of `frame` within `tolerance` of `expected`, every pixel outside it the source's.
    static func expectFlat(
        _ picture: RGBAImage<UInt8>, over source: RGBAImage<UInt8>, _ expected: [Int], tolerance: Int = 0,
        _ what: String
    ) {
        var worst = 0, outsideChanged = 0
        for y in 0..<source.height {
            for x in 0..<source.width {
                let p = pixel(picture, x, y)
                if frame.x <= x, x < frame.maxX, frame.y <= y, y < frame.maxY {
                    worst = max(worst, zip(p, expected).map { abs($0 - $1) }.max()!)
                } else if p != pixel(source, x, y) {
                    outsideChanged += 1
                }
            }
        }
        #expect(worst <= tolerance, "\(what): off the flat colour \(expected) by \(worst)")
        #expect(outsideChanged == 0, "\(what): \(outsideChanged) pixels outside the frame changed")
    }

    /// UIKit draws iOS 7's grey tints opaque under Reduce Transparency: extraLight its own 0.97, light and dark
    /// (not public) their tint colours, 1.0 and 0.11.
    @Test(arguments: [("extraLight", 247), ("light", 255), ("dark", 28)])
    func iOS7StylesDrawTheirTintOpaque(_ name: String, _ grey: Int) throws {
        let source = try Fixtures.image("photos/coffee.png")
        let style = try #require(BlurStyle.named(name))
        let effect = try Effect(style: style, frame: Self.frame).applying(Self.reduceTransparency)
        #expect(effect.path == .tintOnly && effect.style.fallbackAlpha == 1)
        let picture = try Renderer().render(source, effect: effect)
        Self.expectFlat(picture, over: source, [grey, grey, grey, 255], name)
    }

    /// The backdrop's mean colour under the frame, straight, from the source's samples (0…1).
    static func average(_ source: RGBAImage<UInt8>) -> (colour: [Double], alpha: Double) {
        var sums = [0.0, 0.0, 0.0], alpha = 0.0
        for y in frame.y..<frame.maxY {
            for x in frame.x..<frame.maxX {
                let p = pixel(source, x, y).map { Double($0) / 255 }
                for c in 0..<3 { sums[c] += p[c] * p[3] }
                alpha += p[3]
            }
        }
        return (sums.map { $0 / alpha }, alpha / Double(frame.width * frame.height))
    }

    /// A recipe's numbers applied to one colour, written out here: the Bernstein curve over Rec. 709 luma mixed by
    /// the amount, then the saturation, then the brightness, clamped.
    static func throughRecipe(
        _ c: [Double], saturation s: Double, brightness b: Double, amount: Double, values v: [Double]
    ) -> [Double] {
        let luma = { (c: [Double]) in 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2] }
        let l = min(max(luma(c), 0), 1), m = 1 - l
        let y = min(max(v[0] * pow(m, 3) + 3 * v[1] * m * m * l + 3 * v[2] * m * l * l + v[3] * pow(l, 3), 0), 1)
        let mixed = c.map { $0 + (y - $0) * amount }
        let grey = luma(mixed)
        return mixed.map { min(max(s * $0 + (1 - s) * grey + b, 0), 1) }
    }

    /// A material under Reduce Transparency is one flat colour: the backdrop's average through its recipe.
    @Test(arguments: ["systemMaterial", "systemThinMaterialDark", "systemUltraThinMaterialLight"])
    func aMaterialIsTheBackdropsAverageThroughItsRecipe(_ name: String) throws {
        let source = try Fixtures.image("photos/coffee.png")
        let style = try StyleCatalogue.style(named: name, appearance: nil)
        let recipe = try #require(style.material)
        let effect = try Effect(style: style, frame: Self.frame).applying(Self.reduceTransparency)
        #expect(effect.path == .tintOnly && effect.style.material == recipe)
        let picture = try Renderer().render(source, effect: effect)
        let (mean, alpha) = Self.average(source)
        #expect(alpha == 1)
        let colour = Self.throughRecipe(
            mean, saturation: recipe.saturation, brightness: recipe.brightness, amount: recipe.luminanceAmount,
            values: recipe.luminanceValues)
        Self.expectFlat(picture, over: source, colour.map { Int(($0 * 255).rounded()) } + [255], tolerance: 1, name)
    }

    /// The chrome materials take Apple's published Reduce Transparency recipes, numbers written here as published.
    @Test(arguments: [
        (
            "systemChromeMaterialLight", "platformChromeLightReduceTransparency", 0.8, 0.10, 0.75,
            [0.95, 0.9, 1.1, 0.825]
        ),
        (
            "systemChromeMaterialDark", "platformChromeDarkReduceTransparency", 1.0, -0.10, 0.85,
            [0.225, 0.31, 0.25, 0.2]
        ),
    ])
    func chromeUsesItsReduceTransparencyRecipe(
        _ name: String, _ recipe: String, _ saturation: Double, _ brightness: Double, _ amount: Double,
        _ values: [Double]
    ) throws {
        let source = try Fixtures.image("photos/coffee.png")
        let style = try StyleCatalogue.style(named: name, appearance: nil)
        let effect = try Effect(style: style, frame: Self.frame).applying(Self.reduceTransparency)
        #expect(effect.style.material?.name == recipe)
        let picture = try Renderer().render(source, effect: effect)
        let colour = Self.throughRecipe(
            Self.average(source).colour, saturation: saturation, brightness: brightness, amount: amount, values: values)
        Self.expectFlat(picture, over: source, colour.map { Int(($0 * 255).rounded()) } + [255], tolerance: 1, name)
    }

    /// One effect view's estimate under Reduce Transparency: a material priced on the tint-only path, without blur.
    @Test func aMaterialViewIsPricedWithoutBlur() throws {
        let style = try StyleCatalogue.style(named: "systemMaterial", appearance: nil)
        let device = try Device.lookup("iphone-5")
        let blurred = try Estimator().estimate(device: device, style: style, vibrancy: false)
        let reduced = try Estimator().estimate(
            device: device, style: style, vibrancy: false, accessibility: Self.reduceTransparency)
        #expect(blurred.path == .blur && reduced.path == .tintOnly)
        #expect(!reduced.frame.passes.contains { $0.isOffscreen })
        #expect(reduced.frame.totalMs < blurred.frame.totalMs)
    }

    /// Liquid Glass under Reduce Transparency: the tint-only path, its numbers kept; priced without an offscreen
    /// pass, with its face, for less than its blur.
    @Test func liquidGlassUnderReduceTransparencyIsPricedWithoutBlur() throws {
        let glass = try StyleCatalogue.style(named: "glass", appearance: nil)
        let reducedEffect = try Effect(style: glass).applying(Self.reduceTransparency)
        #expect(reducedEffect.path == .tintOnly && reducedEffect.style == glass)
        let device = try Device.lookup("iphone-5")
        let blurred = try Estimator().estimate(device: device, style: glass, vibrancy: true)
        let reduced = try Estimator().estimate(
            device: device, style: glass, vibrancy: true, accessibility: Self.reduceTransparency)
        #expect(blurred.path == .blur && reduced.path == .tintOnly)
        #expect(!reduced.frame.passes.contains { $0.isOffscreen && $0.pass.kind != .vibrantContent })
        #expect(reduced.frame.passes.contains { $0.pass.kind == .glassFace })
        #expect(reduced.frame.passes.contains { $0.pass.kind == .vibrancyFilter })
        #expect(reduced.frame.totalMs < blurred.frame.totalMs)
    }

    /// A scene under Reduce Transparency: the planner puts every effect view on the tint-only path with its opaque
    /// look; its price has no blur pass and no offscreen pass, and its drawing (the picture's) the same views.
    @Test func aSceneIsDrawnAndPricedWithoutBlur() throws {
        let scene = try #require(BuiltInScenes.named("navbar-tabbar-blur"))
        let device = try Device.lookup("iphone-5")
        let blurred = try Estimator().estimate(scene: scene, device: device, path: .blur)
        let reduced = try Estimator().estimate(
            scene: scene, device: device, path: .blur, accessibility: Self.reduceTransparency)
        let blurKinds: Set<PassKind> = [.downscale, .horizontalBlur, .verticalBlur, .upscaleTint, .materialFilters]
        #expect(blurred.frame.passes.contains { blurKinds.contains($0.pass.kind) })
        #expect(!reduced.frame.passes.contains { blurKinds.contains($0.pass.kind) })
        #expect(
            !reduced.frame.passes.contains(where: \.isOffscreen) && blurred.frame.passes.contains(where: \.isOffscreen))
        #expect(reduced.path == .tintOnly && reduced.frame.totalMs < blurred.frame.totalMs)

        let (result, drawing) = try ScenePicture(device: device).draw(
            scene, path: .blur, accessibility: Self.reduceTransparency)
        let effects = drawing.commands.compactMap { command -> (BlurStyle, Effect.Path)? in
            if case .effect(_, let style, let path, _, _) = command { return (style, path) }
            return nil
        }
        #expect(effects.count == 2)
        #expect(effects.allSatisfy { $0.1 == .tintOnly && $0.0.fallbackAlpha == 1 })
        // The navigation bar's middle is light's white, opaque: no blur shows through.
        let middle = Self.pixel(result.image, result.image.width / 2, Int(32 * device.scale))
        #expect(middle == [255, 255, 255, 255])
    }

    /// Increase Contrast raises a level's coverage by the rise of the system colour of its name; label stays.
    @Test func increaseContrastRaisesTheLevelsAlphaAsTheSystemColoursRise() throws {
        let light = try StyleCatalogue.style(named: "systemMaterial", appearance: nil)
        let dark = try StyleCatalogue.style(named: "systemMaterialDark", appearance: nil)
        let secondary = try VibrancyLevel.secondaryLabel.matrix(over: light)
        #expect(
            abs(
                secondary.increasingContrast(for: .secondaryLabel, dark: false).coverage - secondary.coverage * 173
                    / 153)
                < 1e-12)
        let fill = try VibrancyLevel.fill.matrix(over: dark)
        #expect(abs(fill.increasingContrast(for: .fill, dark: true).coverage - fill.coverage * 112 / 91) < 1e-12)
        let label = try VibrancyLevel.label.matrix(over: light)
        #expect(label.increasingContrast(for: .label, dark: false) == label)

        // Drawn: the content shows more strongly; the material around it is unchanged.
        let source = try Fixtures.image("photos/coffee.png")
        let content = RGBAImage<UInt8>(width: 40, height: 20, fill: (0, 0, 0, 200))
        let placement = Vibrancy(x: 60, y: 50, contentSize: content.size, level: .tertiaryLabel)
        var effect = Effect(style: light, frame: Self.frame, vibrancy: placement)
        let plain = try Renderer().render(source, effect: effect, vibrantContent: content)
        effect = try effect.applying(AccessibilitySettings(increaseContrast: true))
        let raised = try Renderer().render(source, effect: effect, vibrantContent: content)
        let base = Self.pixel(try Renderer().render(source, effect: Effect(style: light, frame: Self.frame)), 70, 55)
        let distance = { (p: [Int]) in zip(p, base).map { abs($0 - $1) }.reduce(0, +) }
        #expect(distance(Self.pixel(raised, 70, 55)) > distance(Self.pixel(plain, 70, 55)))
        #expect(Self.pixel(raised, 45, 35) == Self.pixel(plain, 45, 35))

        // Issue 68, item 1: opaque content (black or white text, the usual case) moves too; it drew the same bytes
        // as without the setting, its weight capped at 1. Each level over each material, light and dark.
        let opaque = RGBAImage<UInt8>(width: 40, height: 20, fill: (255, 255, 255, 255))
        for (style, levels) in [
            (light, [VibrancyLevel.secondaryLabel, .tertiaryLabel, .fill]),
            (dark, [.secondaryLabel, .quaternaryLabel]),
        ] {
            let material = Self.pixel(
                try Renderer().render(source, effect: Effect(style: style, frame: Self.frame)), 70, 55)
            let gap = { (p: [Int]) in zip(p, material).map { abs($0 - $1) }.reduce(0, +) }
            for level in levels {
                var effect = Effect(
                    style: style, frame: Self.frame,
                    vibrancy: Vibrancy(x: 60, y: 50, contentSize: opaque.size, level: level))
                let ordinary = Self.pixel(try Renderer().render(source, effect: effect, vibrantContent: opaque), 70, 55)
                effect = try effect.applying(AccessibilitySettings(increaseContrast: true))
                let contrasted = Self.pixel(
                    try Renderer().render(source, effect: effect, vibrantContent: opaque), 70, 55)
                #expect(gap(contrasted) > gap(ordinary), "\(style.name) \(level): \(ordinary) → \(contrasted)")
            }
        }
    }
}
