import BackdropCalibration
import BackdropScenes
import Foundation

/// `backdrop estimate --model --format svg`: every figure of ``ModelFigure/all(for:)`` as a row, measured against
/// predicted on one logarithmic axis of "× the figure" (the figures have different units): the measured range
/// as a grey bar, the prediction as a dot (a span as a line), filled where the fit used the figure and hollow
/// where it was held out, green inside its range and red outside. Deterministic text, no scripts.
public enum ModelFitSVG {
    /// The chart's width, px, and the room for the labels on the left.
    static let width = 900.0
    static let labelWidth = 430.0
    static let rowHeight = 14.0
    /// The axis runs from a quarter to four times the figure.
    static let span = 4.0

    /// The chart of `model`'s figures.
    public static func render(_ model: CostModel) -> String {
        let figures = ModelFigure.all(for: model)
        let top = 40.0, plotWidth = width - labelWidth - 20
        let height = top + Double(figures.count) * rowHeight + 40
        func f(_ value: Double) -> String { String(format: "%.1f", value) }
        func x(_ ratio: Double) -> Double {
            let clamped = min(max(ratio, 1 / span), span)
            return labelWidth + (log(clamped) / log(span) + 1) / 2 * plotWidth
        }
        var svg = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"10\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>",
            "<text x=\"10\" y=\"16\" font-size=\"13\">Backdrop's cost model: every figure, predicted against measured (× the figure, log scale)</text>",
        ]
        for tick in [0.25, 0.5, 1, 2, 4] {
            let tx = x(tick)
            svg.append(
                "<line x1=\"\(f(tx))\" y1=\"\(f(top - 6))\" x2=\"\(f(tx))\" y2=\"\(f(height - 30))\" stroke=\"\(tick == 1 ? "#555555" : "#dddddd")\"/>"
            )
            svg.append(
                "<text x=\"\(f(tx))\" y=\"\(f(top - 10))\" text-anchor=\"middle\">\(tick < 1 ? "1/\(Int(1 / tick))" : "\(Int(tick))")×</text>"
            )
        }
        for (index, figure) in figures.enumerated() {
            let y = top + Double(index) * rowHeight + rowHeight / 2
            let reference = reference(of: figure)
            let label = "\(figure.id) \(figure.device): \(figure.what)"
            svg.append("<text x=\"10\" y=\"\(f(y + 3.5))\">\(TimelineSVG.escaped(String(label.prefix(78))))</text>")
            let barEnd = figure.high.isFinite ? x(figure.high / reference) : x(span)
            svg.append(
                "<rect x=\"\(f(x(figure.low / reference)))\" y=\"\(f(y - 3))\" width=\"\(f(max(1, barEnd - x(figure.low / reference))))\" height=\"6\" fill=\"#cccccc\"/>"
            )
            let colour = figure.inRange ? "#2e8b57" : "#e74c3c"
            let fill = figure.use == .fitted ? colour : "#ffffff"
            if let high = figure.predictedHigh {
                svg.append(
                    "<line x1=\"\(f(x(figure.predicted / reference)))\" y1=\"\(f(y))\" x2=\"\(f(x(high / reference)))\" y2=\"\(f(y))\" stroke=\"\(colour)\" stroke-width=\"2\"/>"
                )
            }
            svg.append(
                "<circle cx=\"\(f(x(figure.predicted / reference)))\" cy=\"\(f(y))\" r=\"3.5\" fill=\"\(fill)\" stroke=\"\(colour)\" stroke-width=\"1.5\"/>"
            )
        }
        svg.append(
            "<text x=\"10\" y=\"\(f(height - 12))\" fill=\"#555555\">grey: the measured range · dot: the prediction (filled: fitted or fixed from it; hollow: held out) · green in range, red outside · ends at 1/4× and 4×</text>"
        )
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    /// What 1× stands for in a row: the figure where there is one, else the range's geometric middle (its lower end
    /// when it has no upper one, its upper end when it starts at 0).
    static func reference(of figure: ModelFigure) -> Double {
        if let measured = figure.measured { return measured }
        if !figure.high.isFinite { return figure.low }
        if figure.low <= 0 { return figure.high }
        return (figure.low * figure.high).squareRoot()
    }
}
