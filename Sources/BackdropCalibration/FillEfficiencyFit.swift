import BackdropScenes

extension GPUGeneration {
    /// The efficiencies `fills` give: each generation's mean share, the SGX554 the SGX543's, the G6430 1 (no
    /// measurement); from the A8 on, those `onscreen` gives (``DeviceEvidence/onscreenEfficiencies(from:)``).
    package static func fillEfficiencies(
        from fills: [DeviceEvidence.FillRate], onscreen: [DeviceEvidence.Manhattan] = DeviceEvidence.manhattan
    ) -> [GPUGeneration: Double] {
        var shares: [GPUGeneration: [Double]] = [:]
        for fill in fills {
            let device = Device.named(fill.deviceID)!
            guard let generation = device.generation else { continue }
            shares[generation, default: []].append(fill.value / (device.texelsPerClock * device.gpuClockMHz))
        }
        func mean(_ generation: GPUGeneration) -> Double? {
            shares[generation].map { $0.reduce(0, +) / Double($0.count) }
        }
        var efficiencies = Dictionary(uniqueKeysWithValues: GPUGeneration.allCases.map { ($0, mean($0) ?? 1) })
        efficiencies[.sgx554] = mean(.sgx554) ?? mean(.sgx543) ?? 1
        efficiencies.merge(DeviceEvidence.onscreenEfficiencies(from: onscreen)) { _, onscreen in onscreen }
        return efficiencies
    }
}
