import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// iOS 13's vibrancy levels over the system materials (`--vibrancy-style`): the table, the filter, the errors.
@Suite("Vibrancy levels")
struct VibrancyLevelTests {
    /// Cells of the level × recipe table as the research gives them (S1 + S6), including the two where the runtime
    /// reading S4 disagrees (secondaryLabel over the light content recipes and over the dark thin ones).
    @Test(
        arguments: [
            (VibrancyLevel.secondaryLabel, "platformContentThinLight", "platformStrokeThinLightSecondary"),
            (.secondaryLabel, "platformContentLight", "platformStrokeLightSecondary"),
            (.secondaryLabel, "platformChromeLight", "platformStrokeLightSecondary"),
            (.secondaryLabel, "platformContentUltraThinDark", "platformStrokeThinDarkSecondary"),
            (.tertiaryLabel, "platformContentThickDark", "platformDarkSeparator"),
            (.tertiaryLabel, "platformContentUltraThinLight", "platformStrokeThinLightTertiary"),
            (.quaternaryLabel, "platformChromeDark", "platformFillDarkSecondary"),
            (.fill, "platformChromeLight", "platformChromeTabBarTextLight"),
            (.fill, "platformContentDark", "platformFillDarkPrimary"),
            (.tertiaryFill, "platformContentThinLight", "platformFillLightTertiary"),
            (.separator, "platformContentUltraThinDark", "platformDarkSeparator"),
            (.label, "platformContentLight", "black α 0.96"), (.label, "platformChromeDark", "white α 0.96"),
        ] as [(VibrancyLevel, String, String)])
    func eachLevelTakesItsMatrixOverEachRecipe(_ level: VibrancyLevel, _ recipe: String, _ matrix: String) throws {
        let recipe = try #require(MaterialRecipe.named(recipe))
        #expect(VibrantColorMatrix.forLevel(level, over: recipe).name == matrix)
    }

    /// A check on the transcription: each matrix is k·Sat(s) + b (Rec. 601 weights 0.2989/0.5877/0.1134) within
    /// 0.0025 per coefficient (the fit's k and s are rounded to three or four digits: the worst coefficient is off by
    /// 0.0020), with the k, s and b derived from the same numbers: a digit mistyped in the first three decimals shows.
    @Test func everyMatrixIsAScaledSaturationWithItsBias() throws {
        let fits: [String: (k: Double, s: Double, b: Double)] = [
            "platformFillLightPrimary": (0.375, 5.333, 0.0625), "platformFillLightSecondary": (0.850, 1.647, 0),
            "platformFillLightTertiary": (1.008, 1.240, -0.084), "platformLightSeparator": (0.722, 2.354, 0.019),
            "platformStrokeLightSecondary": (0.5015, 3.987, 0.04425),
            "platformStrokeThinLightSecondary": (0.5525, 1.991, 0.04875),
            "platformStrokeThinLightTertiary": (0.741, 1.349, 0.0195),
            "platformChromeTabBarTextLight": (0.500, 3.000, 0.10), "platformFillDarkPrimary": (0.500, 3.500, 0.50),
            "platformFillDarkSecondary": (0.820, 1.707, 0.18), "platformFillDarkTertiary": (0.968, 1.136, 0.12),
            "platformDarkSeparator": (0.684, 2.485, 0.298), "platformStrokeDarkSecondary": (0.408, 3.676, 0.556),
            "platformStrokeThinDarkSecondary": (0.425, 2.353, 0.5375),
            "platformStrokeThinDarkTertiary": (0.665, 1.804, 0.3175),
            "platformChromeTabBarTextDark": (0.450, 1.666, 0.46),
        ]
        var seen: Set<String> = []
        let weights = [0.2989, 0.5877, 0.1134]
        for recipe in MaterialRecipe.all {
            for level in VibrancyLevel.allCases where level != .label {
                let m = VibrantColorMatrix.forLevel(level, over: recipe)
                let fit = try #require(fits[m.name], "\(m.name)")
                seen.insert(m.name)
                #expect(abs(m.bias - fit.b) < 1e-9, "\(m.name) bias")
                for i in 0..<3 {
                    for j in 0..<3 {
                        let expected = fit.k * ((i == j ? fit.s : 0) + (1 - fit.s) * weights[j])
                        #expect(abs(m.rows[i][j] - expected) <= 0.0025, "\(m.name) [\(i)][\(j)]: \(m.rows[i][j])")
                    }
                }
            }
        }
        #expect(seen.count == 16)
    }

    /// The level's definition in Double over a flat material colour b (straight, 0…1) for content alpha a.
    static func expected(_ b: SIMD3<Double>, _ m: VibrantColorMatrix, alpha a: Double) -> SIMD3<Double> {
        let x = SIMD3(
            (0..<3).map { i in
                min(max(m.rows[i][0] * b.x + m.rows[i][1] * b.y + m.rows[i][2] * b.z + m.bias, 0), 1)
            })
        return b + (x - b) * a * m.coverage
    }

