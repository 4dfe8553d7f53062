/// One device of the table (`../shared/spec/devices.md`): its screen, its GPU's capacity and Apple's iOS 7
/// blur policy. Ids are the names the CLI takes.
///
/// Figures marked "≈" in the spec are published estimates (clock × units), not measurements; `sources` says
/// where each GPU figure comes from. Texture units are per Imagination's published configurations:
/// SGX535 1 (≈ 500 Mpixel/s "effective" at 200 MHz, which PowerVR quotes with a 2.5× overdraw factor), SGX543
/// and SGX554 2 per core (the 554 doubles the 543's ALUs, not its texture units), G6430 8.
public struct Device: Sendable, Codable, Equatable, Identifiable {
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
    /// GPU clock in MHz.
    public let gpuClockMHz: Double
    /// Peak fp32 GFLOPS (clock × ALU lanes × 2).
    public let gflops: Double
    /// Texture units (bilinear samples per clock).
    public let textureUnits: Int
    /// Memory bus as published, e.g. "128-bit LPDDR2-800".
    public let memoryBus: String
    /// Peak memory bandwidth, GB/s (bus width × transfer rate).
    public let memoryBandwidthGBps: Double
    /// Native screen size in pixels, as `devices.md` gives it (iPads landscape, iPhones portrait).
    public let screen: PixelSize
    /// Pixels per point.
    public let scale: Double
    /// Memory in MB.
    public let ramMB: Int
    /// The last iOS version it runs.
    public let lastIOS: String
    /// Apple's shipped iOS 7 blur policy (seed figure B4).
    public let iOS7Blur: BlurPolicy
    /// Where the GPU figures come from.
    public let sources: String

    /// Peak bilinear texture samples per second.
    public var texelsPerSecond: Double { Double(textureUnits) * gpuClockMHz * 1e6 }
    /// The screen in points.
    public var screenPoints: (width: Double, height: Double) {
        (Double(screen.width) / scale, Double(screen.height) / scale)
    }
    /// Whether the seed talk measured this device (iPad 3 and iPad Air); every other figure is a prediction.
    public var hasSeedMeasurements: Bool { id == "ipad-3" || id == "ipad-air" }
}

