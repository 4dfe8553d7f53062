import BackdropScenes

/// Public benchmark figures that the cost model is checked against and never fitted to: the measured fill rates of
/// `docs/devices.md` and those found beyond it, and relative figures between devices (a benchmark's
/// frame rates on two devices, as a ratio). Each new figure is quoted with its source in `docs/device-evidence.md`;
/// ``ModelFigure/all(for:)`` reports every one with its error.
public enum DeviceEvidence {
    /// A single-texture fill rate that a benchmark measured.
    public struct FillRate: Sendable {
        public let deviceID: String
        /// Mtexels/s.
        public let value: Double
        public let benchmark: String
        /// A source id of `devices.md` ([S29]) or of `docs/device-evidence.md` ([E1]).
        public let source: String
    }

    /// What bounds a benchmark, and so which of the model's ratios between two devices it must lie near.
    public enum Resources: Sendable {
        /// A fill test: the model's fill-rate ratio.
        case fill
        /// A scene: each of its passes is bound by fill, ALU or memory (``CostModel/Bound``), so its time on one
        /// device over another's lies between the least and the greatest of the devices' ratios of fill rate,
        /// GFLOPS and bus bandwidth. The fixed cost per draw, in clocks, is left out: a benchmark's frame of a few
        /// hundred draws over a million pixels spends little on it.
        case scene
    }

    /// A benchmark's result on one device over another's, same test, same resolution.
    public struct Ratio: Sendable {
        public let fasterID: String
        public let slowerID: String
        /// faster ÷ slower.
        public let value: Double
        public let benchmark: String
        public let source: String
        public let resources: Resources

        /// The least and greatest ratio the model allows between the two devices for this kind of benchmark.
        public var modelSpan: (low: Double, high: Double) {
            let faster = Device.named(fasterID)!, slower = Device.named(slowerID)!
            let fill = faster.texelsPerSecond / slower.texelsPerSecond
            guard resources == .scene else { return (fill, fill) }
            let ratios = [
                fill, faster.effectiveGFLOPS / slower.effectiveGFLOPS,
                faster.memoryBandwidthGBps / slower.memoryBandwidthGBps,
            ]
            return (ratios.min()!, ratios.max()!)
        }
    }

    /// `devices.md`'s measured fill rates (``Device/measuredFillRateMTexelsPerSecond``), then those found beyond it.
    public static var fillRates: [FillRate] {
        Device.all.compactMap { device in
            device.measuredFillRateMTexelsPerSecond.map {
                FillRate(deviceID: device.id, value: $0, benchmark: "GLBenchmark, devices.md", source: "devices.md")
            }
        } + [
            // Techgage: "In GLBenchmark 2.5's fill-rate test, the iPhone 5 scored 1650, whereas the 4S scored 765.5."
            FillRate(deviceID: "iphone-5", value: 1650, benchmark: "GLBenchmark 2.5 fill", source: "E1"),
            // PChome's iPhone 4S review, GLBenchmark 2.1.0 "Fill Test: texture fetch": 156281856 and 798912704 texel/sec.
            FillRate(deviceID: "iphone-4", value: 156.281856, benchmark: "GLBenchmark 2.1 texture fetch", source: "E4"),
            FillRate(
                deviceID: "iphone-4s", value: 798.912704, benchmark: "GLBenchmark 2.1 texture fetch", source: "E4"),
            // heise's test of the iPad (3rd generation): "1983 Millionen Texel pro Sekunde".
            FillRate(deviceID: "ipad-3", value: 1983, benchmark: "GLBenchmark texture fill", source: "E5"),
        ]
    }

    /// Relative figures between devices (`docs/device-evidence.md`).
    public static let ratios: [Ratio] = [
        Ratio(
            fasterID: "ipad-4", slowerID: "ipad-3", value: 1.16, benchmark: "fill rate, iPad 4 over iPad 3",
            source: "S25", resources: .fill),
        Ratio(
            fasterID: "iphone-5", slowerID: "iphone-4s", value: 147.0 / 73,
            benchmark: "GLBenchmark 2.1 Egypt offscreen",
            source: "E2", resources: .scene),
        Ratio(
            fasterID: "iphone-5", slowerID: "iphone-4s", value: 253.0 / 120, benchmark: "GLBenchmark 2.1 Pro offscreen",
            source: "E2", resources: .scene),
        Ratio(
            fasterID: "iphone-4s", slowerID: "iphone-4", value: 73.0 / 11, benchmark: "GLBenchmark 2.1 Egypt offscreen",
            source: "E2", resources: .scene),
        Ratio(
            fasterID: "iphone-4s", slowerID: "iphone-4", value: 120.0 / 17, benchmark: "GLBenchmark 2.1 Pro offscreen",
            source: "E2", resources: .scene),
        Ratio(
            fasterID: "iphone-5s", slowerID: "iphone-5", value: 56.0 / 29.8,
            benchmark: "GLBenchmark 2.5 Egypt HD offscreen 1080p", source: "E3", resources: .scene),
        Ratio(
            fasterID: "ipad-mini", slowerID: "ipad-2", value: 24.3 / 23.2,
            benchmark: "GLBenchmark 2.5 Egypt HD onscreen",
            source: "S38", resources: .scene),
        Ratio(
            fasterID: "ipad-4", slowerID: "ipad-3", value: 41.5 / 21.3, benchmark: "GLBenchmark 2.5 Egypt HD onscreen",
            source: "S38", resources: .scene),
    ]
}
