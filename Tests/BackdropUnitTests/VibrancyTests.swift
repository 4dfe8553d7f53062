import Backdrop
import BackdropTestSupport
import Foundation
import Testing

@Suite("Vibrancy")
struct VibrancyTests {
    let source = noiseImage(width: 203, height: 151)
    let frame = PixelRect(x: 17, y: 9, width: 171, height: 131)
    /// Content with varied colour and alpha, partly outside the frame (its right and bottom edges are clipped).
    let content = noiseImage(width: 120, height: 90, seed: 42, alpha: true)
    var placement: Vibrancy { Vibrancy(x: 100, y: 60, contentSize: content.size) }

    func render(
        _ style: BlurStyle, path: Effect.Path = .blur, quality: Effect.Quality = .fast,
        content: RGBAImage<UInt8>? = nil, parallelism: Parallelism = Parallelism()
    ) throws -> RGBAImage<UInt8> {
        let vibrancy = content.map { Vibrancy(x: 100, y: 60, contentSize: $0.size) }
        let effect = Effect(style: style, frame: frame, quality: quality, path: path, vibrancy: vibrancy)
        return try Renderer(parallelism: parallelism).render(source, effect: effect, vibrantContent: content)
    }

    @Test(arguments: Effect.Path.allCases)
    func vibrancyAddsTheContentAndFilterPassesBeforeTheComposite(_ path: Effect.Path) throws {
        let effect = Effect(style: .light, frame: frame, path: path, vibrancy: placement)
        let passes = try RenderPlan(effect: effect, imageSize: source.size).passes
        #expect(Array(passes.map(\.kind).suffix(3)) == [.vibrantContent, .vibrancyFilter, .composite])
        let content = passes[passes.count - 3], filter = passes[passes.count - 2]
        // Clipped to the frame: x 100..<188, y 60..<140 → 88 × 80.
        let clipped = PixelSize(width: 88, height: 80)
        #expect(content.inputSize == self.content.size && content.outputSize == clipped)
        #expect(content.offscreen && !content.blends && content.texelsRead == clipped.area)
        #expect(filter.outputSize == clipped && filter.blends && !filter.offscreen)
        #expect(filter.texelsRead == 2 * clipped.area)  // the content and the backdrop under it
    }

    @Test func contentWhollyOutsideTheFrameIsRefused() throws {
        for (x, y) in [(0, 0), (188, 9), (17, 140), (-120, 50)] {
            let effect = Effect(
                style: .dark, frame: frame, vibrancy: Vibrancy(x: x, y: y, contentSize: PixelSize(width: 17, height: 9))
            )
            #expect(throws: BackdropError.self) { try RenderPlan(effect: effect, imageSize: source.size) }
        }
        // Touching the frame by one pixel is enough.
        let corner = Effect(
            style: .dark, frame: frame, vibrancy: Vibrancy(x: 1, y: 1, contentSize: PixelSize(width: 17, height: 9)))
        #expect(try RenderPlan(effect: corner, imageSize: source.size).passes.count == 8)
    }

    @Test(arguments: BlurStyle.builtIn)
    func contentOfAlphaZeroLeavesTheBackdropUnchanged(_ style: BlurStyle) throws {
        var clear = content
        for index in stride(from: 3, to: clear.samples.count, by: 4) { clear.samples[index] = 0 }
        for path in Effect.Path.allCases {
            #expect(try render(style, path: path, content: clear) == render(style, path: path), "\(style.name) \(path)")
        }
    }

    /// Compares every sample inside the frame of `with` against `without` with `order`, and outside it for equality.
    func expectEverySample(
        _ with: RGBAImage<UInt8>, _ order: (UInt8, UInt8) -> Bool, _ without: RGBAImage<UInt8>,
        _ what: String
    ) {
        var violations = 0, changed = 0
        for y in 0..<source.height {
            for x in 0..<source.width {
                let inside = x >= frame.x && x < frame.maxX && y >= frame.y && y < frame.maxY
                for channel in 0..<3 {
                    let a = with[x, y][channel], b = without[x, y][channel]
                    if a != b { changed += 1 }
                    if inside ? !order(a, b) : a != b { violations += 1 }
                }
            }
        }
        #expect(violations == 0, "\(what): \(violations) samples break the order")
        #expect(changed > 1000, "\(what): the content changed only \(changed) samples")
    }

    @Test(arguments: Effect.Path.allCases)
    func plusLighterNeverDarkens(_ path: Effect.Path) throws {
        #expect(BlurStyle.dark.vibrancyBlend == .plusLighter)
        expectEverySample(
            try render(.dark, path: path, content: content), >=, try render(.dark, path: path),
            "dark \(path)")
    }

    @Test(arguments: [BlurStyle.extraLight, .light], Effect.Path.allCases)
    func plusDarkerNeverLightens(_ style: BlurStyle, _ path: Effect.Path) throws {
        #expect(style.vibrancyBlend == .plusDarker)
        expectEverySample(
            try render(style, path: path, content: content), <=, try render(style, path: path),
            "\(style.name) \(path)")
    }