extension Device {
    /// Every device from the iPhone 3GS to the iPad Air, in the order of `devices.md`.
    public static let all: [Device] = [
        Device(id: "iphone-3gs", name: "iPhone 3GS", year: 2009, soc: "Samsung (APL0298)", gpu: "PowerVR SGX535",
               gpuClockMHz: 150, gflops: 1.2, textureUnits: 1, memoryBus: "32-bit LPDDR-400", memoryBandwidthGBps: 1.6,
               screen: PixelSize(width: 320, height: 480), scale: 1, ramMB: 256, lastIOS: "6.1.6", iOS7Blur: .noIOS7,
               sources: "clock ≈ (devices.md); bandwidth ≈ 32 bit × 400 MT/s = 1.6 GB/s (derived, not in devices.md); 1 TMU (SGX535 ≈ 500 Mpixel/s effective at 200 MHz, MacRumors via 9to5mac 2011-01-14)"),
        Device(id: "iphone-4", name: "iPhone 4", year: 2010, soc: "A4", gpu: "PowerVR SGX535",
               gpuClockMHz: 200, gflops: 1.6, textureUnits: 1, memoryBus: "64-bit LPDDR-400", memoryBandwidthGBps: 3.2,
               screen: PixelSize(width: 640, height: 960), scale: 2, ramMB: 512, lastIOS: "7.1.2", iOS7Blur: .tintOnly,
               sources: "clock ≈ and bandwidth (devices.md); 1 TMU (SGX535, as above)"),
        Device(id: "ipad-1", name: "iPad", year: 2010, soc: "A4", gpu: "PowerVR SGX535",
               gpuClockMHz: 200, gflops: 1.6, textureUnits: 1, memoryBus: "64-bit LPDDR-400", memoryBandwidthGBps: 3.2,
               screen: PixelSize(width: 1024, height: 768), scale: 1, ramMB: 256, lastIOS: "5.1.1", iOS7Blur: .noIOS7,
               sources: "clock ≈ and bandwidth (devices.md); 1 TMU (SGX535, as above)"),
        Device(id: "ipad-2", name: "iPad 2", year: 2011, soc: "A5", gpu: "PowerVR SGX543MP2",
               gpuClockMHz: 250, gflops: 16, textureUnits: 4, memoryBus: "64-bit LPDDR2-800", memoryBandwidthGBps: 6.4,
               screen: PixelSize(width: 1024, height: 768), scale: 1, ramMB: 512, lastIOS: "9.3.5", iOS7Blur: .tintOnly,
               sources: "clock ≈ and bandwidth (devices.md); 2 TMUs per SGX543 core (≈ 1 Gpixel/s effective at 200 MHz, MacRumors via 9to5mac 2011-01-14)"),
        Device(id: "iphone-4s", name: "iPhone 4S", year: 2011, soc: "A5", gpu: "PowerVR SGX543MP2",
               gpuClockMHz: 200, gflops: 12.8, textureUnits: 4, memoryBus: "64-bit LPDDR2-800", memoryBandwidthGBps: 6.4,
               screen: PixelSize(width: 640, height: 960), scale: 2, ramMB: 512, lastIOS: "9.3.6", iOS7Blur: .blur,
               sources: "clock ≈ and bandwidth (devices.md); 2 TMUs per SGX543 core"),
        Device(id: "ipad-3", name: "iPad (3rd generation)", year: 2012, soc: "A5X", gpu: "PowerVR SGX543MP4",
               gpuClockMHz: 250, gflops: 32, textureUnits: 8, memoryBus: "128-bit LPDDR2-800", memoryBandwidthGBps: 12.8,
               screen: PixelSize(width: 2048, height: 1536), scale: 2, ramMB: 1024, lastIOS: "9.3.6", iOS7Blur: .tintOnly,
               sources: "four SGX543 cores at 250 MHz and 4 × 32-bit LPDDR2 controllers (AnandTech, iPad 4 GPU analysis, 2012); 2 TMUs per core"),
        Device(id: "iphone-5", name: "iPhone 5", year: 2012, soc: "A6", gpu: "PowerVR SGX543MP3",
               gpuClockMHz: 266, gflops: 25.5, textureUnits: 6, memoryBus: "64-bit LPDDR2-1066", memoryBandwidthGBps: 8.5,
               screen: PixelSize(width: 640, height: 1136), scale: 2, ramMB: 1024, lastIOS: "10.3.4", iOS7Blur: .blur,
               sources: "clock ≈ and bandwidth (devices.md); 3 SGX543 cores (AnandTech table, 2012); 2 TMUs per core"),
        Device(id: "ipod-touch-5", name: "iPod touch (5th generation)", year: 2012, soc: "A5", gpu: "PowerVR SGX543MP2",
               gpuClockMHz: 200, gflops: 12.8, textureUnits: 4, memoryBus: "64-bit LPDDR2-800", memoryBandwidthGBps: 6.4,
               screen: PixelSize(width: 640, height: 1136), scale: 2, ramMB: 512, lastIOS: "9.3.5", iOS7Blur: .blur,
               sources: "clock ≈ and bandwidth (devices.md); 2 TMUs per SGX543 core"),
        Device(id: "ipad-mini", name: "iPad mini", year: 2012, soc: "A5", gpu: "PowerVR SGX543MP2",
               gpuClockMHz: 250, gflops: 16, textureUnits: 4, memoryBus: "64-bit LPDDR2-800", memoryBandwidthGBps: 6.4,
               screen: PixelSize(width: 1024, height: 768), scale: 1, ramMB: 512, lastIOS: "9.3.6", iOS7Blur: .blur,
               sources: "clock ≈ and bandwidth (devices.md); 2 TMUs per SGX543 core"),
        Device(id: "ipad-4", name: "iPad (4th generation)", year: 2012, soc: "A6X", gpu: "PowerVR SGX554MP4",
               gpuClockMHz: 300, gflops: 76.8, textureUnits: 8, memoryBus: "128-bit LPDDR2-1066", memoryBandwidthGBps: 17,
               screen: PixelSize(width: 2048, height: 1536), scale: 2, ramMB: 1024, lastIOS: "10.3.4", iOS7Blur: .blur,
               sources: "SGX554MP4, 76.8 GFLOPS at 300 MHz (notebookcheck); 554 = 543 with twice the ALUs per core (AnandTech 2012), so 2 TMUs per core"),
        Device(id: "iphone-5c", name: "iPhone 5c", year: 2013, soc: "A6", gpu: "PowerVR SGX543MP3",
               gpuClockMHz: 266, gflops: 25.5, textureUnits: 6, memoryBus: "64-bit LPDDR2-1066", memoryBandwidthGBps: 8.5,
               screen: PixelSize(width: 640, height: 1136), scale: 2, ramMB: 1024, lastIOS: "10.3.3", iOS7Blur: .blur,
               sources: "as iPhone 5"),
        Device(id: "iphone-5s", name: "iPhone 5s", year: 2013, soc: "A7", gpu: "PowerVR G6430",
               gpuClockMHz: 450, gflops: 115, textureUnits: 8, memoryBus: "64-bit LPDDR3-1600", memoryBandwidthGBps: 12.8,
               screen: PixelSize(width: 640, height: 1136), scale: 2, ramMB: 1024, lastIOS: "12.5.7", iOS7Blur: .blur,
               sources: "G6430 at 450 MHz: 8 TMUs, 3.6 Gtexel/s (hmc-tech GPU database); Series 6 identified by AnandTech (iPhone 5s review, 2013)"),
        Device(id: "ipad-air", name: "iPad Air", year: 2013, soc: "A7", gpu: "PowerVR G6430",
               gpuClockMHz: 450, gflops: 115, textureUnits: 8, memoryBus: "64-bit LPDDR3-1600", memoryBandwidthGBps: 12.8,
               screen: PixelSize(width: 2048, height: 1536), scale: 2, ramMB: 1024, lastIOS: "12.5.7", iOS7Blur: .blur,
               sources: "as iPhone 5s"),
        Device(id: "ipad-mini-2", name: "iPad mini with Retina display", year: 2013, soc: "A7", gpu: "PowerVR G6430",
               gpuClockMHz: 450, gflops: 115, textureUnits: 8, memoryBus: "64-bit LPDDR3-1600", memoryBandwidthGBps: 12.8,
               screen: PixelSize(width: 2048, height: 1536), scale: 2, ramMB: 1024, lastIOS: "12.5.7", iOS7Blur: .blur,
               sources: "as iPhone 5s"),
    ]

    /// The device with `id`; an error (`.badOption`) naming it otherwise.
    public static func lookup(_ id: String) throws(BackdropError) -> Device {
        guard let device = named(id) else {
            throw BackdropError(.badOption, "unknown device '\(id)' (see 'backdrop devices' for the ids)")
        }
        return device
    }

    /// The device with `id`, or nil.
    public static func named(_ id: String) -> Device? {
        all.first { $0.id == id.lowercased() }
    }
}
