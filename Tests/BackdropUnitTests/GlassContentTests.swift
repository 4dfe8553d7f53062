import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// What Backdrop draws over Liquid Glass besides its face: vibrant content (the style's blend, or a vibrancy level
/// taken from a material recipe, derived) inside the glass's shape, and the look under Reduce Transparency (the face
/// over the backdrop's average colour, an approximation).
@Suite("Liquid Glass: vibrant content and Reduce Transparency")
struct GlassContentTests {
    /// A frame of glass with rounded corners over noise, and content covering the frame's left half at full alpha
    /// (grey 128), none on the right half.
    static let source = noiseImage(width: 240, height: 160, seed: 46)
    static let frame = PixelRect(x: 10, y: 10, width: 220, height: 140)
    static let content: RGBAImage<UInt8> = {
        var image = RGBAImage<UInt8>(width: 220, height: 140, fill: (0, 0, 0, 0))
        for y in 0..<140 { for x in 0..<110 { image[x, y] = SIMD4(128, 128, 128, 255) } }
        return image
    }()

    static func glass(_ name: String, _ appearance: String) throws -> BlurStyle {
        try StyleChoice(name: name, appearance: appearance, cornerRadius: 30).resolve()
    }

    static func render(
        _ style: BlurStyle, level: VibrancyLevel?, path: Effect.Path = .blur, parallelism: Parallelism = Parallelism()
    ) throws -> RGBAImage<UInt8> {
        let vibrancy = Vibrancy(x: frame.x, y: frame.y, contentSize: content.size, level: level)
        return try Renderer(parallelism: parallelism).render(
            source, effect: Effect(style: style, frame: frame, path: path, vibrancy: vibrancy), vibrantContent: content)
    }

    /// Regular glass takes systemMaterial's recipe's levels, clear glass systemUltraThinMaterial's, per appearance;
    /// the shape and the tint do not change it, and other glass numbers have none.
    @Test func eachGlassTakesTheLevelsOfOneMaterialRecipe() throws {
        let expected = [
            ("glass", "light", "platformContentLight"), ("glass", "dark", "platformContentDark"),
            ("clearGlass", "light", "platformContentUltraThinLight"),
            ("clearGlass", "dark", "platformContentUltraThinDark"),
        ]
        for (name, appearance, recipe) in expected {
            let shaped = try StyleChoice(name: name, tint: "0.2,0.4,1", appearance: appearance, cornerRadius: 8)
                .resolve()
            #expect(shaped.glass?.levelRecipe?.name == recipe, "\(name) \(appearance)")
            #expect(shaped.glass?.levelRecipe?.isDark == (appearance == "dark"))
            #expect(shaped.vibrancyBlend == (appearance == "dark" ? .plusLighter : .plusDarker))
        }
        var odd = try Self.glass("glass", "light")
        odd.glass!.faceBlack = 0.5
        #expect(odd.glass!.levelRecipe == nil)
        let effect = Effect(
            style: odd, vibrancy: Vibrancy(x: 0, y: 0, contentSize: PixelSize(width: 4, height: 4), level: .label))
        do {
            _ = try RenderPlan(effect: effect, imageSize: PixelSize(width: 8, height: 8))
            Issue.record("glass of unknown numbers took a level")
        } catch {
            #expect(error.message.contains("glass has no levels") && !error.message.contains("\n"), "\(error.message)")
        }
    }

    /// A level over glass: under the content and inside the shape, the level's matrix of the finished face (within a
    /// level of rounding); outside the shape the source; beside the content the face alone. Every glass and
    /// appearance, two levels.
    @Test(arguments: ["glass", "clearGlass"])
    func aLevelDrawsItsMatrixOverTheFaceInsideTheShape(_ name: String) throws {
        for appearance in ["light", "dark"] {
            let style = try Self.glass(name, appearance)
            let face = try Renderer().render(Self.source, effect: Effect(style: style, frame: Self.frame))
            for level in [VibrancyLevel.secondaryLabel, .fill] {
                let out = try Self.render(style, level: level)
                let matrix = try level.matrix(over: style)
                var changed = 0
                for y in Self.frame.y..<Self.frame.maxY {
                    for x in Self.frame.x..<Self.frame.maxX {
                        let corner = y == Self.frame.y && (x == Self.frame.x || x == Self.frame.maxX - 1)
                        if corner { #expect(out[x, y] == Self.source[x, y], "\(name) corner \(x),\(y)") }
                        if x >= Self.frame.x + 110 {
                            #expect(out[x, y] == face[x, y], "\(name) beside the content \(x),\(y)")
                            continue
                        }
                        // Well inside the shape (coverage 1): X = clamp(M·B + bias, 0, 1), mixed by the coverage.
                        guard x >= Self.frame.x + 31, y >= Self.frame.y + 31, y < Self.frame.maxY - 31 else { continue }
                        let b = SIMD3<Double>(Double(face[x, y].x), Double(face[x, y].y), Double(face[x, y].z)) / 255
                        for lane in 0..<3 {
                            let row = matrix.rows[lane]
                            let target = min(max(row[0] * b.x + row[1] * b.y + row[2] * b.z + matrix.bias, 0), 1)
                            let want = (b[lane] + (target - b[lane]) * min(matrix.coverage, 1)) * 255
                            #expect(
                                abs(Double(out[x, y][lane]) - want) <= 1, "\(name) \(appearance) \(level) \(x),\(y)")
                        }
                        if out[x, y] != face[x, y] { changed += 1 }
                    }
                }
                #expect(changed > 1000, "\(name) \(appearance) \(level): the level changed \(changed) pixels")
            }
            #expect(try Self.render(style, level: .label) != Self.render(style, level: .tertiaryFill))
        }
    }

