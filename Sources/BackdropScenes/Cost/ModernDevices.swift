import BackdropImageIO

extension Device {
    /// Every iPhone and iPad Apple shipped from 2014 to 2025, in order of year (`docs/devices.md`, "Devices from
    /// 2014"; each figure's source in `docs/device-evidence.md`). Figures no source confirms carry their label in
    /// `sources`, never silently:
    /// - texels per clock of Apple's own GPUs (A11 on) are unpublished: 8 a core, by analogy with the M1's 64 texture
    ///   units over 8 cores ([NR-M1]); PowerVR clusters' counts come from Tom's Hardware ([TH6s]) or are doubled from
    ///   them for the X chips (inferred);
    /// - clocks are philipturner's estimates ([PT]) to the A16 and M2; for the A17 Pro, A18, A19, M3, M4 and M5 no
    ///   public estimate exists, and the A16/M2's 1398 MHz is carried forward;
    /// - GFLOPS for those chips are 256 a core a clock, the A16's and M2's rate ([PT]), × cores × that clock;
    /// - RAM is nil where unconfirmed.
    /// `screen` is the size the device renders at; ``panel`` the panel where it differs (Plus and mini models).
    public static let modernDevices: [Device] = [
        Device(
            id: "ipad-mini-3", name: "iPad mini 3", year: 2014, soc: "A7", gpu: "PowerVR G6430",
            gpuClockMHz: 450, gflops: 115.2, texelsPerClock: 8, memoryBus: "64-bit LPDDR3-1600",
            memoryBandwidthGBps: 12.8, screen: PixelSize(width: 2048, height: 1536), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "12.5.6", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "as the iPad mini 2: clock AnandTech's estimate [S24], 8 texels/clock [S26], bus [S47]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-6", name: "iPhone 6", year: 2014, soc: "A8", gpu: "PowerVR GX6450",
            gpuClockMHz: 533, gflops: 136, texelsPerClock: 8, memoryBus: "64-bit LPDDR3-1600 (width not confirmed)",
            memoryBandwidthGBps: 12.8, screen: PixelSize(width: 750, height: 1334), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "12.5.8", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4 clusters, 8 texels/clock [TH6s] [AT8554]; clock philipturner's estimate, the only one [PT]; LPDDR3-1600 [BGR-6s], 64-bit width as the A7's (unconfirmed); RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-6-plus", name: "iPhone 6 Plus", year: 2014, soc: "A8", gpu: "PowerVR GX6450",
            gpuClockMHz: 533, gflops: 136, texelsPerClock: 8, memoryBus: "64-bit LPDDR3-1600 (width not confirmed)",
            memoryBandwidthGBps: 12.8, screen: PixelSize(width: 1242, height: 2208),
            panel: PixelSize(width: 1080, height: 1920),
            scale: 3, ramMB: nil, lastIOS: "12.5.8", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4 clusters, 8 texels/clock [TH6s] [AT8554]; clock philipturner's estimate, the only one [PT]; LPDDR3-1600 [BGR-6s], 64-bit width as the A7's (unconfirmed); RAM not confirmed; screen [CD]; renders at the size the screen field gives and downsamples to the panel [AI-6P]"
        ),
        Device(
            id: "ipad-air-2", name: "iPad Air 2", year: 2014, soc: "A8X", gpu: "PowerVR GX6850 (8 clusters)",
            gpuClockMHz: 450, gflops: 230.4, texelsPerClock: 16, memoryBus: "128-bit LPDDR3",
            memoryBandwidthGBps: 25.6, screen: PixelSize(width: 2048, height: 1536), panel: nil,
            scale: 2, ramMB: 2048, lastIOS: "15.8.8", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "two GX6450s [MR-A8X]: 16 texels/clock inferred by doubling; clock ~450 MHz (notebookcheck via [SPEC]); GFLOPS 512 a clock × 450 MHz; bus [AT9780]; screen [CD]"
        ),
        Device(
            id: "ipad-mini-4", name: "iPad mini 4", year: 2015, soc: "A8", gpu: "PowerVR GX6450",
            gpuClockMHz: 533, gflops: 136, texelsPerClock: 8, memoryBus: "64-bit LPDDR3-1600 (width not confirmed)",
            memoryBandwidthGBps: 12.8, screen: PixelSize(width: 2048, height: 1536), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "15.8.8", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4 clusters, 8 texels/clock [TH6s] [AT8554]; clock philipturner's estimate, the only one [PT]; LPDDR3-1600 [BGR-6s], 64-bit width as the A7's (unconfirmed); RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-6s", name: "iPhone 6s", year: 2015, soc: "A9", gpu: "PowerVR GT7600",
            gpuClockMHz: 650, gflops: 250, texelsPerClock: 12, memoryBus: "64-bit LPDDR4",
            memoryBandwidthGBps: 25.6, screen: PixelSize(width: 750, height: 1334), panel: nil,
            scale: 2, ramMB: 2048, lastIOS: "15.8.8", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "6 clusters, 12 texels/clock [TH6s]; clock philipturner's estimate [PT] (one unverified page says 300 MHz); bus [AT9780]; screen [CD]"
        ),
        Device(
            id: "iphone-6s-plus", name: "iPhone 6s Plus", year: 2015, soc: "A9", gpu: "PowerVR GT7600",
            gpuClockMHz: 650, gflops: 250, texelsPerClock: 12, memoryBus: "64-bit LPDDR4",
            memoryBandwidthGBps: 25.6, screen: PixelSize(width: 1242, height: 2208),
            panel: PixelSize(width: 1080, height: 1920),
            scale: 3, ramMB: 2048, lastIOS: "15.8.8", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "6 clusters, 12 texels/clock [TH6s]; clock philipturner's estimate [PT] (one unverified page says 300 MHz); bus [AT9780]; screen [CD]; renders at the size the screen field gives and downsamples to the panel [AI-6P]"
        ),
        Device(
            id: "ipad-pro-12-9-1", name: "iPad Pro (12.9-inch)", year: 2015, soc: "A9X",
            gpu: "PowerVR GT7600 ×2 (12 clusters, Series7XT)",
            gpuClockMHz: 650, gflops: 499, texelsPerClock: 24, memoryBus: "128-bit LPDDR4",
            memoryBandwidthGBps: 51.2, screen: PixelSize(width: 2732, height: 2048), panel: nil,
            scale: 2, ramMB: 4096, lastIOS: "16.7.16", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "12 clusters [IM-A9X] [AT10286]: 24 texels/clock inferred (two GT7600s); clock [PT], \"only clocked slightly higher than A9's\" [IM-A9X]; bus [AT9780]; screen [CD]"
        ),
        Device(
            id: "ipad-pro-9-7", name: "iPad Pro (9.7-inch)", year: 2016, soc: "A9X",
            gpu: "PowerVR GT7600 ×2 (12 clusters, Series7XT)",
            gpuClockMHz: 650, gflops: 499, texelsPerClock: 24, memoryBus: "64-bit LPDDR4 (half the A9X's bus wired)",
            memoryBandwidthGBps: 25.6, screen: PixelSize(width: 2048, height: 1536), panel: nil,
            scale: 2, ramMB: 2048, lastIOS: "16.7.16", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "12 clusters [IM-A9X] [AT10286]: 24 texels/clock inferred (two GT7600s); clock [PT], \"only clocked slightly higher than A9's\" [IM-A9X]; bus [AT9780]; the 9.7-inch model wires one 64-bit half [AT10286] and lowers the GPU clock by an unpublished amount: 650 MHz kept; screen [CD]"
        ),
        Device(
            id: "iphone-se-1", name: "iPhone SE (1st generation)", year: 2016, soc: "A9", gpu: "PowerVR GT7600",
            gpuClockMHz: 650, gflops: 250, texelsPerClock: 12, memoryBus: "64-bit LPDDR4",
            memoryBandwidthGBps: 25.6, screen: PixelSize(width: 640, height: 1136), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "15.8.8", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "6 clusters, 12 texels/clock [TH6s]; clock philipturner's estimate [PT] (one unverified page says 300 MHz); bus [AT9780]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-7", name: "iPhone 7", year: 2016, soc: "A10 Fusion",
            gpu: "PowerVR GT7600 Plus (Apple-modified, 6 clusters)",
            gpuClockMHz: 900, gflops: 346, texelsPerClock: 12, memoryBus: "64-bit LPDDR4 (not confirmed)",
            memoryBandwidthGBps: 25.6, screen: PixelSize(width: 750, height: 1334), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "15.8.8", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "\"six core\" GT7600 Plus derivative [AT10685]: 12 texels/clock inferred as the GT7600's; clock [PT]; bus as the A9's (unconfirmed); RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-7-plus", name: "iPhone 7 Plus", year: 2016, soc: "A10 Fusion",
            gpu: "PowerVR GT7600 Plus (Apple-modified, 6 clusters)",
            gpuClockMHz: 900, gflops: 346, texelsPerClock: 12, memoryBus: "64-bit LPDDR4 (not confirmed)",
            memoryBandwidthGBps: 25.6, screen: PixelSize(width: 1242, height: 2208),
            panel: PixelSize(width: 1080, height: 1920),
            scale: 3, ramMB: nil, lastIOS: "15.8.8", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "\"six core\" GT7600 Plus derivative [AT10685]: 12 texels/clock inferred as the GT7600's; clock [PT]; bus as the A9's (unconfirmed); RAM not confirmed; screen [CD]; renders at the size the screen field gives and downsamples to the panel [AI-6P]"
        ),
        Device(
            id: "ipad-5", name: "iPad (5th generation)", year: 2017, soc: "A9", gpu: "PowerVR GT7600",
            gpuClockMHz: 650, gflops: 250, texelsPerClock: 12, memoryBus: "64-bit LPDDR4",
            memoryBandwidthGBps: 25.6, screen: PixelSize(width: 2048, height: 1536), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "16.7.16", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "6 clusters, 12 texels/clock [TH6s]; clock philipturner's estimate [PT] (one unverified page says 300 MHz); bus [AT9780]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-pro-12-9-2", name: "iPad Pro (12.9-inch) (2nd generation)", year: 2017, soc: "A10X Fusion",
            gpu: "PowerVR GT7600 Plus ×2 (12 clusters)",
            gpuClockMHz: 1000, gflops: 768, texelsPerClock: 24, memoryBus: "128-bit LPDDR4 (not confirmed)",
            memoryBandwidthGBps: 51.2, screen: PixelSize(width: 2732, height: 2048), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "17.7.11", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "\"12-core GPU\" [MI-A10X]: 24 texels/clock inferred; clock [PT]; bus as the A9X's (unconfirmed); RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-pro-10-5", name: "iPad Pro (10.5-inch)", year: 2017, soc: "A10X Fusion",
            gpu: "PowerVR GT7600 Plus ×2 (12 clusters)",
            gpuClockMHz: 1000, gflops: 768, texelsPerClock: 24, memoryBus: "128-bit LPDDR4 (not confirmed)",
            memoryBandwidthGBps: 51.2, screen: PixelSize(width: 2224, height: 1668), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "17.7.11", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "\"12-core GPU\" [MI-A10X]: 24 texels/clock inferred; clock [PT]; bus as the A9X's (unconfirmed); RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-8", name: "iPhone 8", year: 2017, soc: "A11", gpu: "Apple A11 GPU, 3-core (Apple4)",
            gpuClockMHz: 1066, gflops: 409, texelsPerClock: 24, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 750, height: 1334), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "16.7.16", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "3 cores [GSM-8]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-8-plus", name: "iPhone 8 Plus", year: 2017, soc: "A11", gpu: "Apple A11 GPU, 3-core (Apple4)",
            gpuClockMHz: 1066, gflops: 409, texelsPerClock: 24, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 1242, height: 2208),
            panel: PixelSize(width: 1080, height: 1920),
            scale: 3, ramMB: nil, lastIOS: "16.7.16", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "3 cores [GSM-8]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]; renders at the size the screen field gives and downsamples to the panel [AI-6P]"
        ),
        Device(
            id: "iphone-x", name: "iPhone X", year: 2017, soc: "A11", gpu: "Apple A11 GPU, 3-core (Apple4)",
            gpuClockMHz: 1066, gflops: 409, texelsPerClock: 24, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 1125, height: 2436), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "16.7.16", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "3 cores [GSM-8]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-6", name: "iPad (6th generation)", year: 2018, soc: "A10 Fusion",
            gpu: "PowerVR GT7600 Plus (Apple-modified, 6 clusters)",
            gpuClockMHz: 900, gflops: 346, texelsPerClock: 12, memoryBus: "64-bit LPDDR4 (not confirmed)",
            memoryBandwidthGBps: 25.6, screen: PixelSize(width: 2048, height: 1536), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "17.7.11", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "\"six core\" GT7600 Plus derivative [AT10685]: 12 texels/clock inferred as the GT7600's; clock [PT]; bus as the A9's (unconfirmed); RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-xs", name: "iPhone XS", year: 2018, soc: "A12", gpu: "Apple A12 GPU, 4-core (Apple5)",
            gpuClockMHz: 1128, gflops: 578, texelsPerClock: 32, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 1125, height: 2436), panel: nil,
            scale: 3, ramMB: 4096, lastIOS: "18.7.9", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4-core \"G11P\" @ >~1.1 GHz [AT13392]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus third-party [SPEC]; screen [CD]"
        ),
        Device(
            id: "iphone-xs-max", name: "iPhone XS Max", year: 2018, soc: "A12", gpu: "Apple A12 GPU, 4-core (Apple5)",
            gpuClockMHz: 1128, gflops: 578, texelsPerClock: 32, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 1242, height: 2688), panel: nil,
            scale: 3, ramMB: 4096, lastIOS: "18.7.9", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4-core \"G11P\" @ >~1.1 GHz [AT13392]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus third-party [SPEC]; screen [CD]"
        ),
        Device(
            id: "iphone-xr", name: "iPhone XR", year: 2018, soc: "A12", gpu: "Apple A12 GPU, 4-core (Apple5)",
            gpuClockMHz: 1128, gflops: 578, texelsPerClock: 32, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 828, height: 1792), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "18.7.9", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4-core \"G11P\" @ >~1.1 GHz [AT13392]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-pro-11-1", name: "iPad Pro (11-inch)", year: 2018, soc: "A12X",
            gpu: "Apple A12X GPU, 7-core (Apple5)",
            gpuClockMHz: 1128, gflops: 1011, texelsPerClock: 56, memoryBus: "128-bit LPDDR4X-4266",
            memoryBandwidthGBps: 68.2, screen: PixelSize(width: 2388, height: 1668), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "7 cores; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock [PT] (askgeek 1125 MHz [AG-A12X]); GFLOPS 7/8 of the A12Z's [PT]; bus [AG-A12X]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-pro-12-9-3", name: "iPad Pro (12.9-inch) (3rd generation)", year: 2018, soc: "A12X",
            gpu: "Apple A12X GPU, 7-core (Apple5)",
            gpuClockMHz: 1128, gflops: 1011, texelsPerClock: 56, memoryBus: "128-bit LPDDR4X-4266",
            memoryBandwidthGBps: 68.2, screen: PixelSize(width: 2732, height: 2048), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "7 cores; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock [PT] (askgeek 1125 MHz [AG-A12X]); GFLOPS 7/8 of the A12Z's [PT]; bus [AG-A12X]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-mini-5", name: "iPad mini (5th generation)", year: 2019, soc: "A12",
            gpu: "Apple A12 GPU, 4-core (Apple5)",
            gpuClockMHz: 1128, gflops: 578, texelsPerClock: 32, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 2048, height: 1536), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4-core \"G11P\" @ >~1.1 GHz [AT13392]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-air-3", name: "iPad Air (3rd generation)", year: 2019, soc: "A12",
            gpu: "Apple A12 GPU, 4-core (Apple5)",
            gpuClockMHz: 1128, gflops: 578, texelsPerClock: 32, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 2224, height: 1668), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4-core \"G11P\" @ >~1.1 GHz [AT13392]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-7", name: "iPad (7th generation)", year: 2019, soc: "A10 Fusion",
            gpu: "PowerVR GT7600 Plus (Apple-modified, 6 clusters)",
            gpuClockMHz: 900, gflops: 346, texelsPerClock: 12, memoryBus: "64-bit LPDDR4 (not confirmed)",
            memoryBandwidthGBps: 25.6, screen: PixelSize(width: 2160, height: 1620), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "18.7.9", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "\"six core\" GT7600 Plus derivative [AT10685]: 12 texels/clock inferred as the GT7600's; clock [PT]; bus as the A9's (unconfirmed); RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-11", name: "iPhone 11", year: 2019, soc: "A13", gpu: "Apple A13 GPU, 4-core (Apple6)",
            gpuClockMHz: 1230, gflops: 630, texelsPerClock: 32, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 828, height: 1792), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4 cores; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-11-pro", name: "iPhone 11 Pro", year: 2019, soc: "A13", gpu: "Apple A13 GPU, 4-core (Apple6)",
            gpuClockMHz: 1230, gflops: 630, texelsPerClock: 32, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 1125, height: 2436), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4 cores; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-11-pro-max", name: "iPhone 11 Pro Max", year: 2019, soc: "A13",
            gpu: "Apple A13 GPU, 4-core (Apple6)",
            gpuClockMHz: 1230, gflops: 630, texelsPerClock: 32, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 1242, height: 2688), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4 cores; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-pro-11-2", name: "iPad Pro (11-inch) (2nd generation)", year: 2020, soc: "A12Z",
            gpu: "Apple A12Z GPU, 8-core (Apple5)",
            gpuClockMHz: 1128, gflops: 1155, texelsPerClock: 64, memoryBus: "128-bit LPDDR4X-4266 (as the A12X)",
            memoryBandwidthGBps: 68.2, screen: PixelSize(width: 2388, height: 1668), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "8 cores; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus as the A12X's [AG-A12X]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-pro-12-9-4", name: "iPad Pro (12.9-inch) (4th generation)", year: 2020, soc: "A12Z",
            gpu: "Apple A12Z GPU, 8-core (Apple5)",
            gpuClockMHz: 1128, gflops: 1155, texelsPerClock: 64, memoryBus: "128-bit LPDDR4X-4266 (as the A12X)",
            memoryBandwidthGBps: 68.2, screen: PixelSize(width: 2732, height: 2048), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "8 cores; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus as the A12X's [AG-A12X]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-se-2", name: "iPhone SE (2nd generation)", year: 2020, soc: "A13",
            gpu: "Apple A13 GPU, 4-core (Apple6)",
            gpuClockMHz: 1230, gflops: 630, texelsPerClock: 32, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 750, height: 1334), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4 cores; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-8", name: "iPad (8th generation)", year: 2020, soc: "A12", gpu: "Apple A12 GPU, 4-core (Apple5)",
            gpuClockMHz: 1128, gflops: 578, texelsPerClock: 32, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 2160, height: 1620), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4-core \"G11P\" @ >~1.1 GHz [AT13392]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-air-4", name: "iPad Air (4th generation)", year: 2020, soc: "A14",
            gpu: "Apple A14 GPU, 4-core (Apple7)",
            gpuClockMHz: 1278, gflops: 654, texelsPerClock: 32, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 2360, height: 1640), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4 cores; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-12-mini", name: "iPhone 12 mini", year: 2020, soc: "A14", gpu: "Apple A14 GPU, 4-core (Apple7)",
            gpuClockMHz: 1278, gflops: 654, texelsPerClock: 32, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 1125, height: 2436),
            panel: PixelSize(width: 1080, height: 2340),
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4 cores; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]; renders at the size the screen field gives and downsamples to the panel [AI-6P]"
        ),
        Device(
            id: "iphone-12", name: "iPhone 12", year: 2020, soc: "A14", gpu: "Apple A14 GPU, 4-core (Apple7)",
            gpuClockMHz: 1278, gflops: 654, texelsPerClock: 32, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 1170, height: 2532), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4 cores; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-12-pro", name: "iPhone 12 Pro", year: 2020, soc: "A14", gpu: "Apple A14 GPU, 4-core (Apple7)",
            gpuClockMHz: 1278, gflops: 654, texelsPerClock: 32, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 1170, height: 2532), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4 cores; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-12-pro-max", name: "iPhone 12 Pro Max", year: 2020, soc: "A14",
            gpu: "Apple A14 GPU, 4-core (Apple7)",
            gpuClockMHz: 1278, gflops: 654, texelsPerClock: 32, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 1284, height: 2778), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4 cores; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-pro-11-3", name: "iPad Pro (11-inch) (3rd generation)", year: 2021, soc: "M1",
            gpu: "Apple M1 GPU, 8-core (Apple7)",
            gpuClockMHz: 1278, gflops: 2617, texelsPerClock: 64, memoryBus: "128-bit LPDDR4X-4266",
            memoryBandwidthGBps: 68.25, screen: PixelSize(width: 2388, height: 1668), panel: nil,
            scale: 2, ramMB: 8192, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "8 cores [PXL]; 64 TMUs [NR-M1]; clock and GFLOPS [PT] (Apple: 2.6 TFLOPS); bus [NR-M1]; screen [CD]"),
        Device(
            id: "ipad-pro-12-9-5", name: "iPad Pro (12.9-inch) (5th generation)", year: 2021, soc: "M1",
            gpu: "Apple M1 GPU, 8-core (Apple7)",
            gpuClockMHz: 1278, gflops: 2617, texelsPerClock: 64, memoryBus: "128-bit LPDDR4X-4266",
            memoryBandwidthGBps: 68.25, screen: PixelSize(width: 2732, height: 2048), panel: nil,
            scale: 2, ramMB: 8192, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "8 cores [PXL]; 64 TMUs [NR-M1]; clock and GFLOPS [PT] (Apple: 2.6 TFLOPS); bus [NR-M1]; screen [CD]"),
        Device(
            id: "ipad-9", name: "iPad (9th generation)", year: 2021, soc: "A13", gpu: "Apple A13 GPU, 4-core (Apple6)",
            gpuClockMHz: 1230, gflops: 630, texelsPerClock: 32, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 2160, height: 1620), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4 cores; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-mini-6", name: "iPad mini (6th generation)", year: 2021, soc: "A15",
            gpu: "Apple A15 GPU, 5-core (Apple8)",
            gpuClockMHz: 1338, gflops: 1713, texelsPerClock: 40, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 2266, height: 1488), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "5 cores [AI-A15]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock [PT]; GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-13-mini", name: "iPhone 13 mini", year: 2021, soc: "A15", gpu: "Apple A15 GPU, 4-core (Apple8)",
            gpuClockMHz: 1338, gflops: 1370, texelsPerClock: 32, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 1125, height: 2436),
            panel: PixelSize(width: 1080, height: 2340),
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4 cores [AI-A15]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock [PT]; GFLOPS [PT] per core × 4; bus third-party [SPEC]; RAM not confirmed; screen [CD]; renders at the size the screen field gives and downsamples to the panel [AI-6P]"
        ),
        Device(
            id: "iphone-13", name: "iPhone 13", year: 2021, soc: "A15", gpu: "Apple A15 GPU, 4-core (Apple8)",
            gpuClockMHz: 1338, gflops: 1370, texelsPerClock: 32, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 1170, height: 2532), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4 cores [AI-A15]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock [PT]; GFLOPS [PT] per core × 4; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-13-pro", name: "iPhone 13 Pro", year: 2021, soc: "A15", gpu: "Apple A15 GPU, 5-core (Apple8)",
            gpuClockMHz: 1338, gflops: 1713, texelsPerClock: 40, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 1170, height: 2532), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "5 cores [AI-A15]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock [PT]; GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-13-pro-max", name: "iPhone 13 Pro Max", year: 2021, soc: "A15",
            gpu: "Apple A15 GPU, 5-core (Apple8)",
            gpuClockMHz: 1338, gflops: 1713, texelsPerClock: 40, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 1284, height: 2778), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "5 cores [AI-A15]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock [PT]; GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-se-3", name: "iPhone SE (3rd generation)", year: 2022, soc: "A15",
            gpu: "Apple A15 GPU, 4-core (Apple8)",
            gpuClockMHz: 1338, gflops: 1370, texelsPerClock: 32, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 750, height: 1334), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4 cores [AI-A15]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock [PT]; GFLOPS [PT] per core × 4; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-air-5", name: "iPad Air (5th generation)", year: 2022, soc: "M1",
            gpu: "Apple M1 GPU, 8-core (Apple7)",
            gpuClockMHz: 1278, gflops: 2617, texelsPerClock: 64, memoryBus: "128-bit LPDDR4X-4266",
            memoryBandwidthGBps: 68.25, screen: PixelSize(width: 2360, height: 1640), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "8 cores [PXL]; 64 TMUs [NR-M1]; clock and GFLOPS [PT] (Apple: 2.6 TFLOPS); bus [NR-M1]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-14", name: "iPhone 14", year: 2022, soc: "A15", gpu: "Apple A15 GPU, 5-core (Apple8)",
            gpuClockMHz: 1338, gflops: 1713, texelsPerClock: 40, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 1170, height: 2532), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "5 cores [AI-A15]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock [PT]; GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-14-plus", name: "iPhone 14 Plus", year: 2022, soc: "A15", gpu: "Apple A15 GPU, 5-core (Apple8)",
            gpuClockMHz: 1338, gflops: 1713, texelsPerClock: 40, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 1284, height: 2778), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "5 cores [AI-A15]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock [PT]; GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-14-pro", name: "iPhone 14 Pro", year: 2022, soc: "A16", gpu: "Apple A16 GPU, 5-core (Apple8)",
            gpuClockMHz: 1398, gflops: 1789, texelsPerClock: 40, memoryBus: "64-bit LPDDR5 (assumed -6400)",
            memoryBandwidthGBps: 51.2, screen: PixelSize(width: 1179, height: 2556), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "5 cores [TC-A16]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock ~1398 MHz, marked approximate [PT]; GFLOPS [PT]; Apple: \"up to 50% more memory bandwidth\" [TC-A16], 51.2 GB/s assumes LPDDR5-6400 × 64-bit; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-14-pro-max", name: "iPhone 14 Pro Max", year: 2022, soc: "A16",
            gpu: "Apple A16 GPU, 5-core (Apple8)",
            gpuClockMHz: 1398, gflops: 1789, texelsPerClock: 40, memoryBus: "64-bit LPDDR5 (assumed -6400)",
            memoryBandwidthGBps: 51.2, screen: PixelSize(width: 1290, height: 2796), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "5 cores [TC-A16]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock ~1398 MHz, marked approximate [PT]; GFLOPS [PT]; Apple: \"up to 50% more memory bandwidth\" [TC-A16], 51.2 GB/s assumes LPDDR5-6400 × 64-bit; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-10", name: "iPad (10th generation)", year: 2022, soc: "A14",
            gpu: "Apple A14 GPU, 4-core (Apple7)",
            gpuClockMHz: 1278, gflops: 654, texelsPerClock: 32, memoryBus: "64-bit LPDDR4X-4266 (third-party)",
            memoryBandwidthGBps: 34.1, screen: PixelSize(width: 2360, height: 1640), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4 cores; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock and GFLOPS [PT]; bus third-party [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-pro-11-4", name: "iPad Pro (11-inch) (4th generation)", year: 2022, soc: "M2",
            gpu: "Apple M2 GPU, 10-core (Apple8)",
            gpuClockMHz: 1398, gflops: 3579, texelsPerClock: 80, memoryBus: "128-bit LPDDR5-6400",
            memoryBandwidthGBps: 100, screen: PixelSize(width: 2388, height: 1668), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "10 cores; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock [PT]; GFLOPS [PT]; 100 GB/s [CUK]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-pro-12-9-6", name: "iPad Pro (12.9-inch) (6th generation)", year: 2022, soc: "M2",
            gpu: "Apple M2 GPU, 10-core (Apple8)",
            gpuClockMHz: 1398, gflops: 3579, texelsPerClock: 80, memoryBus: "128-bit LPDDR5-6400",
            memoryBandwidthGBps: 100, screen: PixelSize(width: 2732, height: 2048), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "10 cores; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock [PT]; GFLOPS [PT]; 100 GB/s [CUK]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-15", name: "iPhone 15", year: 2023, soc: "A16", gpu: "Apple A16 GPU, 5-core (Apple8)",
            gpuClockMHz: 1398, gflops: 1789, texelsPerClock: 40, memoryBus: "64-bit LPDDR5 (assumed -6400)",
            memoryBandwidthGBps: 51.2, screen: PixelSize(width: 1179, height: 2556), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "5 cores [TC-A16]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock ~1398 MHz, marked approximate [PT]; GFLOPS [PT]; Apple: \"up to 50% more memory bandwidth\" [TC-A16], 51.2 GB/s assumes LPDDR5-6400 × 64-bit; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-15-plus", name: "iPhone 15 Plus", year: 2023, soc: "A16", gpu: "Apple A16 GPU, 5-core (Apple8)",
            gpuClockMHz: 1398, gflops: 1789, texelsPerClock: 40, memoryBus: "64-bit LPDDR5 (assumed -6400)",
            memoryBandwidthGBps: 51.2, screen: PixelSize(width: 1290, height: 2796), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "5 cores [TC-A16]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock ~1398 MHz, marked approximate [PT]; GFLOPS [PT]; Apple: \"up to 50% more memory bandwidth\" [TC-A16], 51.2 GB/s assumes LPDDR5-6400 × 64-bit; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-15-pro", name: "iPhone 15 Pro", year: 2023, soc: "A17 Pro",
            gpu: "Apple A17 Pro GPU, 6-core (Apple9)",
            gpuClockMHz: 1398, gflops: 2147, texelsPerClock: 48, memoryBus: "64-bit LPDDR5 (not confirmed)",
            memoryBandwidthGBps: 51.2, screen: PixelSize(width: 1179, height: 2556), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "6 cores [G360-15P]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock: no public estimate, the A16/M2's 1398 MHz [PT] carried forward (an assumption); GFLOPS 256 a core a clock as the A16's [PT]; bus as the A16's (unconfirmed); RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-15-pro-max", name: "iPhone 15 Pro Max", year: 2023, soc: "A17 Pro",
            gpu: "Apple A17 Pro GPU, 6-core (Apple9)",
            gpuClockMHz: 1398, gflops: 2147, texelsPerClock: 48, memoryBus: "64-bit LPDDR5 (not confirmed)",
            memoryBandwidthGBps: 51.2, screen: PixelSize(width: 1290, height: 2796), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "6 cores [G360-15P]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock: no public estimate, the A16/M2's 1398 MHz [PT] carried forward (an assumption); GFLOPS 256 a core a clock as the A16's [PT]; bus as the A16's (unconfirmed); RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-air-11-m2", name: "iPad Air (11-inch) (M2)", year: 2024, soc: "M2",
            gpu: "Apple M2 GPU, 9-core (Apple8)",
            gpuClockMHz: 1398, gflops: 3221, texelsPerClock: 72, memoryBus: "128-bit LPDDR5-6400",
            memoryBandwidthGBps: 100, screen: PixelSize(width: 2360, height: 1640), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "9 cores [AO-M2]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock [PT]; GFLOPS [PT] per core × 9; 100 GB/s [CUK]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-air-13-m2", name: "iPad Air (13-inch) (M2)", year: 2024, soc: "M2",
            gpu: "Apple M2 GPU, 9-core (Apple8)",
            gpuClockMHz: 1398, gflops: 3221, texelsPerClock: 72, memoryBus: "128-bit LPDDR5-6400",
            memoryBandwidthGBps: 100, screen: PixelSize(width: 2732, height: 2048), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "9 cores [AO-M2]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock [PT]; GFLOPS [PT] per core × 9; 100 GB/s [CUK]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-pro-11-m4", name: "iPad Pro (11-inch) (M4)", year: 2024, soc: "M4",
            gpu: "Apple M4 GPU, 10-core (Apple9)",
            gpuClockMHz: 1398, gflops: 3579, texelsPerClock: 80, memoryBus: "128-bit LPDDR5X",
            memoryBandwidthGBps: 120, screen: PixelSize(width: 2420, height: 1668), panel: nil,
            scale: 2, ramMB: 8192, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "10 cores [TC-M4]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock: no public estimate, the A16/M2's 1398 MHz [PT] carried forward (an assumption); GFLOPS 256 a core a clock as the M2's [PT]; Apple: 120 GB/s [MO-M5]; screen [CD]"
        ),
        Device(
            id: "ipad-pro-13-m4", name: "iPad Pro (13-inch) (M4)", year: 2024, soc: "M4",
            gpu: "Apple M4 GPU, 10-core (Apple9)",
            gpuClockMHz: 1398, gflops: 3579, texelsPerClock: 80, memoryBus: "128-bit LPDDR5X",
            memoryBandwidthGBps: 120, screen: PixelSize(width: 2752, height: 2064), panel: nil,
            scale: 2, ramMB: 8192, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "10 cores [TC-M4]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock: no public estimate, the A16/M2's 1398 MHz [PT] carried forward (an assumption); GFLOPS 256 a core a clock as the M2's [PT]; Apple: 120 GB/s [MO-M5]; screen [CD]"
        ),
        Device(
            id: "iphone-16", name: "iPhone 16", year: 2024, soc: "A18",
            gpu: "Apple A18 GPU, 5-core (no Metal family mapped)",
            gpuClockMHz: 1398, gflops: 1789, texelsPerClock: 40, memoryBus: "64-bit LPDDR5X (not confirmed)",
            memoryBandwidthGBps: 60, screen: PixelSize(width: 1179, height: 2556), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "5 cores [DH] (only source); 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock: no public estimate, the A16/M2's 1398 MHz [PT] carried forward (an assumption); GFLOPS 256 a core a clock as the A16's [PT]; bandwidth not confirmed (60 GB/s as the research's guess); RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-16-plus", name: "iPhone 16 Plus", year: 2024, soc: "A18",
            gpu: "Apple A18 GPU, 5-core (no Metal family mapped)",
            gpuClockMHz: 1398, gflops: 1789, texelsPerClock: 40, memoryBus: "64-bit LPDDR5X (not confirmed)",
            memoryBandwidthGBps: 60, screen: PixelSize(width: 1290, height: 2796), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "5 cores [DH] (only source); 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock: no public estimate, the A16/M2's 1398 MHz [PT] carried forward (an assumption); GFLOPS 256 a core a clock as the A16's [PT]; bandwidth not confirmed (60 GB/s as the research's guess); RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-16-pro", name: "iPhone 16 Pro", year: 2024, soc: "A18 Pro",
            gpu: "Apple A18 Pro GPU, 6-core (no Metal family mapped)",
            gpuClockMHz: 1398, gflops: 2147, texelsPerClock: 48, memoryBus: "64-bit LPDDR5X (not confirmed)",
            memoryBandwidthGBps: 60, screen: PixelSize(width: 1206, height: 2622), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "6 cores [DH] (only source); 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock: no public estimate, the A16/M2's 1398 MHz [PT] carried forward (an assumption); GFLOPS 256 a core a clock as the A16's [PT]; bandwidth not confirmed (60 GB/s as the research's guess); RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-16-pro-max", name: "iPhone 16 Pro Max", year: 2024, soc: "A18 Pro",
            gpu: "Apple A18 Pro GPU, 6-core (no Metal family mapped)",
            gpuClockMHz: 1398, gflops: 2147, texelsPerClock: 48, memoryBus: "64-bit LPDDR5X (not confirmed)",
            memoryBandwidthGBps: 60, screen: PixelSize(width: 1320, height: 2868), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "6 cores [DH] (only source); 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock: no public estimate, the A16/M2's 1398 MHz [PT] carried forward (an assumption); GFLOPS 256 a core a clock as the A16's [PT]; bandwidth not confirmed (60 GB/s as the research's guess); RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-mini-a17-pro", name: "iPad mini (A17 Pro)", year: 2024, soc: "A17 Pro",
            gpu: "Apple A17 Pro GPU, 5-core (Apple9)",
            gpuClockMHz: 1398, gflops: 1789, texelsPerClock: 40, memoryBus: "64-bit LPDDR5 (not confirmed)",
            memoryBandwidthGBps: 51.2, screen: PixelSize(width: 2266, height: 1488), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "5 cores [G360-mini]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock: no public estimate, the A16/M2's 1398 MHz [PT] carried forward (an assumption); GFLOPS 256 a core a clock as the A16's [PT]; bus as the A16's (unconfirmed); RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-16e", name: "iPhone 16e", year: 2025, soc: "A18",
            gpu: "Apple A18 GPU, 4-core (no Metal family mapped)",
            gpuClockMHz: 1398, gflops: 1432, texelsPerClock: 32, memoryBus: "64-bit LPDDR5X (not confirmed)",
            memoryBandwidthGBps: 60, screen: PixelSize(width: 1170, height: 2532), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4 cores [DH] (only source); 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock: no public estimate, the A16/M2's 1398 MHz [PT] carried forward (an assumption); GFLOPS 256 a core a clock as the A16's [PT]; bandwidth not confirmed (60 GB/s as the research's guess); RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-a16", name: "iPad (A16)", year: 2025, soc: "A16", gpu: "Apple A16 GPU, 4-core (Apple8)",
            gpuClockMHz: 1398, gflops: 1431, texelsPerClock: 32, memoryBus: "64-bit LPDDR5 (assumed -6400)",
            memoryBandwidthGBps: 51.2, screen: PixelSize(width: 2360, height: 1640), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "4 cores (not confirmed); 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock ~1398 MHz, marked approximate [PT]; GFLOPS [PT] per core × 4; Apple: \"up to 50% more memory bandwidth\" [TC-A16], 51.2 GB/s assumes LPDDR5-6400 × 64-bit; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-air-11-m3", name: "iPad Air (11-inch) (M3)", year: 2025, soc: "M3",
            gpu: "Apple M3 GPU, 9-core (Apple9)",
            gpuClockMHz: 1398, gflops: 3221, texelsPerClock: 72, memoryBus: "128-bit LPDDR5 (not confirmed)",
            memoryBandwidthGBps: 100, screen: PixelSize(width: 2360, height: 1640), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "9 cores (not confirmed); 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock: no public estimate, the A16/M2's 1398 MHz [PT] carried forward (an assumption); GFLOPS 256 a core a clock as the M2's [PT]; 100 GB/s as the M2's (unconfirmed); RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-air-13-m3", name: "iPad Air (13-inch) (M3)", year: 2025, soc: "M3",
            gpu: "Apple M3 GPU, 9-core (Apple9)",
            gpuClockMHz: 1398, gflops: 3221, texelsPerClock: 72, memoryBus: "128-bit LPDDR5 (not confirmed)",
            memoryBandwidthGBps: 100, screen: PixelSize(width: 2732, height: 2048), panel: nil,
            scale: 2, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "9 cores (not confirmed); 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock: no public estimate, the A16/M2's 1398 MHz [PT] carried forward (an assumption); GFLOPS 256 a core a clock as the M2's [PT]; 100 GB/s as the M2's (unconfirmed); RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-17", name: "iPhone 17", year: 2025, soc: "A19",
            gpu: "Apple A19 GPU, 5-core (no Metal family mapped)",
            gpuClockMHz: 1398, gflops: 1789, texelsPerClock: 40, memoryBus: "64-bit LPDDR5X (not confirmed)",
            memoryBandwidthGBps: 68.3, screen: PixelSize(width: 1206, height: 2622), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "5 cores [DH] (only source); 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock: no public estimate, the A16/M2's 1398 MHz [PT] carried forward (an assumption); GFLOPS 256 a core a clock as the A16's [PT]; bandwidth a leak's figure [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-air", name: "iPhone Air", year: 2025, soc: "A19 Pro",
            gpu: "Apple A19 Pro GPU, 5-core (no Metal family mapped)",
            gpuClockMHz: 1398, gflops: 1789, texelsPerClock: 40, memoryBus: "64-bit LPDDR5X (not confirmed)",
            memoryBandwidthGBps: 75.8, screen: PixelSize(width: 1260, height: 2736), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "5 cores [DH] (only source); 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock: no public estimate, the A16/M2's 1398 MHz [PT] carried forward (an assumption); GFLOPS 256 a core a clock as the A16's [PT]; bandwidth a leak's figure [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-17-pro", name: "iPhone 17 Pro", year: 2025, soc: "A19 Pro",
            gpu: "Apple A19 Pro GPU, 6-core (no Metal family mapped)",
            gpuClockMHz: 1398, gflops: 2147, texelsPerClock: 48, memoryBus: "64-bit LPDDR5X (not confirmed)",
            memoryBandwidthGBps: 75.8, screen: PixelSize(width: 1206, height: 2622), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "6 cores [DH] (only source); 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock: no public estimate, the A16/M2's 1398 MHz [PT] carried forward (an assumption); GFLOPS 256 a core a clock as the A16's [PT]; bandwidth a leak's figure [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "iphone-17-pro-max", name: "iPhone 17 Pro Max", year: 2025, soc: "A19 Pro",
            gpu: "Apple A19 Pro GPU, 6-core (no Metal family mapped)",
            gpuClockMHz: 1398, gflops: 2147, texelsPerClock: 48, memoryBus: "64-bit LPDDR5X (not confirmed)",
            memoryBandwidthGBps: 75.8, screen: PixelSize(width: 1320, height: 2868), panel: nil,
            scale: 3, ramMB: nil, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "6 cores [DH] (only source); 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock: no public estimate, the A16/M2's 1398 MHz [PT] carried forward (an assumption); GFLOPS 256 a core a clock as the A16's [PT]; bandwidth a leak's figure [SPEC]; RAM not confirmed; screen [CD]"
        ),
        Device(
            id: "ipad-pro-11-m5", name: "iPad Pro (11-inch) (M5)", year: 2025, soc: "M5",
            gpu: "Apple M5 GPU, 10-core (no Metal family mapped)",
            gpuClockMHz: 1398, gflops: 3579, texelsPerClock: 80, memoryBus: "128-bit LPDDR5X-9600",
            memoryBandwidthGBps: 153, screen: PixelSize(width: 2420, height: 1668), panel: nil,
            scale: 2, ramMB: 12288, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "10 cores [MO-M5]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock: no public estimate, the A16/M2's 1398 MHz [PT] carried forward (an assumption); GFLOPS 256 a core a clock as the M2's [PT]; Apple: 153 GB/s [MO-M5] [GT-M5]; screen [CD]"
        ),
        Device(
            id: "ipad-pro-13-m5", name: "iPad Pro (13-inch) (M5)", year: 2025, soc: "M5",
            gpu: "Apple M5 GPU, 10-core (no Metal family mapped)",
            gpuClockMHz: 1398, gflops: 3579, texelsPerClock: 80, memoryBus: "128-bit LPDDR5X-9600",
            memoryBandwidthGBps: 153, screen: PixelSize(width: 2752, height: 2064), panel: nil,
            scale: 2, ramMB: 12288, lastIOS: "26", iOS7Blur: .blur,
            measuredFillRateMTexelsPerSecond: nil,
            sources:
                "10 cores [MO-M5]; 8 texels/clock per core by analogy with the M1's 64 over 8 cores [NR-M1] (unpublished for this chip); clock: no public estimate, the A16/M2's 1398 MHz [PT] carried forward (an assumption); GFLOPS 256 a core a clock as the M2's [PT]; Apple: 153 GB/s [MO-M5] [GT-M5]; screen [CD]"
        ),
    ]
}
