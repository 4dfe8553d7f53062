import Foundation

extension FrameTimeline.Ranges {
    /// "13.9–18.2 ms, 55–60 fps, GPU 60–66 %": the ranges in words, each end as the tables print it.
    public var text: String {
        func span(_ values: [Double], _ format: String) -> String {
            let low = String(format: format, values[0]), high = String(format: format, values[1])
            return low == high ? low : "\(low)–\(high)"
        }
        return "\(span(totalMs, "%.1f")) ms, \(span(fps, "%.0f")) fps, GPU \(span(gpuPercent, "%.0f")) %"
    }

    /// The coverage the ranges claim, in words: "80 % range".
    public static var coverageText: String {
        String(format: "%.0f %% range", PredictionInterval.coverage * 100)
    }
}
