import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// Issue 50, "words for people": counted nouns, frames clipped to the picture, vibrant content that cannot show,
/// and the text widths the charts lay their labels out with.
@Suite("Words for people")
struct WordsForPeopleTests {
    @Test func countsTakeTheNumberTheirCountAsksFor() {
        #expect(Plural.count(1, "case") == "1 case")
        #expect(Plural.count(0, "case") == "0 cases")
        #expect(Plural.count(2, "case") == "2 cases")
        #expect(Plural.count(-1, "degree") == "-1 degree")
        #expect(Plural.count(3, "pass") == "3 passes")
        #expect(Plural.count(1, "offscreen pass") == "1 offscreen pass")
        #expect(Plural.count(2, "render-target switch") == "2 render-target switches")
        #expect(Plural.count(5, "box") == "5 boxes")
        #expect(Plural.count(4, "entry") == "4 entries")
        #expect(Plural.count(4, "day") == "4 days")
        #expect(Plural.count(2, "cache miss") == "2 cache misses")
        #expect(Plural.count(2, "person", plural: "people") == "2 people")
        #expect(Plural.noun(1, "person", plural: "people") == "person")
    }

    @Test func aFramePartlyOutsideThePictureIsClippedWithANote() throws {
        let size = PixelSize(width: 600, height: 400)
        let inside = try RenderPlan.clippedFrame(PixelRect(x: 10, y: 20, width: 100, height: 50), in: size)
        #expect(inside.frame == PixelRect(x: 10, y: 20, width: 100, height: 50) && inside.note == nil)
        let whole = try RenderPlan.clippedFrame(nil, in: size)
        #expect(whole.frame == PixelRect(covering: size) && whole.note == nil)
        let right = try RenderPlan.clippedFrame(PixelRect(x: 500, y: 0, width: 300, height: 200), in: size)
        #expect(right.frame == PixelRect(x: 500, y: 0, width: 100, height: 200))
        #expect(
            right.note
                == "the frame 500,0,300,200 (x,y,w,h) reaches past the 600×400 picture: clipped to 500,0,100,200")
        let corner = try RenderPlan.clippedFrame(PixelRect(x: -50, y: -30, width: 100, height: 100), in: size)
        #expect(corner.frame == PixelRect(x: 0, y: 0, width: 50, height: 70))
        #expect(throws: BackdropError.self) {
            try RenderPlan.clippedFrame(PixelRect(x: 600, y: 0, width: 10, height: 10), in: size)
        }
        #expect(throws: BackdropError.self) {
            try RenderPlan.clippedFrame(PixelRect(x: -20, y: 0, width: 20, height: 10), in: size)
        }
        #expect(throws: BackdropError.self) {
            try RenderPlan.clippedFrame(PixelRect(x: 0, y: 0, width: 0, height: 10), in: size)
        }
    }

    @Test func aClippedFrameDrawsWhatItsInsidePartDraws() throws {
        let source = noiseImage(width: 120, height: 80)
        for style in [BlurStyle.light, .dark] {
            let clipped = try Renderer().render(
                source, effect: Effect(style: style, frame: PixelRect(x: 70, y: -10, width: 90, height: 60)))
            let inside = try Renderer().render(
                source, effect: Effect(style: style, frame: PixelRect(x: 70, y: 0, width: 50, height: 50)))
            #expect(clipped == inside, "\(style.name)")
        }
    }

    /// Content of one colour and alpha everywhere.
    static func solid(_ value: UInt8, alpha: UInt8 = 255) -> RGBAImage<UInt8> {
        RGBAImage(width: 40, height: 30, samples: (0..<(40 * 30)).flatMap { _ in [value, value, value, alpha] })
    }

    /// The rule (``VibrancyBlend/largestChange(of:atLeast:)``) against the renderer: content it calls invisible draws the
    /// same picture as no content at all, on every built-in style; content it calls visible draws another.
    @Test func vibrantContentThatCannotShowIsFoundByTheCompositingMaths() throws {
        let source = noiseImage(width: 90, height: 70)
        let frame = PixelRect(x: 5, y: 5, width: 80, height: 60)
        for style in BlurStyle.builtIn {
            let blend = style.vibrancyBlend
            let invisible = blend == .plusDarker ? Self.solid(255) : Self.solid(0)
            let visible = blend == .plusDarker ? Self.solid(0) : Self.solid(255)
            #expect(blend.largestChange(of: invisible) == 0, "\(style.name)")
            #expect(blend.largestChange(of: Self.solid(128, alpha: 0)) == 0, "\(style.name): transparent")
            #expect(blend.largestChange(of: visible) == 255, "\(style.name)")
            #expect(blend.invisibilityWarning(for: visible, style: style.name) == nil)
            let warning = try #require(blend.invisibilityWarning(for: invisible, style: style.name))
            #expect(warning.contains("cannot show on \(style.name)") && !warning.contains("\n"))
            #expect(warning.hasSuffix(blend == .plusDarker ? "draw it in black or grey" : "draw it in white or grey"))
            let bare = try Renderer().render(source, effect: Effect(style: style, frame: frame))
            func drawn(_ content: RGBAImage<UInt8>) throws -> RGBAImage<UInt8> {
                try Renderer().render(
                    source,
                    effect: Effect(
                        style: style, frame: frame, vibrancy: Vibrancy(x: 10, y: 10, contentSize: content.size)),
                    vibrantContent: content)
            }
            #expect(try drawn(invisible) == bare, "\(style.name): content the rule calls invisible shows")
            #expect(try drawn(visible) != bare, "\(style.name): content the rule calls visible does not show")
        }
        // Light grey under plus-darker moves a backdrop by (255 − 200)·255/255 = 55 levels at most.
        #expect(VibrancyBlend.plusDarker.largestChange(of: Self.solid(200)) == 55)
        #expect(VibrancyBlend.plusLighter.largestChange(of: Self.solid(200, alpha: 128)) == 200 * 128 / 255)
        // With a bound the scan stops at the first pixel that reaches it: a first pixel moving 55 levels, black after
        // it (255 levels) — the whole scan says 255, the bounded one the first pixel's 55.
        var mixed = Self.solid(0)
        mixed.samples.replaceSubrange(0..<4, with: [200, 200, 200, 255])
        #expect(VibrancyBlend.plusDarker.largestChange(of: mixed) == 255)
        #expect(VibrancyBlend.plusDarker.largestChange(of: mixed, atLeast: 1) == 55)
        #expect(VibrancyBlend.plusDarker.largestChange(of: mixed, atLeast: 100) == 255)
        #expect(VibrancyBlend.plusDarker.largestChange(of: Self.solid(255), atLeast: 1) == 0)
    }

    @Test func passKindsHaveWordsInTheirLegends() {
        for kind in PassKind.allCases {
            #expect(kind.words.allSatisfy { $0.isLowercase || $0 == " " }, "\(kind): '\(kind.words)'")
        }
        #expect(PassKind.horizontalBlur.words == "horizontal blur")
        #expect(PassKind.maskedComposite.words == "masked composite")
    }

    @Test func textWidthsBoundTheDrawnWidths() {
        // DejaVu Sans' advances (its metrics: units of 2048 per em) for a few labels, against the estimate.
        let dejaVu: [Character: Double] = [
            "c": 1126, "e": 1260, "l": 569, " ": 651, "(": 799, "a": 1255, "h": 1298, "d": 1300, ")": 799,
            "0": 1303, ".": 651, "2": 1303, "4": 1303, "m": 1995, "s": 1067,
        ]
        let text = "cell (cached) 0.24 ms"
        let drawn = text.reduce(0.0) { $0 + dejaVu[$1]! / 2048 } * 10
        let estimate = TextWidth.of(text, fontSize: 10)
        #expect(estimate >= drawn && estimate < drawn * 1.25, "\(estimate) against \(drawn)")
    }
}