    /// Over a flat colour the material is flat, so every pixel under the content is the definition applied to the
    /// material's rendered colour: within half a level plus the composite's own rounding (1 level in all), for every
    /// level over a light and a dark material, at content alpha 255 and 128, 8-bit and 16-bit output.
    @Test(arguments: ["systemMaterial", "systemChromeMaterialDark", "systemUltraThinMaterialLight"])
    func aLevelDrawsItsMatrixOverTheMaterial(_ name: String) throws {
        let style = try StyleCatalogue.style(named: name, appearance: nil)
        let flat = RGBAImage<UInt8>(width: 64, height: 40, fill: (40, 150, 210, 255))
        let plain = try Renderer().render(flat, effect: Effect(style: style))
        let b = SIMD3(Double(plain[5, 5].x), Double(plain[5, 5].y), Double(plain[5, 5].z)) / 255
        var content = RGBAImage<UInt8>(width: 20, height: 10, fill: (200, 10, 90, 255))
        for x in 0..<20 { content[x, 9] = SIMD4(0, 0, 0, 128) }
        for level in VibrancyLevel.allCases {
            let m = try level.matrix(over: style)
            let effect = Effect(style: style, vibrancy: Vibrancy(x: 8, y: 6, contentSize: content.size, level: level))
            let out = try Renderer().render(flat, effect: effect, vibrantContent: content)
            for (alpha, y) in [(1.0, 10), (128.0 / 255, 15)] {
                let want = Self.expected(b, m, alpha: alpha) * 255
                let p = out[12, y]
                for lane in 0..<3 { #expect(abs(Double(p[lane]) - want[lane]) <= 1, "\(name) \(level) a=\(alpha)") }
                #expect(p.w == 255)
            }
            #expect(out[30, 10] == plain[30, 10], "outside the content the material is untouched")
            let plan = try RenderPlan(effect: effect, imageSize: flat.size)
            let deep = Renderer().render(flat, plan: plan, vibrantContent: content, as: UInt16.self)
            let want = Self.expected(b, m, alpha: 1) * 65535
            for lane in 0..<3 {
                #expect(abs(Double(deep[12, 10][lane]) - want[lane]) <= 257, "\(name) \(level) 16-bit")
            }
        }
    }

    @Test func aLevelRendersTheSameBytesOnAnyThreadCount() throws {
        let source = noiseImage(width: 203, height: 157, seed: 9)
        let content = noiseImage(width: 120, height: 90, seed: 4, alpha: true)
        let style = try StyleCatalogue.style(named: "systemThinMaterial", appearance: "dark")
        let effect = Effect(
            style: style, frame: PixelRect(x: 7, y: 9, width: 180, height: 120), scale: 2,
            vibrancy: Vibrancy(x: 20, y: 30, contentSize: content.size, level: .secondaryLabel))
        let one = try Renderer(parallelism: .serial).render(source, effect: effect, vibrantContent: content)
        let many = try Renderer(parallelism: Parallelism(threads: 4)).render(
            source, effect: effect, vibrantContent: content)
        #expect(one.samples == many.samples)
        let blended = try Renderer().render(
            source,
            effect: Effect(
                style: style, frame: effect.frame, scale: 2,
                vibrancy: Vibrancy(
                    x: 20, y: 30, contentSize: content.size)), vibrantContent: content)
        #expect(one.samples != blended.samples, "the level is not the blend")
    }

    @Test func aLevelOverAStyleWithoutLevelsIsAOneLineError() throws {
        for name in ["light", "extraLight", "dark", "regular", "prominent"] {
            let style = try StyleCatalogue.style(named: name, appearance: nil)
            let effect = Effect(
                style: style, vibrancy: Vibrancy(x: 0, y: 0, contentSize: PixelSize(width: 4, height: 4), level: .fill))
            do {
                _ = try RenderPlan(effect: effect, imageSize: PixelSize(width: 8, height: 8))
                Issue.record("\(name) took a vibrancy level")
            } catch {
                #expect(error.message.contains("\(name) has no levels") && !error.message.contains("\n"))
            }
        }
    }

    /// The catalogue lists the eight levels on every material and glass and on no other style, with their evidence:
    /// Apple's files for the materials, derived for glass.
    @Test func theCatalogueListsTheLevelsOfEveryMaterialAndGlass() {
        for entry in StyleCatalogue.all {
            let levels = entry.vibrancyLevels?.map(\.level)
            let hasLevels = entry.introducedInIOS >= 13
            #expect(levels == (hasLevels ? VibrancyLevel.allCases : nil), "\(entry.name)")
            let evidence: StyleCatalogue.Evidence? =
                !hasLevels ? nil : entry.introducedInIOS == 26 ? .derived : .fromAppleFiles
            #expect(entry.vibrancyLevelEvidence == evidence && (entry.vibrancyLevelSource != nil) == hasLevels)
        }
        let adaptive = StyleCatalogue.entry(named: "systemMaterial")!.vibrancyLevels!
        #expect(
            adaptive.first { $0.level == .fill }.map { [$0.light, $0.dark] }
                == ["platformFillLightPrimary", "platformFillDarkPrimary"])
    }
}
