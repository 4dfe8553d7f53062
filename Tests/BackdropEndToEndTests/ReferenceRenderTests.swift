import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// One case of `Tests/Fixtures/reference/manifest.json` (renders made by `scripts/make-reference-renders`).
struct ReferenceCase: Decodable, CustomStringConvertible {
    let input: String
    let style: String
    let scale: Double
    let rect: String?
    let fallback: Bool
    let output: String
    let vibrancy: String?
    let at: String?

    var description: String { output }

    static func all() throws -> [ReferenceCase] {
        let path = Fixtures.path("reference/manifest.json")
        guard let data = FileManager.default.contents(atPath: path) else {
            Issue.record("missing \(path)")
            throw FixtureMissing(path: path)
        }
        return try JSONDecoder().decode([ReferenceCase].self, from: data)
    }

    /// The vibrant content of the case (from `Tests/Fixtures/photos/`), or nil.
    func vibrantContent() throws -> RGBAImage<UInt8>? {
        try vibrancy.map { try Fixtures.image("photos/\($0)") }
    }

    func effect(quality: Effect.Quality, contentSize: PixelSize?) throws -> Effect {
        let style = try #require(BlurStyle.named(style))
        var placement: Vibrancy?
        if let contentSize {
            let corner = try #require(at).split(separator: ",").compactMap { Int($0) }
            try #require(corner.count == 2, "\(output): at '\(at ?? "")'")
            placement = Vibrancy(x: corner[0], y: corner[1], contentSize: contentSize)
        }
        return Effect(
            style: style, frame: rect.flatMap(PixelRect.init(parsing:)), scale: scale, quality: quality,
            path: fallback ? .tintOnly : .blur, vibrancy: placement)
    }
}

@Suite("Reference renders (Tests/Fixtures/reference)")
struct ReferenceRenderTests {
    /// Every case of the manifest: blur, tint-only fallback, and vibrancy over the blur.
    static let cases: [ReferenceCase] = (try? ReferenceCase.all()) ?? []

    @Test func theManifestHasItsBlurFallbackAndVibrancyCases() throws {
        let all = try ReferenceCase.all()
        let vibrancy = all.filter { $0.vibrancy != nil }.count
        #expect(all.count - vibrancy == 18, "blur and fallback cases in the manifest: \(all.count - vibrancy)")
        #expect(vibrancy == 6, "vibrancy cases: \(vibrancy)")
    }

    /// Fast path ≥ 40 dB and exact mode ≥ 50 dB inside the frame; outside it, the input's pixels bit for bit.
    @Test(arguments: cases)
    func renderMatchesTheReference(_ reference: ReferenceCase) throws {
        let source = try Fixtures.image("photos/\(reference.input)")
        let expected = try Fixtures.image("reference/\(reference.output)")
        let content = try reference.vibrantContent()
        for (quality, minimum) in [(Effect.Quality.fast, 40.0), (.exact, 50.0)] {
            let effect = try reference.effect(quality: quality, contentSize: content?.size)
            let plan = try RenderPlan(effect: effect, imageSize: source.size)
            let rendered = Renderer().render(source, plan: plan, vibrantContent: content, as: UInt8.self)
            let inside = ImageDifference(rendered, expected, region: plan.frame)
            print(
                String(
                    format: "PSNR %-6@ %6.2f dB (min %.0f)  max diff %3d  k=%-2d %@",
                    quality.rawValue, inside.psnr, minimum, inside.maxDifference, plan.downscaleFactor,
                    reference.output))
            #expect(inside.psnr >= minimum, "\(reference.output) \(quality): \(inside.psnr) dB")
            #expect(
                pixelsOutside(plan.frame, of: rendered) == pixelsOutside(plan.frame, of: source),
                "\(reference.output): pixels outside the frame changed")
        }
    }

    func pixelsOutside(_ frame: PixelRect, of image: RGBAImage<UInt8>) -> [UInt8] {
        var kept: [UInt8] = []
        for y in 0..<image.height {
            for x in 0..<image.width where !(x >= frame.x && x < frame.maxX && y >= frame.y && y < frame.maxY) {
                let index = (y * image.width + x) * 4
                kept.append(contentsOf: image.samples[index..<index + 4])
            }
        }
        return kept
    }
}
