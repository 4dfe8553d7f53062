import BackdropImageIO

/// One device of the table (`docs/devices.md`): its screen, its GPU's capacity and Apple's iOS 7
/// blur policy. Ids are the names the CLI takes.
///
/// Apple never published GPU clocks: every clock is a reviewer's estimate or a database entry, and `sources`
/// names them with the spec's source ids ([S9], [S24], …). Texels per clock are the texture units' bilinear
/// samples per clock as spec sheets list them: 2 for the SGX535 ([S4]), 2 per SGX543 or SGX554 core, 8 for the
/// G6430. The model's fill rate is texels per clock × clock × the efficiency public fill tests measured for the
/// GPU's generation (``GPUGeneration``: the SGX535 delivers 42 % of its units' peak, the iPad's 179.1 Mtexels/s at
/// about 200 MHz among them); ``measuredFillRateMTexelsPerSecond`` is what GLBenchmark measured, where it did.
public struct Device: Sendable, Equatable, Identifiable {
    /// Apple's shipped blur policy on iOS 7 (seed figure B4).
    public enum BlurPolicy: String, Sendable, Codable {
        case blur
        case tintOnly = "tint-only"
        /// The device cannot run iOS 7.
        case noIOS7 = "no iOS 7"
    }

    /// The id the CLI takes, e.g. "ipad-air".
    public let id: String
    /// Apple's name for the device.
    public let name: String
    /// Year of release.
    public let year: Int
    /// System on chip.
    public let soc: String
    /// GPU model.
    public let gpu: String
    /// The GPU's generation, read from its model's name (every GPU of the table has one; nil for another GPU, whose
    /// units are then taken at their peak).
    public let generation: GPUGeneration?
    /// GPU clock in MHz (an estimate: see `sources`).
    public let gpuClockMHz: Double
    /// Peak fp32 GFLOPS.
    public let gflops: Double
    /// Bilinear texture samples per clock that the model uses (all texture units together).
    public let texelsPerClock: Double
    /// Memory bus as published, e.g. "128-bit LPDDR2-800".
    public let memoryBus: String
    /// Peak memory bandwidth, GB/s (bus width × transfer rate).
    public let memoryBandwidthGBps: Double
    /// The size the device renders at, in pixels (points × scale), as `devices.md` gives it (iPads landscape, iPhones
    /// portrait): every price is of this many pixels. The panel's own size where it differs is ``panel``.
    public let screen: PixelSize
    /// The panel's native pixels where they differ from ``screen``: the Plus models of the iPhone 6 to 8 render at
    /// 1242×2208 (414×736 points at 3×) and downsample to their 1080×1920 panel, the iPhone 12 mini and 13 mini
    /// render at 1125×2436 for a 1080×2340 panel. Nil where the device renders at its panel's size.
    public let panel: PixelSize?
    /// Pixels per point.
    public let scale: Double
    /// Memory in MB, or nil where no source found for the table confirms it.
    public let ramMB: Int?
    /// The last iOS version it runs.
    public let lastIOS: String
    /// Apple's shipped blur policy: iOS 7's (seed figure B4) for the devices of 2009–2013; `blur` for every device
    /// from 2014 on, which shipped after iOS 7 and for which no public source shows a default reduction of blur
    /// (`docs/device-evidence.md`, "Devices from 2014").
    public let iOS7Blur: BlurPolicy
    /// A single-texture fill rate that a benchmark measured, Mtexels/s, or nil where none was published.
    public let measuredFillRateMTexelsPerSecond: Double?
    /// Where the figures come from, with the spec's source ids.
    public let sources: String

    /// A device with the given figures.
    public init(
        id: String, name: String, year: Int, soc: String, gpu: String, gpuClockMHz: Double, gflops: Double,
        texelsPerClock: Double, memoryBus: String, memoryBandwidthGBps: Double, screen: PixelSize,
        panel: PixelSize? = nil, scale: Double, ramMB: Int?, lastIOS: String, iOS7Blur: BlurPolicy,
        measuredFillRateMTexelsPerSecond: Double?, sources: String
    ) {
        self.id = id
        self.name = name
        self.year = year
        self.soc = soc
        self.gpu = gpu
        generation = GPUGeneration(gpu: gpu)
        self.gpuClockMHz = gpuClockMHz
        self.gflops = gflops
        self.texelsPerClock = texelsPerClock
        self.memoryBus = memoryBus
        self.memoryBandwidthGBps = memoryBandwidthGBps
        self.screen = screen
        self.panel = panel
        self.scale = scale
        self.ramMB = ramMB
        self.lastIOS = lastIOS
        self.iOS7Blur = iOS7Blur
        self.measuredFillRateMTexelsPerSecond = measuredFillRateMTexelsPerSecond
        self.sources = sources
    }

