import BackdropImageIO
import BackdropRendering
import BackdropScenes
import Foundation

/// One frame drawn as the seed talk drew it (F4): a tiler row, the renderer's passes (on-screen passes in one
/// row, offscreen passes in the row below, so a scene's many offscreen passes stay apart from its draws), the idle
/// gaps in red across both, and the vsync ticks every 16.67 ms. A pass too narrow for its name is named below the
/// rows (neighbours of one name once, "cell ×6"), on as many rows as keep the labels apart, up to
/// `maximumLabelRows` (5); past that only tooltips name them. Every pass carries its name and time as a tooltip, and a
/// legend names the colours in words. Label widths are `TextWidth`'s estimates, so no two labels overlap.
/// Self-contained SVG, no scripts or fonts to fetch.
public enum TimelineSVG {
    /// The SVG of `estimate`'s frame.
    public static func render(_ estimate: Estimate) -> String {
        let title = String(
            format: "%@ · %@%@ · %@ · %.2f ms of %.2f ms · %@ (predicted)", estimate.device.name,
            estimate.style.name, estimate.vibrancy ? " + vibrancy" : "", estimate.path.rawValue,
            estimate.totalMs, Estimate.budgetMs, estimate.verdict.rawValue)
        return render(estimate.frame, title: title)
    }

    /// The SVG of a scene's steady frame.
    public static func render(_ estimate: SceneEstimate) -> String {
        let frame = estimate.frame
        let title = String(
            format: "%@ · %@ · %.2f ms, %.0f fps, GPU %.0f %% · %@ (predicted)", estimate.device.name,
            estimate.scene.name, frame.totalMs, frame.fps, frame.gpuPercent, frame.verdict.rawValue)
        return render(frame, title: title)
    }

    static let colors: [PassKind: String] = [
        .capture: "#5b8def", .downscale: "#7fb3d5", .horizontalBlur: "#48c9b0", .verticalBlur: "#45b39d",
        .upscaleTint: "#f5b041", .tintLayer: "#f8c471", .tintOnly: "#f5cba7", .vibrantContent: "#af7ac5",
        .vibrancyFilter: "#8e44ad", .composite: "#aaaaaa", .layer: "#95a5a6", .mask: "#d35400",
        .maskedComposite: "#e67e22", .shadowShape: "#2e4053", .shadow: "#566573", .offscreenComposite: "#1abc9c",
        .materialFilters: "#76d7c4", .glassFace: "#85c1e9",
    ]

    /// A label under the rows: a run of neighbouring narrow passes of one name (one pass, or "cell ×6") on a
    /// leader line from the run's middle, at `x` (its left end) on label row `row`.
    struct NarrowLabel {
        var text: String
        var centre: Double
        var barBottom: Double
        var x = 0.0
        var row = 0
    }

    /// The most label rows under the bars; a frame whose narrow passes need more names them in tooltips only.
    static let maximumLabelRows = 5

    /// The labels' rows, each label on the first row where it clears the one before it by `gap` pixels: no two
    /// labels' boxes (`TextWidth`) overlap. Nil when they need more than `maximumLabelRows` rows.
    static func placed(_ labels: [NarrowLabel], left: Double, right: Double, fontSize: Double) -> [NarrowLabel]? {
        let gap = 8.0
        var rowEnds: [Double] = []
        var placed: [NarrowLabel] = []
        for var label in labels {
            let width = TextWidth.of(label.text, fontSize: fontSize)
            label.x = min(max(left, label.centre - width / 2), right - width)
            guard
                let row = rowEnds.firstIndex(where: { $0 + gap <= label.x })
                    ?? (rowEnds.count < maximumLabelRows ? rowEnds.count : nil)
            else { return nil }
            if row == rowEnds.count { rowEnds.append(0) }
            rowEnds[row] = label.x + width
            label.row = row
            placed.append(label)
        }
        return placed
    }