    /// Without a level the content blends with the glass's blend over the face: plus-darker in light, max(0, c + b
    /// − 1), plus-lighter in dark, min(1, c + b).
    @Test func withoutALevelTheContentBlendsOverTheFace() throws {
        for appearance in ["light", "dark"] {
            let style = try Self.glass("glass", appearance)
            let face = try Renderer().render(Self.source, effect: Effect(style: style, frame: Self.frame))
            let out = try Self.render(style, level: nil)
            for (x, y) in [(60, 80), (100, 50), (45, 120)] {
                for lane in 0..<3 {
                    let sum = Int(face[x, y][lane]) + 128
                    let want = appearance == "dark" ? min(255, sum) : max(0, sum - 255)
                    #expect(abs(Int(out[x, y][lane]) - want) <= 1, "\(appearance) \(x),\(y) lane \(lane)")
                }
            }
            #expect(out[Self.frame.x, Self.frame.y] == Self.source[Self.frame.x, Self.frame.y])
            #expect(out[200, 80] == face[200, 80])
        }
    }

    /// Vibrant content over glass, blend or level, blurred or under Reduce Transparency: the same bytes on 1 and 4
    /// threads, 8- and 16-bit.
    @Test(arguments: [("glass", "light"), ("glass", "dark"), ("clearGlass", "light"), ("clearGlass", "dark")])
    func contentOverGlassIsTheSameOnAnyThreadCount(_ name: String, _ appearance: String) throws {
        for (level, path) in [(nil, Effect.Path.blur), (.tertiaryLabel, .blur), (.separator, .tintOnly)]
            as [(VibrancyLevel?, Effect.Path)]
        {
            let style = try Self.glass(name, appearance)
            let one = try Self.render(style, level: level, path: path, parallelism: .serial)
            let many = try Self.render(style, level: level, path: path, parallelism: Parallelism(threads: 4))
            #expect(one.samples == many.samples, "\(String(describing: level)) \(path)")
            let vibrancy = Vibrancy(x: Self.frame.x, y: Self.frame.y, contentSize: Self.content.size, level: level)
            let plan = try RenderPlan(
                effect: Effect(style: style, frame: Self.frame, path: path, vibrancy: vibrancy),
                imageSize: Self.source.size)
            let deep = (
                Renderer(parallelism: .serial).render(
                    Self.source, plan: plan, vibrantContent: Self.content, as: UInt16.self),
                Renderer(parallelism: Parallelism(threads: 4)).render(
                    Self.source, plan: plan, vibrantContent: Self.content, as: UInt16.self)
            )
            #expect(deep.0.samples == deep.1.samples)
        }
    }

    /// Under Reduce Transparency a glass is its face over the backdrop's average colour: flat inside (away from the
    /// rim's highlight), the source outside its shape, nothing of the backdrop's detail.
    @Test(arguments: ["glass", "clearGlass"])
    func underReduceTransparencyTheFaceCoversTheAverageColour(_ name: String) throws {
        var picture = RGBAImage<UInt8>(width: 200, height: 100, fill: (40, 150, 210, 255))
        for y in 0..<100 { for x in 100..<200 { picture[x, y] = SIMD4(200, 60, 30, 255) } }
        for appearance in ["light", "dark"] {
            let style = try StyleChoice(name: name, appearance: appearance, cornerRadius: 24).resolve()
            let effect = try Effect(style: style).applying(AccessibilitySettings(reduceTransparency: true))
            let out = try Renderer().render(picture, effect: effect)
            let average = SIMD3<Double>(120, 105, 120) / 255
            let want = GlassTests.face(average, style.glass!) * 255
            for (x, y) in [(100, 50), (40, 50), (160, 60)] {
                for lane in 0..<3 {
                    // The average is quantised to the output's levels before the face reads it: 2 levels.
                    #expect(abs(Double(out[x, y][lane]) - want[lane]) <= 2, "\(name) \(appearance) \(x),\(y)")
                }
            }
            #expect(out[0, 0] == picture[0, 0], "outside the rounded corner")
            let blurred = try Renderer().render(picture, effect: Effect(style: style))
            #expect(blurred[40, 50] != out[40, 50] && blurred[160, 60] != out[160, 60])
        }
    }