    /// The model's single-texture fill rate: texels per clock × clock × the generation's measured efficiency,
    /// texels per second.
    public var texelsPerSecond: Double { texelsPerClock * gpuClockMHz * 1e6 * (generation?.fillEfficiency ?? 1) }
    /// The model's arithmetic rate: peak GFLOPS × the generation's efficiency.
    public var effectiveGFLOPS: Double { gflops * (generation?.aluEfficiency ?? 1) }
    /// The model's single-texture fill rate in Mtexels/s (`backdrop devices`, key `fillRateMTexelsPerSecond`).
    public var fillRateMTexelsPerSecond: Double { texelsPerSecond / 1e6 }
    /// The screen in points.
    public var screenPoints: (width: Double, height: Double) {
        (Double(screen.width) / scale, Double(screen.height) / scale)
    }
    /// Whether the seed talk measured this device (iPad 3 and iPad Air); every other figure is a prediction.
    public var hasSeedMeasurements: Bool { id == "ipad-3" || id == "ipad-air" }
}

extension Device: Codable {
    /// The model's fill rate and the evidence label, written beside the stored figures for readers of the JSON (and
    /// not read back).
    enum DerivedKeys: String, CodingKey {
        case fillRateMTexelsPerSecond, evidence
    }

    /// Encodes the stored figures, then the model's fill rate in the same object.
    public func encode(to encoder: any Encoder) throws {
        try Stored(self).encode(to: encoder)
        var derived = encoder.container(keyedBy: DerivedKeys.self)
        try derived.encode(fillRateMTexelsPerSecond, forKey: .fillRateMTexelsPerSecond)
        try derived.encode(evidence, forKey: .evidence)
    }

    /// Decodes the stored figures; the fill rate is derived, not read.
    public init(from decoder: any Decoder) throws {
        self = try Stored(from: decoder).device
    }

    /// The stored figures, with the coding the compiler writes.
    private struct Stored: Codable {
        let id, name: String
        let year: Int
        let soc, gpu: String
        let gpuClockMHz, gflops, texelsPerClock: Double
        let memoryBus: String
        let memoryBandwidthGBps: Double
        let screen: PixelSize
        let panel: PixelSize?
        let scale: Double
        let ramMB: Int?
        let lastIOS: String
        let iOS7Blur: BlurPolicy
        let measuredFillRateMTexelsPerSecond: Double?
        let sources: String

        init(_ d: Device) {
            (id, name, year, soc, gpu) = (d.id, d.name, d.year, d.soc, d.gpu)
            (gpuClockMHz, gflops, texelsPerClock) = (d.gpuClockMHz, d.gflops, d.texelsPerClock)
            (memoryBus, memoryBandwidthGBps, screen, panel, scale) = (
                d.memoryBus, d.memoryBandwidthGBps, d.screen, d.panel, d.scale
            )
            (ramMB, lastIOS, iOS7Blur) = (d.ramMB, d.lastIOS, d.iOS7Blur)
            (measuredFillRateMTexelsPerSecond, sources) = (d.measuredFillRateMTexelsPerSecond, d.sources)
        }

        var device: Device {
            Device(
                id: id, name: name, year: year, soc: soc, gpu: gpu, gpuClockMHz: gpuClockMHz, gflops: gflops,
                texelsPerClock: texelsPerClock, memoryBus: memoryBus, memoryBandwidthGBps: memoryBandwidthGBps,
                screen: screen, panel: panel, scale: scale, ramMB: ramMB, lastIOS: lastIOS, iOS7Blur: iOS7Blur,
                measuredFillRateMTexelsPerSecond: measuredFillRateMTexelsPerSecond, sources: sources)
        }
    }
}

extension Device {
    /// Every device of the table, in the order of `devices.md`: the fourteen of 2009–2013 (``earlyDevices``), then
    /// every iPhone and iPad from 2014 to 2025 (``modernDevices``).
    public static let all: [Device] = earlyDevices + modernDevices

