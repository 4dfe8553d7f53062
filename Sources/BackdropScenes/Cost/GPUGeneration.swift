/// The GPU generations of the device table, and how much of their texture units' and shader cores' peak
/// rates public benchmarks measured them to deliver. One efficiency per generation, the same for every device of
/// it: the model's fill rate is texture units × clock × ``fillEfficiency`` (``Device/texelsPerSecond``), its ALU
/// rate peak GFLOPS × ``aluEfficiency``. Each figure's measurements and sources are in `docs/device-evidence.md`
/// ("Efficiency per GPU generation").
public enum GPUGeneration: String, Sendable, Codable, CaseIterable {
    case sgx535 = "SGX535"
    case sgx543 = "SGX543"
    case sgx554 = "SGX554"
    case g6430 = "G6430"
    /// PowerVR Series6XT GX6450 (A8): 4 clusters like the G6430, 8 texels and 8 pixels a clock, 256 FP32 and 512
    /// FP16 FLOPs a clock ([TH6s]); a tile-based deferred renderer like the G6430 (Imagination's Series6 family).
    case gx6450 = "GX6450"
    /// The A8X's 8-cluster Series6XT ("GXA6850"): two GX6450s ([MR-A8X]); 16 texels a clock inferred by doubling.
    case gx6850 = "GX6850"
    /// PowerVR Series7XT Plus as Apple built it in the A10 and A10X ([AT10685], [MI-A10X]): the GT7600's clusters,
    /// its texture units inferred unchanged; a tile-based deferred renderer. Listed before ``gt7600`` so that its
    /// name matches first.
    case gt7600Plus = "GT7600 Plus"
    /// PowerVR Series7XT GT7600 (A9; the A9X's 12 clusters are two of it): 6 clusters, 12 texels and 12 pixels a
    /// clock, 384 FP32 and 768 FP16 FLOPs a clock ([TH6s]); a tile-based deferred renderer.
    case gt7600 = "GT7600"
    /// Apple's first GPU, Metal family Apple4 (A11): a tile-based deferred renderer ([E6]: "Starting with A11,
    /// Apple-designed GPUs" add imageblocks and tile shading), tiles of 32×32, 32×16 or 16×16 pixels ([E7]); FP32
    /// at half the FP16 rate ([PT]).
    case apple4 = "Apple4"
    /// Metal family Apple5 (A12, A12X, A12Z): Apple4's structure, with lossless memory compression for the GPU from
    /// the A12 ([AT13392]); FP32 half the FP16 rate ([PT]).
    case apple5 = "Apple5"
    /// Metal family Apple6 (A13): as Apple5; FP32 half the FP16 rate ([PT]).
    case apple6 = "Apple6"
    /// Metal family Apple7 (A14, M1): as Apple5; the A14's cores have half the M1's FP32 rate ([PT]: 128 against
    /// 256 FLOPs a core a clock).
    case apple7 = "Apple7"
    /// Metal family Apple8 (A15, A16, M2): FP32 at the FP16 rate, 256 FLOPs a core a clock ([PT]).
    case apple8 = "Apple8"
    /// Metal family Apple9 (A17 Pro, M3, M4): no public clock or unit count beyond cores ([G360-15P], [TC-M4]).
    case apple9 = "Apple9"
    /// The A18, A18 Pro, A19, A19 Pro and M5: no source found for the table maps them to a Metal family, so they are
    /// a family of their own here; no public clock or unit count beyond cores.
    case appleUnmapped = "no Metal family mapped"

    /// The generation of a GPU as the table names it ("PowerVR SGX543MP2"), or nil.
    public init?(gpu: String) {
        guard let generation = Self.allCases.first(where: { gpu.contains($0.rawValue) }) else { return nil }
        self = generation
    }

    /// The share of the texture units' peak (texels per clock × clock) that single-texture fill tests measured: the
    /// mean of `DeviceEvidence.fillRates` (BackdropCalibration) on the generation's devices, each measured ÷ its
    /// device's peak.
    ///
    /// - SGX535: 0.419, the iPad's 179.1 Mtexels/s (GLBenchmark 2.0, [S29]) and the iPhone 4's 156.3 (GLBenchmark
    ///   2.1, [E4]) against two texture units at 200 MHz (400): 0.448 and 0.391.
    /// - SGX543: 0.974, five: iPad 2 890.1 of 1000 ([S29]), iPhone 4S 765.5 ([S32]) and 798.9 ([E4]) of 800, iPad
    ///   (3rd generation) 1983 of 2000 ([E5]), iPhone 5 1650 of 1596 ([E1]).
    /// - SGX554: the SGX543's, whose texture units it shares (Series5XT); no measurement of its own was found, and
    ///   the iPad 4's fill about 16 % over the iPad 3's ([S25]) is within the SGX543's spread at its clock.
    /// - G6430: 1, its units' peak: no fill measurement of the A7 was found in text (reviews give charts only).
    /// - From the A8 on (`onscreenEfficiencies(from:)`, BackdropCalibration): no fill test was found in text, so the
    ///   share is taken from GFXBench 5.0 Manhattan on screen, each device's pixel rate (fps × reported size) over
    ///   the A7 anchor's of the nearest size (iPhone 5s or iPad mini 2), ÷ the ratio of their units × clock, averaged
    ///   over the generation's figures below the refresh cap: GX6450 1.27 (3 figures), GX6850 1.45 (1), GT7600 1.16
    ///   (5), GT7600 Plus 1.14 (5), Apple5 0.78 (3). Relative to the G6430's 1, so a share above 1 says the
    ///   generation delivers more per unit and clock than the A7 (or that its clock estimate is low). Apple's other
    ///   families have no figure below the cap and borrow the Apple5's (their devices are extrapolated,
    ///   ``Device/Evidence``). Figures, held-out errors and lower bounds: `docs/device-evidence.md`.
    public var fillEfficiency: Double { Self.fillEfficiencies[self]! }

    /// Every generation's fill efficiency, as `fillEfficiencies(from:)` (BackdropCalibration) computes it from
    /// `DeviceEvidence.fillRates` (BackdropCalibration), stored: a test computes it again and holds the stored values
    /// to it.
    package static let fillEfficiencies: [GPUGeneration: Double] = [
        .sgx535: 0.41922731999999996, .sgx543: 0.9741900932932331, .sgx554: 0.9741900932932331, .g6430: 1,
        .gx6450: 1.2657604021466982, .gx6850: 1.45, .gt7600Plus: 1.1447721354166664, .gt7600: 1.1550384700027085,
        .apple4: 0.7793871066490569, .apple5: 0.7793871066490569, .apple6: 0.7793871066490569,
        .apple7: 0.7793871066490569, .apple8: 0.7793871066490569, .apple9: 0.7793871066490569,
        .appleUnmapped: 0.7793871066490569,
    ]

    /// The share of peak GFLOPS the shader cores deliver: 1 for every generation. The one public comparison across
    /// generations, GLBenchmark 2.1's arithmetic tests on the iPhone 4 and 4S ([E4]: fragment-weighted
    /// trigonometry 3.65×, exponentials 3.99×, against 8× in peak GFLOPS), shows the SGX535 delivering no less of
    /// its peak than the SGX543, so no generation is slowed; no absolute measurement fixes a value below 1.
    public var aluEfficiency: Double { 1 }
}