    /// A scene's glass effect view with vibrant layers: drawn (the text changes pixels inside the glass, the same on
    /// one thread and on three) and priced with the vibrancy passes after the face; under Reduce Transparency on the
    /// tint-only path with its face and no blur.
    @Test func aScenesGlassViewDrawsAndPricesItsVibrantContent() throws {
        let behind = ##"{ "name": "photo", "frame": [0, 0, 320, 480], "content": "image", "opaque": true }"##
        func bar(_ vibrancy: String) -> String {
            ##"{ "name": "bar", "frame": [16, 80, 288, 64], "effect": { "blur": "glass", "appearance": "dark""##
                + vibrancy + " } }"
        }
        let text = ##", "vibrancy": [{ "name": "title", "frame": [40, 12, 200, 40], "content": "text" }]"##
        let plain = try ScenePictureTests.scene(behind + ", " + bar(""))
        let vibrant = try ScenePictureTests.scene(behind + ", " + bar(text))
        let (without, _) = try ScenePictureTests.picture(plain)
        let (with, _) = try ScenePictureTests.picture(vibrant)
        let (several, _) = try ScenePictureTests.picture(vibrant, parallelism: Parallelism(threads: 3))
        #expect(with.image == several.image)
        var changed = 0
        for y in 92..<132 { for x in 56..<256 where with.image[x, y] != without.image[x, y] { changed += 1 } }
        #expect(changed > 100, "the text changed \(changed) pixels")
        for (x, y) in [(5, 100), (100, 60), (100, 150)] { #expect(with.image[x, y] == without.image[x, y]) }
        let device = ScenePictureTests.device
        let kinds = try ScenePlanner(device: device, path: .blur).frame(of: vibrant, steady: false).passes
            .map(\.descriptor.kind)
        let face = try #require(kinds.firstIndex(of: .glassFace))
        #expect(Array(kinds[face...]) == [.glassFace, .vibrantContent, .vibrancyFilter], "\(kinds)")
        var reduced = ScenePlanner(device: device, path: .blur)
        reduced.accessibility = AccessibilitySettings(reduceTransparency: true)
        let reducedKinds = try reduced.frame(of: vibrant, steady: false).passes.map(\.descriptor.kind)
        #expect(reducedKinds.contains(.glassFace) && !reducedKinds.contains(.horizontalBlur), "\(reducedKinds)")
    }

    /// A screen of glass, a system material and light: `--path tint-only` puts every effect view on it (glass's
    /// face over the average, the material's average colour, light's tint: no blur anywhere), in the price, the
    /// run over time and the picture alike; `auto` on a device that blurs nothing of iOS 7 still blurs the glass
    /// and the material (a what-if), and `blur` blurs all three.
    @Test func aForcedTintOnlyPathTakesEveryEffectViewOfAScene() throws {
        let behind = ##"{ "name": "photo", "frame": [0, 0, 320, 480], "content": "image", "opaque": true }"##
        let views = ["glass", "systemMaterial", "light"].enumerated().map { index, style in
            ##"{ "name": "v\##(index)", "frame": [0, \##(100 * index + 20), 320, 64], "effect": { "blur": "\##(style)" } }"##
        }
        let scene = try ScenePictureTests.scene(([behind] + views).joined(separator: ", "))
        let device = try #require(Device.named("iphone-4"))
        // The blurred views of the price, the first frame's GPU time in a run, the blurred views drawn.
        func blurs(_ choice: Estimator.PathChoice) throws -> (priced: Int, runMs: Double, drawn: Int) {
            let estimate = try Estimator().estimate(scene: scene, device: device, path: choice)
            let run = try SceneRun(scene: scene, device: device, durationSeconds: 0.05, path: choice, model: .fitted)
            let (_, drawing) = try ScenePicture(device: device, parallelism: Parallelism(threads: 1))
                .draw(scene, choice: choice)
            let drawn = drawing.commands.filter {
                if case .effect(_, _, let path, _, _) = $0 { return path == .blur } else { return false }
            }
            return (
                estimate.frame.passes.filter { $0.gpuPass.descriptor.kind == .horizontalBlur }.count,
                try #require(run.frames.first).gpuMs, drawn.count
            )
        }
        let forced = try blurs(.tintOnly), auto = try blurs(.auto), blurred = try blurs(.blur)
        #expect(forced.priced == 0 && forced.drawn == 0, "\(forced)")
        #expect(auto.priced == 2 && auto.drawn == 2, "\(auto)")
        #expect(blurred.priced == 3 && blurred.drawn == 3, "\(blurred)")
        #expect(forced.runMs < auto.runMs && auto.runMs < blurred.runMs, "\(forced) \(auto) \(blurred)")
    }
}
