/// The four GPU generations of the device table, and how much of their texture units' and shader cores' peak
/// rates public benchmarks measured them to deliver. One efficiency per generation, the same for every device of
/// it: the model's fill rate is texture units × clock × ``fillEfficiency`` (``Device/texelsPerSecond``), its ALU
/// rate peak GFLOPS × ``aluEfficiency``. Each figure's measurements and sources are in `docs/device-evidence.md`
/// ("Efficiency per GPU generation").
public enum GPUGeneration: String, Sendable, Codable, CaseIterable {
    case sgx535 = "SGX535"
    case sgx543 = "SGX543"
    case sgx554 = "SGX554"
    case g6430 = "G6430"

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
    public var fillEfficiency: Double { Self.fillEfficiencies[self]! }

    /// Every generation's fill efficiency, as `fillEfficiencies(from:)` (BackdropCalibration) computes it from
    /// `DeviceEvidence.fillRates` (BackdropCalibration), stored: a test computes it again and holds the stored values
    /// to it.
    package static let fillEfficiencies: [GPUGeneration: Double] = [
        .sgx535: 0.41922731999999996, .sgx543: 0.9741900932932331, .sgx554: 0.9741900932932331, .g6430: 1,
    ]

    /// The share of peak GFLOPS the shader cores deliver: 1 for every generation. The one public comparison across
    /// generations, GLBenchmark 2.1's arithmetic tests on the iPhone 4 and 4S ([E4]: fragment-weighted
    /// trigonometry 3.65×, exponentials 3.99×, against 8× in peak GFLOPS), shows the SGX535 delivering no less of
    /// its peak than the SGX543, so no generation is slowed; no absolute measurement fixes a value below 1.
    public var aluEfficiency: Double { 1 }
}
