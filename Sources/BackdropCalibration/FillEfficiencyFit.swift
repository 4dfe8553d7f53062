import BackdropScenes

extension GPUGeneration {
    /// The efficiencies `fills` give: each generation's mean share, the SGX554 the SGX543's, a generation without a
    /// measurement 1.
    package static func fillEfficiencies(from fills: [DeviceEvidence.FillRate]) -> [GPUGeneration: Double] {
        var shares: [GPUGeneration: [Double]] = [:]
        for fill in fills {
            let device = Device.named(fill.deviceID)!
            guard let generation = device.generation else { continue }
            shares[generation, default: []].append(fill.value / (device.texelsPerClock * device.gpuClockMHz))
        }
        func mean(_ generation: GPUGeneration) -> Double? {
            shares[generation].map { $0.reduce(0, +) / Double($0.count) }
        }
        return [
            .sgx535: mean(.sgx535) ?? 1, .sgx543: mean(.sgx543) ?? 1, .sgx554: mean(.sgx554) ?? mean(.sgx543) ?? 1,
            .g6430: mean(.g6430) ?? 1,
        ]
    }
}
