import BackdropRendering
import BackdropScenes
import Foundation

/// One frame drawn as the seed talk drew it (F4): a tiler row, the renderer's passes (on-screen passes in one
/// row, offscreen passes in the row below, so a scene's many offscreen passes stay apart from its draws), the idle
/// gaps in red across both, and the vsync ticks every 16.67 ms. Narrow passes are named below the rows only while
/// there are few of them; every pass carries its name and time as a tooltip, and a legend names the colours.
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

    /// The SVG of `frame` under `title`.
    public static func render(_ frame: FrameTimeline, title: String) -> String {
        let width = 960.0, left = 90.0, right = 20.0
        let spanMs = max(frame.totalMs, FrameTimeline.budgetMs) * 1.04
        let scale = (width - left - right) / spanMs
        func x(_ ms: Double) -> Double { left + ms * scale }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
        let tilerY = 56.0, screenY = 100.0, offscreenY = 136.0, barHeight = 30.0
        let narrow = frame.passes.filter { Double(label($0).count) * 6.2 >= max($0.ms * scale, 1) - 6 }
        let labelNarrow = narrow.count <= 8
        let kinds = PassKind.allCases.filter { kind in frame.passes.contains { $0.pass.kind == kind } }
        let legendRows = Int((Double(kinds.count) / 6).rounded(.up))
        let labelsBottom = offscreenY + barHeight + 44 + (labelNarrow ? Double(min(narrow.count, 4)) * 14 : 0)
        let height = labelsBottom + 20 + Double(legendRows) * 16 + 24
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
        var narrowCount = 0
        for priced in frame.passes {
            let color = colors[priced.pass.kind] ?? "#999999"
            let w = max(priced.ms * scale, 1)
            let y = priced.isOffscreen ? offscreenY : screenY
            let text = label(priced)
            svg.append(
                "<rect x=\"\(f(x(priced.startMs)))\" y=\"\(f(y))\" width=\"\(f(w))\" height=\"\(f(barHeight))\" fill=\"\(color)\" stroke=\"#ffffff\" stroke-width=\"0.5\"><title>\(escaped(text)) (\(priced.bound.rawValue)-bound, \(priced.isOffscreen ? "offscreen" : "on screen"), layer \(escaped(priced.gpuPass.layer)))</title></rect>"
            )
            let centre = x(priced.startMs) + w / 2
            if Double(text.count) * 6.2 < w - 6 {
                svg.append(
                    "<text x=\"\(f(centre))\" y=\"\(f(y + 19))\" text-anchor=\"middle\" font-size=\"11\" fill=\"#ffffff\">\(escaped(text))</text>"
                )
            } else if labelNarrow {
                // Few narrow passes: each named below the rows on a leader line, staggered over four rows.
                let labelY = offscreenY + barHeight + 38 + Double(narrowCount % 4) * 14
                narrowCount += 1
                let anchor = centre < left + 150 ? "start" : "middle"
                svg.append(
                    "<line x1=\"\(f(centre))\" y1=\"\(f(y + barHeight))\" x2=\"\(f(centre))\" y2=\"\(f(labelY - 10))\" stroke=\"#999999\" stroke-width=\"0.5\"/>"
                )
                svg.append(
                    "<text x=\"\(f(centre))\" y=\"\(f(labelY))\" text-anchor=\"\(anchor)\" font-size=\"10\">\(escaped(text))</text>"
                )
            }
        }
        for gap in frame.gaps {
            svg.append(
                "<rect x=\"\(f(x(gap.startMs)))\" y=\"\(f(screenY - 6))\" width=\"\(f(max(gap.ms * scale, 2)))\" height=\"\(f(offscreenY - screenY + barHeight + 12))\" fill=\"#e74c3c\" fill-opacity=\"0.85\"><title>idle: \(gap.waitsForTexture ? "waiting for a texture and its tiling" : "waiting for the tiler") \(String(format: "%.2f", gap.ms)) ms</title></rect>"
            )
        }
        // Legend: one swatch per kind of pass in the frame.
        for (index, kind) in kinds.enumerated() {
            let lx = left + Double(index % 6) * 140, ly = labelsBottom + Double(index / 6) * 16
            svg.append(
                "<rect x=\"\(f(lx))\" y=\"\(f(ly - 9))\" width=\"10\" height=\"10\" fill=\"\(colors[kind] ?? "#999999")\"/>"
            )
            svg.append("<text x=\"\(f(lx + 14))\" y=\"\(f(ly))\" font-size=\"10\">\(kind.rawValue)</text>")
        }
        let note = String(
            format:
                "red: the renderer idle (%d gaps, %.2f ms; the tiler's lead %.2f ms) · %d offscreen passes · %.2f ms left · predicted, %@: %@%@",
            frame.gaps.count, frame.gapsMs, frame.tilerMs, frame.offscreenPasses, frame.leftMs,
            FrameTimeline.Ranges.coverageText, frame.ranges().text,
            labelNarrow ? "" : " · hover a pass for its name")
        svg.append(
            "<text x=\"\(f(left))\" y=\"\(f(height - 8))\" font-size=\"11\" fill=\"#555555\">\(escaped(note))</text>")
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
