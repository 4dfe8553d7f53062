import BackdropImageIO
import BackdropScenes
import Foundation

/// A run of frames (``SceneRun``) drawn like Instruments' frame-rate track: one bar per frame, its GPU time against
/// the 16.67 ms line, at the time it was drawn; a bar over the line is red, and each vsync that showed the
/// previous frame again (a dropped frame) is a red tick under the axis.
public enum FrameRunSVG {
    /// The chart of `run`.
    public static func render(_ run: SceneRun) -> String {
        let width = 900.0, height = 260.0, left = 64.0, right = 20.0, top = 34.0, bottom = 40.0
        let durationMs = run.durationSeconds * 1000
        let scaleMs = max(2 * SceneRun.vsyncMs, (run.longestFrameMs * 1.1).rounded(.up))
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        func x(_ ms: Double) -> Double { left + ms / durationMs * plotWidth }
        func y(_ ms: Double) -> Double { top + plotHeight * (1 - min(ms, scaleMs) / scaleMs) }
        let barWidth = max(0.5, SceneRun.vsyncMs / durationMs * plotWidth * 0.8)
        var body: [String] = []
        body.append(
            "<text x=\"\(left)\" y=\"18\" font-size=\"13\">\(TimelineSVG.escaped(run.scene)) on \(TimelineSVG.escaped(run.device)), \(format(run.durationSeconds)) s scrolling \(format(run.scrollPointsPerSecond)) pt/s: \(format(run.fps)) fps, \(run.droppedFrames) dropped, longest \(format(run.longestFrameMs)) ms</text>"
        )
        for frame in run.frames {
            let over = frame.gpuMs > SceneRun.vsyncMs
            body.append(
                "<rect x=\"\(format(x(frame.startMs)))\" y=\"\(format(y(frame.gpuMs)))\" width=\"\(format(barWidth))\" height=\"\(format(y(0) - y(frame.gpuMs)))\" fill=\"\(over ? "#c0392b" : "#2e86de")\"><title>frame \(frame.index): \(format(frame.gpuMs)) ms, \(Plural.count(frame.rasterCacheHits, "cache hit")), \(Plural.count(frame.rasterCacheMisses, "cache miss"))</title></rect>"
            )
        }
        for ms in run.droppedAtMs {
            body.append(
                "<line x1=\"\(format(x(ms)))\" x2=\"\(format(x(ms)))\" y1=\"\(format(y(0) + 4))\" y2=\"\(format(y(0) + 12))\" stroke=\"#c0392b\"/>"
            )
        }
        body.append(
            "<line x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(format(y(SceneRun.vsyncMs)))\" y2=\"\(format(y(SceneRun.vsyncMs)))\" stroke=\"#1e8449\" stroke-dasharray=\"4 3\"/>"
        )
        body.append(
            "<text x=\"\(width - right)\" y=\"\(format(y(SceneRun.vsyncMs) - 4))\" font-size=\"11\" text-anchor=\"end\" fill=\"#1e8449\">16.67 ms (60 fps)</text>"
        )
        body.append(
            "<line x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(format(y(0)))\" y2=\"\(format(y(0)))\" stroke=\"#444\"/>"
        )
        body.append(
            "<text x=\"\(left - 6)\" y=\"\(format(y(scaleMs) + 4))\" font-size=\"11\" text-anchor=\"end\">\(format(scaleMs)) ms</text>"
        )
        body.append(
            "<text x=\"\(left)\" y=\"\(format(height - 12))\" font-size=\"11\">0 s</text><text x=\"\(width - right)\" y=\"\(format(height - 12))\" font-size=\"11\" text-anchor=\"end\">\(format(run.durationSeconds)) s · red ticks: dropped frames</text>"
        )
        return
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"Helvetica, Arial, sans-serif\">\n"
            + body.joined(separator: "\n") + "\n</svg>\n"
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