    /// The composite blends the frame's interior run eight pixels at a time, with no clip check, when the content
    /// covers it, and group by group with the check otherwise. Both must give the same bytes: the same content
    /// pixels land on the same frame columns once from content covering the frame, and once from the middle
    /// columns of it alone (a clip that ends inside the run on both sides), which leaves the other columns plain.
    /// k = 4, 8 and 12 (one, two and three groups of four per segment, each compiled with its own count) and
    /// k = 16 and 24 (the count read from the run), on frames whose runs hold an odd and an even number of segments.
    @Test(
        arguments: [(BlurStyle.dark, 1.0), (.extraLight, 2), (.light, 2), (.extraLight, 4), (.light, 4)], [171, 159])
    func blendingEightPixelsAtOnceGivesTheBytesOfBlendingGroupByGroup(
        _ setting: (BlurStyle, Double),
        width: Int
    ) throws {
        let (style, scale) = setting
        let frame = PixelRect(x: self.frame.x, y: self.frame.y, width: width, height: self.frame.height)
        let covering = noiseImage(width: frame.width, height: frame.height, seed: 5, alpha: true)
        let middle = (frame.width / 3)..<(frame.width * 2 / 3)
        var cropped = [UInt8]()
        for y in 0..<covering.height {
            let row = y * covering.width * 4
            cropped += covering.samples[(row + 4 * middle.lowerBound)..<(row + 4 * middle.upperBound)]
        }
        let part = RGBAImage(width: middle.count, height: covering.height, samples: cropped)
        func render(_ content: RGBAImage<UInt8>?, at x: Int) throws -> (RGBAImage<UInt8>, Int) {
            let vibrancy = content.map { Vibrancy(x: x, y: frame.y, contentSize: $0.size) }
            let effect = Effect(style: style, frame: frame, scale: scale, vibrancy: vibrancy)
            let plan = try RenderPlan(effect: effect, imageSize: source.size)
            return (
                Renderer().render(source, plan: plan, vibrantContent: content, as: UInt8.self), plan.downscaleFactor
            )
        }
        let (whole, k) = try render(covering, at: frame.x)
        let (checked, _) = try render(part, at: frame.x + middle.lowerBound)
        let (plain, _) = try render(nil, at: 0)
        #expect(k % 4 == 0, "k = \(k): the eight-pixel path needs k a multiple of 4")
        var differing = 0, outsideChanged = 0
        for y in frame.y..<frame.maxY {
            for x in frame.x..<frame.maxX {
                if middle.contains(x - frame.x) {
                    if whole[x, y] != checked[x, y] { differing += 1 }
                } else if checked[x, y] != plain[x, y] {
                    outsideChanged += 1
                }
            }
        }
        #expect(differing == 0, "\(style.name) k = \(k): \(differing) pixels differ")
        #expect(outsideChanged == 0, "\(style.name) k = \(k): \(outsideChanged) pixels outside the content changed")
        #expect(whole != plain, "the content changed nothing")
    }

    @Test func theBlendsFollowTheirFormulas() {
        let c = SIMD4<Float>(0.2, 0.7, 1.0, 1), b = SIMD4<Float>(0.5, 0.6, 0.1, 1)
        let darker = VibrancyBlend.plusDarker.blend(c, over: b), lighter = VibrancyBlend.plusLighter.blend(c, over: b)
        #expect(abs(darker.x - 0) < 1e-6 && abs(darker.y - 0.3) < 1e-6 && abs(darker.z - 0.1) < 1e-6)
        #expect(abs(lighter.x - 0.7) < 1e-6 && abs(lighter.y - 1) < 1e-6 && abs(lighter.z - 1.0) < 1e-6)
        // Half-transparent content over a half-transparent backdrop: colour b·(1 − a) + blend·a, alpha a + A_b·(1 − a).
        let backdrop = SIMD4<Float>(0.5, 0.6, 0.1, 0.5)  // straight b = (0.5, 0.6, 0.1) at A_b = 0.5
        let result = VibrancyBlend.plusLighter.composite(color: SIMD3(0.2, 0.7, 1.0), alpha: 0.5, over: backdrop)
        let alpha: Float = 0.5 + 0.5 * 0.5
        let straight = SIMD4<Float>(0.5 * 0.5 + 0.7 * 0.5, 0.6 * 0.5 + 1 * 0.5, 0.1 * 0.5 + 1 * 0.5, 1)
        for lane in 0..<3 { #expect(abs(result[lane] - straight[lane]) < 1e-6) }
        #expect(abs(result.w - alpha) < 1e-6)
    }

    @Test(arguments: Effect.Quality.allCases)
    func vibrancyIsByteIdenticalForEveryThreadCountAndScheduler(_ quality: Effect.Quality) throws {
        let serial = try render(.light, quality: quality, content: content, parallelism: .serial)
        for scheduler in Scheduler.allCases {
            for threads in [2, 3, 8] {
                let parallel = try render(
                    .light, quality: quality, content: content,
                    parallelism: Parallelism(scheduler: scheduler, threads: threads))
                #expect(parallel == serial, "\(scheduler) × \(threads) differs from one thread")
            }
        }
    }

    @Test func aCustomStyleChoosesItsBlend() throws {
        var custom = BlurStyle.light
        custom.name = "custom"
        custom.vibrancyBlend = .plusLighter
        expectEverySample(try render(custom, content: content), >=, try render(custom), "custom plus-lighter")
    }
}
