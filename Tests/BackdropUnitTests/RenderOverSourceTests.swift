import Backdrop
import BackdropTestSupport
import Testing

/// `Renderer.render(over:plan:vibrantContent:)`: the command line's render drawn over the decoded picture's own
/// buffer. The same bytes as a render into a new buffer for every kind of plan; the source's buffer reused exactly
/// where the plan reads the source only before its composite (the fast path's capture and downscale, no glass).
@Suite("Drawing a render over its source")
struct RenderOverSourceTests {
    static let content: RGBAImage<UInt8> = {
        var content = noiseImage(width: 40, height: 20, seed: 7, alpha: true)
        for x in 0..<40 { content[x, 0] = SIMD4(0, 0, 0, 0) }
        return content
    }()

    /// (a name, the effect, its vibrant content, whether the source's buffer is drawn over).
    static func cases() throws -> [(String, Effect, RGBAImage<UInt8>?, Bool)] {
        let frame = PixelRect(x: 20, y: 10, width: 150, height: 90)
        let material = try StyleCatalogue.style(named: "systemThinMaterialDark", appearance: nil)
        let glass = try StyleCatalogue.style(named: "glass", appearance: nil)
        let vibrancy = Vibrancy(x: 30, y: 20, contentSize: content.size)
        let level = Vibrancy(x: 30, y: 20, contentSize: content.size, level: .secondaryLabel)
        return [
            ("light, whole picture", Effect(style: .light), nil, true),
            ("dark, a frame inside", Effect(style: .dark, frame: frame, scale: 2), nil, true),
            ("extraLight, blended vibrancy", Effect(style: .extraLight, vibrancy: vibrancy), content, true),
            ("a material, a level's matrix", Effect(style: material, frame: frame, vibrancy: level), content, true),
            ("light, exact", Effect(style: .light, quality: .exact), nil, false),
            ("light, tint-only", Effect(style: .light, path: .tintOnly), nil, false),
            ("glass", Effect(style: glass, frame: frame), nil, false),
        ]
    }

    @Test func theBytesAreARendersIntoANewBuffer() throws {
        for (name, effect, content, drawsOver) in try Self.cases() {
            let source = noiseImage(width: 200, height: 130, seed: 11)
            let plan = try RenderPlan(effect: effect, imageSize: source.size)
            let expected = Renderer().render(source, plan: plan, vibrantContent: content, as: UInt8.self)
            var owned = source
            owned[0, 0] = source[0, 0]  // a buffer of its own, referenced once
            let address = owned.samples.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
            let drawn = Renderer().render(over: consume owned, plan: plan, vibrantContent: content)
            #expect(drawn == expected, "\(name)")
            let drawnAddress = drawn.samples.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
            #expect(
                (drawnAddress == address) == drawsOver, "\(name): drawn over the source: \(drawnAddress == address)")
            #expect(source == noiseImage(width: 200, height: 130, seed: 11), "\(name): the caller's copy is untouched")
        }
    }

    /// The command line's path: a picture decoded and rendered by a `PreparedRender` the caller is done with is drawn
    /// over in its own buffer (glass's is not), with the bytes of the borrowing render.
    @Test(arguments: [("systemMaterial", true), ("light", true), ("glass", false)])
    func aPreparedRenderOfAPictureTheCallerIsDoneWithDrawsOverIt(style: String, drawsOver: Bool) throws {
        var request = RenderRequest()
        request.input = "picture.png"
        request.style = style
        request.scale = 2
        let prepared = try request.prepare(files: .paths(), spelling: .option)
        let borrowed = try prepared.render(noiseImage(width: 120, height: 80, seed: 3)).picture.eightBit
        let picture = noiseImage(width: 120, height: 80, seed: 3)
        let address = picture.samples.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let consumed = try #require(try prepared.render(consuming: consume picture).picture.eightBit)
        #expect(borrowed == consumed, "\(style)")
        let drawnAddress = consumed.samples.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        #expect((drawnAddress == address) == drawsOver, "\(style): drawn over the picture: \(drawnAddress == address)")
    }
}
