import Foundation

extension FrameTimeline.Ranges {
    /// "13.9–18.2 ms, 55–60 fps, GPU 60–66 %": the ranges in words, each end as the tables print it.
    public var text: String {
        "\(Self.span(totalMs, "%.1f")) ms, \(Self.span(fps, "%.0f")) fps, GPU \(Self.span(gpuPercent, "%.0f")) %"
    }

    /// "busy 9.1–12.0 ms, idle 4.8–6.2 ms": the renderer's work and idle time in words.
    public var busyAndIdleText: String {
        "busy \(Self.span(busyMs, "%.1f")) ms, idle \(Self.span(idleMs, "%.1f")) ms"
    }

    /// Pass `index`'s time in words, "1.23–1.80", two decimals as the pass tables print a pass's ms.
    public func passText(_ index: Int) -> String { Self.span(passMs[index], "%.2f") }

    /// "LOW–HIGH" in `format`, or one figure when both ends print the same.
    static func span(_ values: [Double], _ format: String) -> String {
        let low = String(format: format, values[0]), high = String(format: format, values[1])
        return low == high ? low : "\(low)–\(high)"
    }

    /// The coverage the ranges claim, in words: "80 % range".
    public static var coverageText: String {
        String(format: "%.0f %% range", PredictionInterval.coverage * 100)
    }
}