    /// The SVG of `frame` under `title`.
    public static func render(_ frame: FrameTimeline, title: String) -> String {
        let width = 960.0, left = 90.0, right = 20.0
        let spanMs = max(frame.totalMs, FrameTimeline.budgetMs) * 1.04
        let scale = (width - left - right) / spanMs
        func x(_ ms: Double) -> Double { left + ms * scale }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
        let tilerY = 56.0, screenY = 100.0, offscreenY = 136.0, barHeight = 30.0
        let barFont = 11.0, labelFont = 10.0, legendFont = 10.0
        func fitsInside(_ priced: FrameTimeline.PricedPass) -> Bool {
            TextWidth.of(label(priced), fontSize: barFont) < max(priced.ms * scale, 1) - 6
        }
        // Narrow passes: neighbours of one name and row grouped, each group named once below the rows.
        var groups: [(passes: [FrameTimeline.PricedPass], last: Int)] = []
        for (index, priced) in frame.passes.enumerated() where !fitsInside(priced) {
            if let previous = groups.last, previous.last == index - 1,
                previous.passes[0].pass.name == priced.pass.name, previous.passes[0].isOffscreen == priced.isOffscreen
            {
                groups[groups.count - 1].passes.append(priced)
                groups[groups.count - 1].last = index
            } else {
                groups.append(([priced], index))
            }
        }
        let labels = groups.map { group in
            let first = group.passes[0], last = group.passes[group.passes.count - 1]
            let start = x(first.startMs), end = x(last.startMs) + max(last.ms * scale, 1)
            let ms = group.passes.reduce(0) { $0 + $1.ms }
            let text =
                group.passes.count == 1
                ? label(first) : String(format: "%@ ×%d %.2f ms", first.pass.name, group.passes.count, ms)
            return NarrowLabel(
                text: text, centre: (start + end) / 2,
                barBottom: (first.isOffscreen ? offscreenY : screenY) + barHeight)
        }
        let firstLabelY = offscreenY + barHeight + 38
        let placedLabels = placed(labels, left: left, right: width - 4, fontSize: labelFont)
        let labelRows = (placedLabels?.map(\.row).max()).map { $0 + 1 } ?? 0
        let kinds = PassKind.allCases.filter { kind in frame.passes.contains { $0.pass.kind == kind } }
        // The legend: swatch and words, left to right, wrapping at the right edge.
        var legend: [(kind: PassKind, x: Double, row: Int)] = []
        var legendX = left, legendRow = 0
        for kind in kinds {
            let itemWidth = 14 + TextWidth.of(kind.words, fontSize: legendFont) + 18
            if legendX + itemWidth > width - 4, legendX > left {
                legendX = left
                legendRow += 1
            }
            legend.append((kind, legendX, legendRow))
            legendX += itemWidth
        }
        let labelsBottom = firstLabelY + 6 + Double(labelRows) * 14
        let note = String(
            format:
                "red: the renderer idle (%@, %.2f ms; the tiler's lead %.2f ms) · %@ · %.2f ms left · predicted, %@: %@%@",
            Plural.count(frame.gaps.count, "gap"), frame.gapsMs, frame.tilerMs,
            Plural.count(frame.offscreenPasses, "offscreen pass"), frame.leftMs,
            FrameTimeline.Ranges.coverageText, frame.ranges().text,
            placedLabels == nil && !labels.isEmpty ? " · hover a pass for its name" : "")
        // The note on one line when it fits the width, else on two, parted before "predicted".
        let noteLines =
            TextWidth.of(note, fontSize: 11) <= width - left - 4
            ? [note]
            : note.components(separatedBy: " · predicted, ").enumerated().map { $0 == 0 ? $1 : "predicted, " + $1 }
        let height = labelsBottom + 20 + Double(legendRow + 1) * 16 + 10 + Double(noteLines.count) * 14
        var svg: [String] = []
        svg.append(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">"
        )
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>")
        svg.append("<text x=\"\(f(left))\" y=\"22\" font-size=\"14\" font-weight=\"bold\">\(escaped(title))</text>")
        svg.append("<text x=\"10\" y=\"\(f(tilerY + 20))\">Tiler</text>")
        svg.append("<text x=\"10\" y=\"\(f(screenY + 20))\">Renderer</text>")
        svg.append("<text x=\"10\" y=\"\(f(offscreenY + 20))\" fill=\"#555555\">offscreen</text>")
        // Vsync ticks.
        var tick = 0.0
        while tick <= spanMs {
            svg.append(
                "<line x1=\"\(f(x(tick)))\" y1=\"40\" x2=\"\(f(x(tick)))\" y2=\"\(f(offscreenY + barHeight + 8))\" stroke=\"#c0392b\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>"
            )
            let anchor = x(tick) > width - 120 ? "end" : "start"
            let labelX = anchor == "end" ? x(tick) - 3 : x(tick) + 3
            svg.append(
                "<text x=\"\(f(labelX))\" y=\"\(f(offscreenY + barHeight + 20))\" text-anchor=\"\(anchor)\" fill=\"#c0392b\">vsync \(f(tick)) ms</text>"
            )
            tick += FrameTimeline.budgetMs
        }
        // The tiler bins each render ahead of the renderer; a render that samples the one before it waits for it
        // (lighter: the tiling the renderer then waits for).
        for run in frame.tiling {
            svg.append(
                "<rect x=\"\(f(x(run.startMs)))\" y=\"\(f(tilerY))\" width=\"\(f(max(run.ms * scale, 2)))\" height=\"\(f(barHeight))\" fill=\"\(run.waited ? "#7f8c8d" : "#34495e")\"><title>tiling: \(escaped(run.layer))\(run.waited ? " (waited for the texture it samples)" : "")</title></rect>"
            )
        }
        for priced in frame.passes {
            let color = colors[priced.pass.kind] ?? "#999999"
            let w = max(priced.ms * scale, 1)
            let y = priced.isOffscreen ? offscreenY : screenY
            let text = label(priced)
            svg.append(
                "<rect x=\"\(f(x(priced.startMs)))\" y=\"\(f(y))\" width=\"\(f(w))\" height=\"\(f(barHeight))\" fill=\"\(color)\" stroke=\"#ffffff\" stroke-width=\"0.5\"><title>\(escaped(text)) (\(priced.bound.rawValue)-bound, \(priced.isOffscreen ? "offscreen" : "on screen"), layer \(escaped(priced.gpuPass.layer)))</title></rect>"
            )
            if fitsInside(priced) {
                svg.append(
                    "<text x=\"\(f(x(priced.startMs) + w / 2))\" y=\"\(f(y + 19))\" text-anchor=\"middle\" font-size=\"\(Int(barFont))\" fill=\"#ffffff\">\(escaped(text))</text>"
                )
            }
        }
        // Narrow passes named below the rows on leader lines, each row's labels clear of each other.
        for label in placedLabels ?? [] {
            let labelY = firstLabelY + Double(label.row) * 14
            svg.append(
                "<line x1=\"\(f(label.centre))\" y1=\"\(f(label.barBottom))\" x2=\"\(f(label.centre))\" y2=\"\(f(labelY - 10))\" stroke=\"#999999\" stroke-width=\"0.5\"/>"
            )
            svg.append(
                "<text x=\"\(f(label.x))\" y=\"\(f(labelY))\" font-size=\"\(Int(labelFont))\">\(escaped(label.text))</text>"
            )
        }
        for gap in frame.gaps {
            svg.append(
                "<rect x=\"\(f(x(gap.startMs)))\" y=\"\(f(screenY - 6))\" width=\"\(f(max(gap.ms * scale, 2)))\" height=\"\(f(offscreenY - screenY + barHeight + 12))\" fill=\"#e74c3c\" fill-opacity=\"0.85\"><title>idle: \(gap.waitsForTexture ? "waiting for a texture and its tiling" : "waiting for the tiler") \(String(format: "%.2f", gap.ms)) ms</title></rect>"
            )
        }
        // Legend: one swatch per kind of pass in the frame, in words.
        for item in legend {
            let ly = labelsBottom + Double(item.row) * 16
            svg.append(
                "<rect x=\"\(f(item.x))\" y=\"\(f(ly - 9))\" width=\"10\" height=\"10\" fill=\"\(colors[item.kind] ?? "#999999")\"/>"
            )
            svg.append(
                "<text x=\"\(f(item.x + 14))\" y=\"\(f(ly))\" font-size=\"\(Int(legendFont))\">\(item.kind.words)</text>"
            )
        }
        for (index, line) in noteLines.enumerated() {
            let y = height - 8 - Double(noteLines.count - 1 - index) * 14
            svg.append(
                "<text x=\"\(f(left))\" y=\"\(f(y))\" font-size=\"11\" fill=\"#555555\">\(escaped(line))</text>")
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    static func label(_ priced: FrameTimeline.PricedPass) -> String {
        String(format: "%@ %.2f ms", priced.pass.name, priced.ms)
    }

    /// `text` for XML: the five markup characters as entities, control characters (which XML 1.0 forbids even as
    /// references, a NUL among them) as their escapes.
    static func escaped(_ text: String) -> String {
        text.escapingControlCharacters.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
            of: "<", with: "&lt;"
        )
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
