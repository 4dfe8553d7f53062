import Foundation

/// One frame drawn as the seed talk drew it (F4): a tiler row, a renderer row with the passes named, the idle
/// gaps in a colour of their own, and the vsync ticks every 16.67 ms. Self-contained SVG, no scripts or fonts
/// to fetch.
public enum TimelineSVG {
    /// The SVG of `estimate`'s frame.
    public static func render(_ estimate: Estimate) -> String {
        let frame = estimate.frame
        let width = 960.0, left = 90.0, right = 20.0
        let spanMs = max(frame.totalMs, Estimate.budgetMs) * 1.04
        let scale = (width - left - right) / spanMs
        func x(_ ms: Double) -> Double { left + ms * scale }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
        let tilerY = 56.0, rendererY = 104.0, barHeight = 30.0
        let colours: [PassKind: String] = [
            .capture: "#5b8def", .downscale: "#7fb3d5", .horizontalBlur: "#48c9b0", .verticalBlur: "#45b39d",
            .upscaleTint: "#f5b041", .tintLayer: "#f8c471", .tintOnly: "#f5cba7", .vibrantContent: "#af7ac5",
            .vibrancyFilter: "#8e44ad", .composite: "#aaaaaa",
        ]
        var svg: [String] = []
        let height = 250.0
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">")
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>")
        let title = String(format: "%@ · %@%@ · %@ · %.2f ms of %.2f ms · %@", estimate.device.name, estimate.style.name,
                           estimate.vibrancy ? " + vibrancy" : "", estimate.path.rawValue, frame.totalMs,
                           Estimate.budgetMs, estimate.verdict.rawValue)
        svg.append("<text x=\"\(f(left))\" y=\"22\" font-size=\"14\" font-weight=\"bold\">\(escaped(title))</text>")
        svg.append("<text x=\"10\" y=\"\(f(tilerY + 20))\">Tiler</text>")
        svg.append("<text x=\"10\" y=\"\(f(rendererY + 20))\">Renderer</text>")
        // Vsync ticks.
        var tick = 0.0
        while tick <= spanMs {
            svg.append("<line x1=\"\(f(x(tick)))\" y1=\"40\" x2=\"\(f(x(tick)))\" y2=\"\(f(rendererY + barHeight + 12))\" stroke=\"#c0392b\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>")
            let anchor = x(tick) > width - 120 ? "end" : "start"
            let labelX = anchor == "end" ? x(tick) - 3 : x(tick) + 3
            svg.append("<text x=\"\(f(labelX))\" y=\"\(f(rendererY + barHeight + 24))\" text-anchor=\"\(anchor)\" fill=\"#c0392b\">vsync \(f(tick)) ms</text>")
            tick += Estimate.budgetMs
        }
        // The tiler works ahead: the first pass's geometry before the renderer starts, each next one during the
        // pass before it.
        for (index, priced) in frame.passes.enumerated() {
            let start = index == 0 ? 0 : frame.passes[index - 1].startMs
            svg.append("<rect x=\"\(f(x(start)))\" y=\"\(f(tilerY))\" width=\"\(f(max(frame.tilerMs * scale, 2)))\" height=\"\(f(barHeight))\" fill=\"#34495e\"><title>tiling: \(escaped(priced.pass.name))</title></rect>")
        }
        var narrowCount = 0
        for priced in frame.passes {
            let colour = colours[priced.pass.kind] ?? "#999999"
            let w = max(priced.ms * scale, 1)
            let label = String(format: "%@ %.2f ms", priced.pass.name, priced.ms)
            svg.append("<rect x=\"\(f(x(priced.startMs)))\" y=\"\(f(rendererY))\" width=\"\(f(w))\" height=\"\(f(barHeight))\" fill=\"\(colour)\" stroke=\"#ffffff\"><title>\(escaped(label)) (\(priced.bound.rawValue)-bound)</title></rect>")
            let centre = x(priced.startMs) + w / 2
            if Double(label.count) * 6.2 < w - 6 {
                // Wide enough: the name inside the bar.
                svg.append("<text x=\"\(f(centre))\" y=\"\(f(rendererY + 19))\" text-anchor=\"middle\" font-size=\"11\" fill=\"#ffffff\">\(escaped(label))</text>")
            } else {
                // Narrow: below the row on a leader line, staggered over four rows.
                let labelY = rendererY + barHeight + 44 + Double(narrowCount % 4) * 14
                narrowCount += 1
                let anchor = centre < left + 150 ? "start" : "middle"
                svg.append("<line x1=\"\(f(centre))\" y1=\"\(f(rendererY + barHeight))\" x2=\"\(f(centre))\" y2=\"\(f(labelY - 10))\" stroke=\"#999999\" stroke-width=\"0.5\"/>")
                svg.append("<text x=\"\(f(centre))\" y=\"\(f(labelY))\" text-anchor=\"\(anchor)\" font-size=\"10\">\(escaped(label))</text>")
            }
        }
        for gap in frame.gaps {
            svg.append("<rect x=\"\(f(x(gap.startMs)))\" y=\"\(f(rendererY - 6))\" width=\"\(f(max(gap.ms * scale, 2)))\" height=\"\(f(barHeight + 12))\" fill=\"#e74c3c\"><title>idle: render-target switch \(String(format: "%.2f", gap.ms)) ms</title></rect>")
        }
        let legend = String(format: "red: idle GPU at render-target switches (%d gaps, %.2f ms) · %.2f ms left of the frame · predictions of Backdrop's cost model",
                            frame.gaps.count, frame.idleMs, estimate.leftMs)
        svg.append("<text x=\"\(f(left))\" y=\"\(f(height - 8))\" font-size=\"11\" fill=\"#555555\">\(escaped(legend))</text>")
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
