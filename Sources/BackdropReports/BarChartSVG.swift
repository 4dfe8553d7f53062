import BackdropRendering
import BackdropScenes
import Foundation

/// A grouped bar chart of predicted full-screen frame cost per device, one bar per style, with the 16.67 ms
/// budget drawn across. Self-contained SVG.
public enum BarChartSVG {
    /// The chart of `estimates`, grouped by device in the order given; `title` above it.
    public static func render(_ estimates: [Estimate], title: String) -> String {
        var devices: [Device] = []
        for estimate in estimates where !devices.contains(where: { $0.id == estimate.device.id }) {
            devices.append(estimate.device)
        }
        let styles = BlurStyle.builtIn.map(\.name)
        let colors = ["extraLight": "#f5b041", "light": "#5dade2", "dark": "#34495e"]
        let width = 960.0, height = 360.0, left = 56.0, right = 16.0, top = 40.0, bottom = 96.0
        let plotHeight = height - top - bottom
        let maximum = max(Estimate.budgetMs * 1.25, (estimates.map(\.totalMs).max() ?? 0) * 1.05)
        let ceiling = min(maximum, Estimate.budgetMs * 4)  // keep the budget line readable; taller bars are cut
        func y(_ ms: Double) -> Double { top + plotHeight * (1 - min(ms, ceiling) / ceiling) }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
        let groupWidth = (width - left - right) / Double(max(devices.count, 1))
        let barWidth = groupWidth * 0.8 / Double(styles.count)
        var svg = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>",
            "<text x=\"\(f(left))\" y=\"22\" font-size=\"14\" font-weight=\"bold\">\(TimelineSVG.escaped(title))</text>",
        ]
        var tick = 0.0
        while tick <= ceiling {
            svg.append(
                "<line x1=\"\(f(left))\" y1=\"\(f(y(tick)))\" x2=\"\(f(width - right))\" y2=\"\(f(y(tick)))\" stroke=\"#eeeeee\"/>"
            )
            svg.append("<text x=\"\(f(left - 6))\" y=\"\(f(y(tick) + 4))\" text-anchor=\"end\">\(Int(tick)) ms</text>")
            tick += 5
        }
        for (group, device) in devices.enumerated() {
            let x0 = left + Double(group) * groupWidth + groupWidth * 0.1
            for (index, style) in styles.enumerated() {
                guard let estimate = estimates.first(where: { $0.device.id == device.id && $0.style.name == style })
                else { continue }
                let x = x0 + Double(index) * barWidth
                let label = String(
                    format: "%@ %@: %.2f ms (%@, %@)", device.id, style, estimate.totalMs,
                    estimate.path.rawValue, estimate.verdict.rawValue)
                svg.append(
                    "<rect x=\"\(f(x))\" y=\"\(f(y(estimate.totalMs)))\" width=\"\(f(barWidth - 1))\" height=\"\(f(y(0) - y(estimate.totalMs)))\" fill=\"\(colors[style] ?? "#999999")\"\(estimate.path == .tintOnly ? " fill-opacity=\"0.45\"" : "")><title>\(TimelineSVG.escaped(label))</title></rect>"
                )
            }
            let cx = x0 + groupWidth * 0.4
            svg.append(
                "<text transform=\"translate(\(f(cx)),\(f(y(0) + 10))) rotate(40)\" font-size=\"10\">\(TimelineSVG.escaped(device.id))</text>"
            )
        }
        svg.append(
            "<line x1=\"\(f(left))\" y1=\"\(f(y(Estimate.budgetMs)))\" x2=\"\(f(width - right))\" y2=\"\(f(y(Estimate.budgetMs)))\" stroke=\"#c0392b\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>"
        )
        svg.append(
            "<text x=\"\(f(width - right))\" y=\"\(f(y(Estimate.budgetMs) - 5))\" text-anchor=\"end\" fill=\"#c0392b\">16.67 ms: one 60 Hz frame</text>"
        )
        var legendX = left
        for style in styles {
            svg.append(
                "<rect x=\"\(f(legendX))\" y=\"\(f(height - 18))\" width=\"12\" height=\"12\" fill=\"\(colors[style] ?? "#999999")\"/>"
            )
            svg.append("<text x=\"\(f(legendX + 16))\" y=\"\(f(height - 8))\">\(style)</text>")
            legendX += 90
        }
        svg.append(
            "<text x=\"\(f(legendX + 10))\" y=\"\(f(height - 8))\" fill=\"#555555\">pale bars: the device's tint-only fallback · bars above \(Int(ceiling)) ms are cut · predictions</text>"
        )
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }
}
