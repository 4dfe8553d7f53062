import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// Issue 50, "words for people", as the atlas (Reports/) shows it: legends in words, labels that never overlap as
/// a browser draws them, captions before their figures.
@Suite("Words for people: the atlas")
struct ReportWordsTests {
    static let images = Fixtures.packageRoot.appendingPathComponent("Reports/images")

    /// The committed timelines (ReportTests checks they are current), and a scene's timeline on every device.
    static func timelines() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: images.path).filter {
            $0.hasSuffix(".svg") && ($0.hasPrefix("timeline-") || $0.hasPrefix("scene-") || $0.hasPrefix("run-"))
        }.sorted()
    }

    /// Every pair of text boxes (getBBox, as Chromium lays the text out in the fonts it has) that overlap by more
    /// than half a pixel each way, in the SVG at `url`.
    static let overlapsScript = """
        (() => {
          const boxes = [...document.querySelectorAll('text')].filter(t => !t.hasAttribute('transform')).map(t => {
            const b = t.getBBox(); return {s: t.textContent, x: b.x, y: b.y, w: b.width, h: b.height};
          });
          const found = [];
          for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
            const a = boxes[i], b = boxes[j];
            const across = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
            const down = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
            if (across > 0.5 && down > 0.5) found.push(a.s + ' | ' + b.s);
          }
          return JSON.stringify({texts: boxes.length, overlaps: found});
        })()
        """

    @Test func theTimelinesLabelsNeverOverlapInABrowser() throws {
        let files = try Self.timelines()
        #expect(files.count >= Device.all.count + 9, "\(files)")
        let browser = try HeadlessChromium()
        for file in files {
            try browser.open("file://" + Self.images.appendingPathComponent(file).path)
            let answer = try #require(try browser.evaluate(Self.overlapsScript) as? String)
            let result = try #require(
                try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any], "\(file): \(answer)")
            #expect((result["texts"] as? Int ?? 0) >= 3, "\(file): \(answer)")
            #expect((result["overlaps"] as? [String] ?? ["?"]).isEmpty, "\(file): overlapping labels \(answer)")
        }
    }

    @Test func aCrowdedFrameNamesItsNarrowPassesOnceEachApart() throws {
        let svg = try String(
            contentsOf: Self.images.appendingPathComponent("scene-photos-table-rasterized.svg"), encoding: .utf8)
        #expect(svg.contains(">cell (cached) ×"), "the six cached cells are not named once")
        for code in ["horizontalBlur", "maskedComposite", "offscreenComposite", "upscaleTint", "vibrancyFilter"] {
            for file in try Self.timelines() {
                let text = try String(contentsOf: Self.images.appendingPathComponent(file), encoding: .utf8)
                #expect(!text.contains(">\(code)<"), "\(file) names a pass kind in code: \(code)")
            }
        }
    }

    @Test func everyCaptionComesBeforeItsFigure() throws {
        let page = try String(
            contentsOf: Fixtures.packageRoot.appendingPathComponent("Reports/index.html"), encoding: .utf8)
        let figures = page.components(separatedBy: "<figure").dropFirst()
        #expect(figures.count >= Device.all.count + 9 + 3, "\(figures.count) figures")
        for figure in figures {
            let body = figure[figure.index(after: figure.firstIndex(of: ">")!)...]
            #expect(body.hasPrefix("<figcaption>"), "a figure without a caption first: \(body.prefix(120))")
        }
    }
}