    /// The devices from the iPhone 3GS to the iPad Air (2009–2013), the devices of the seed figures.
    public static let earlyDevices: [Device] = [
        Device(
            id: "iphone-3gs", name: "iPhone 3GS", year: 2009, soc: "Samsung APL0298", gpu: "PowerVR SGX535",
            gpuClockMHz: 150, gflops: 1.2, texelsPerClock: 2, memoryBus: "32-bit LPDDR", memoryBandwidthGBps: 1.6,
            screen: PixelSize(width: 320, height: 480), scale: 1, ramMB: 256, lastIOS: "6.1.6", iOS7Blur: .noIOS7,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "clock unsourced (150 MHz; weak sources say 200); 32-bit bus [S40]; 2 texture units [S4] at the SGX535's measured 42 % [S29] [E4]"
        ),
        Device(
            id: "iphone-4", name: "iPhone 4", year: 2010, soc: "A4", gpu: "PowerVR SGX535",
            gpuClockMHz: 200, gflops: 1.6, texelsPerClock: 2, memoryBus: "64-bit LPDDR", memoryBandwidthGBps: 3.2,
            screen: PixelSize(width: 640, height: 960), scale: 2, ramMB: 512, lastIOS: "7.1.2", iOS7Blur: .tintOnly,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "clock \"said to be 200 MHz\" [S5]; 64-bit bus [S41]; 2 texture units [S4] at the SGX535's measured 42 % [S29] [E4]"
        ),
        Device(
            id: "ipad-1", name: "iPad", year: 2010, soc: "A4", gpu: "PowerVR SGX535",
            gpuClockMHz: 200, gflops: 1.6, texelsPerClock: 2, memoryBus: "64-bit LPDDR", memoryBandwidthGBps: 3.2,
            screen: PixelSize(width: 1024, height: 768), scale: 1, ramMB: 256, lastIOS: "5.1.1", iOS7Blur: .noIOS7,
            measuredFillRateMTexelsPerSecond: 179.1,
            sources:
                "clock as the iPhone 4 [S5]; measured fill 179.1 Mtexels/s, GLBenchmark 2.0 [S29]; 64-bit bus [S40]"),
        Device(
            id: "ipad-2", name: "iPad 2", year: 2011, soc: "A5", gpu: "PowerVR SGX543MP2",
            gpuClockMHz: 250, gflops: 16, texelsPerClock: 4, memoryBus: "64-bit LPDDR2-800", memoryBandwidthGBps: 6.4,
            screen: PixelSize(width: 1024, height: 768), scale: 1, ramMB: 512, lastIOS: "9.3.5", iOS7Blur: .tintOnly,
            measuredFillRateMTexelsPerSecond: 890.1,
            sources:
                "clock and GFLOPS as shipped [S8]; 2 texture units per core [S4]; measured fill 890.1 Mtexels/s, GLBenchmark 2.0 [S29]"
        ),
        Device(
            id: "iphone-4s", name: "iPhone 4S", year: 2011, soc: "A5", gpu: "PowerVR SGX543MP2",
            gpuClockMHz: 200, gflops: 12.8, texelsPerClock: 4, memoryBus: "64-bit LPDDR2-800", memoryBandwidthGBps: 6.4,
            screen: PixelSize(width: 640, height: 960), scale: 2, ramMB: 512, lastIOS: "9.3.6", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: 765.5,
            sources: "clock [S11] [S10]; measured fill 765.5 Mtexels/s, GLBenchmark 2.5 [S32]"),
        Device(
            id: "ipad-3", name: "iPad (3rd generation)", year: 2012, soc: "A5X", gpu: "PowerVR SGX543MP4",
            gpuClockMHz: 250, gflops: 32, texelsPerClock: 8, memoryBus: "128-bit LPDDR2-800", memoryBandwidthGBps: 12.8,
            screen: PixelSize(width: 2048, height: 1536), scale: 2, ramMB: 1024, lastIOS: "9.3.6", iOS7Blur: .tintOnly,
            measuredFillRateMTexelsPerSecond: nil,
            sources: "clock, cores and bus confirmed [S9] [S13] [S43]"),
        Device(
            id: "iphone-5", name: "iPhone 5", year: 2012, soc: "A6", gpu: "PowerVR SGX543MP3",
            gpuClockMHz: 266, gflops: 25.5, texelsPerClock: 6, memoryBus: "64-bit LPDDR2-1066",
            memoryBandwidthGBps: 8.5,
            screen: PixelSize(width: 640, height: 1136), scale: 2, ramMB: 1024, lastIOS: "10.3.4", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources: "clock \"likely\" [S15] [S16]; 8,528 MB/s [S44]"),
        Device(
            id: "ipod-touch-5", name: "iPod touch (5th generation)", year: 2012, soc: "A5", gpu: "PowerVR SGX543MP2",
            gpuClockMHz: 200, gflops: 12.8, texelsPerClock: 4, memoryBus: "64-bit LPDDR2-800", memoryBandwidthGBps: 6.4,
            screen: PixelSize(width: 640, height: 1136), scale: 2, ramMB: 512, lastIOS: "9.3.5", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "GPU clock not found: 200 MHz as the iPhone 4S, whose 32 nm A5 and 800 MHz CPU it shares [S19] [S21]"),
        Device(
            id: "ipad-mini", name: "iPad mini", year: 2012, soc: "A5", gpu: "PowerVR SGX543MP2",
            gpuClockMHz: 250, gflops: 16, texelsPerClock: 4, memoryBus: "64-bit LPDDR2-800", memoryBandwidthGBps: 6.4,
            screen: PixelSize(width: 1024, height: 768), scale: 1, ramMB: 512, lastIOS: "9.3.6", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources: "\"performed identically to the iPad 2 in every test\" [S20] [S21]"),
        Device(
            id: "ipad-4", name: "iPad (4th generation)", year: 2012, soc: "A6X", gpu: "PowerVR SGX554MP4",
            gpuClockMHz: 266, gflops: 68, texelsPerClock: 8, memoryBus: "128-bit LPDDR2-1066", memoryBandwidthGBps: 17,
            screen: PixelSize(width: 2048, height: 1536), scale: 2, ramMB: 1024, lastIOS: "10.3.4", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "not 300 MHz (AnandTech's normalising column): its shipping estimate of 68.1 GFLOPS gives about 266 MHz [S24]; same texture units as the iPad 3, fill about +16 % [S25]"
        ),
        Device(
            id: "iphone-5c", name: "iPhone 5c", year: 2013, soc: "A6", gpu: "PowerVR SGX543MP3",
            gpuClockMHz: 266, gflops: 25.5, texelsPerClock: 6, memoryBus: "64-bit LPDDR2-1066",
            memoryBandwidthGBps: 8.5,
            screen: PixelSize(width: 640, height: 1136), scale: 2, ramMB: 1024, lastIOS: "10.3.3", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources: "same A6 as the iPhone 5 [S16]"),
        Device(
            id: "iphone-5s", name: "iPhone 5s", year: 2013, soc: "A7", gpu: "PowerVR G6430",
            gpuClockMHz: 450, gflops: 115.2, texelsPerClock: 8, memoryBus: "64-bit LPDDR3-1600",
            memoryBandwidthGBps: 12.8,
            screen: PixelSize(width: 640, height: 1136), scale: 2, ramMB: 1024, lastIOS: "12.5.7", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources: "clock: AnandTech's estimate [S24]; 8 texels/clock [S26]; bus [S47]"),
        Device(
            id: "ipad-air", name: "iPad Air", year: 2013, soc: "A7", gpu: "PowerVR G6430",
            gpuClockMHz: 450, gflops: 115.2, texelsPerClock: 8, memoryBus: "64-bit LPDDR3-1600",
            memoryBandwidthGBps: 12.8,
            screen: PixelSize(width: 2048, height: 1536), scale: 2, ramMB: 1024, lastIOS: "12.5.7", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources: "as the iPhone 5s [S24]"),
        Device(
            id: "ipad-mini-2", name: "iPad mini with Retina display", year: 2013, soc: "A7", gpu: "PowerVR G6430",
            gpuClockMHz: 450, gflops: 115.2, texelsPerClock: 8, memoryBus: "64-bit LPDDR3-1600",
            memoryBandwidthGBps: 12.8,
            screen: PixelSize(width: 2048, height: 1536), scale: 2, ramMB: 1024, lastIOS: "12.5.7", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources: "no GPU figure of its own found: as the iPad Air [S28]"),
    ]

    /// The device with `id`; an error (`.badOption`) naming it otherwise.
    public static func lookup(_ id: String) throws(BackdropError) -> Device {
        guard let device = named(id) else {
            throw BackdropError(
                .badOption,
                "unknown device '\(id)'\(Suggestion.clause(for: id, in: all.map(\.id))) (see 'backdrop devices' for the ids)"
            )
        }
        return device
    }

    /// The device with `id`, or nil.
    public static func named(_ id: String) -> Device? {
        all.first { $0.id == id.lowercased() }
    }
}
