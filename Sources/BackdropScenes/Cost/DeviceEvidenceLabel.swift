extension Device {
    /// How much of a device's price rests on a public measurement of its own (JSON key `evidence` in every device and
    /// estimate record; `docs/device-evidence.md`, "Evidence per device").
    public enum Evidence: String, Sendable, Codable, CaseIterable {
        /// The device has a public measurement of its own that the model is checked against: a seed figure, a fill
        /// test, a relative figure between devices, or a GFXBench Manhattan figure below the refresh rate's cap.
        case measured
        /// No figure of its own, but its GPU generation has one: its price scales that generation's measured
        /// efficiency by its own units, clock and bus.
        case scaled
        /// Neither it nor its GPU generation has a figure: the generation's efficiency is borrowed from other
        /// generations, and its range is widened by what that costs (``PredictionInterval/extrapolated``).
        case extrapolated
    }

    /// The devices with a public measurement of their own, as `measuredDeviceIDs()` (BackdropCalibration) finds them
    /// in the evidence, stored: a test computes the set again and holds the stored one to it.
    package static let measuredIDs: Set<String> = [
        "ipad-1", "ipad-2", "ipad-3", "ipad-4", "ipad-5", "ipad-6", "ipad-7", "ipad-air", "ipad-air-2", "ipad-mini",
        "ipad-mini-2", "ipad-mini-4", "ipad-pro-10-5", "ipad-pro-11-1", "ipad-pro-11-2", "ipad-pro-12-9-1",
        "ipad-pro-12-9-2", "ipad-pro-12-9-3", "ipad-pro-9-7", "iphone-4", "iphone-4s", "iphone-5", "iphone-5s",
        "iphone-6", "iphone-6-plus", "iphone-6s", "iphone-6s-plus", "iphone-7-plus", "ipod-touch-5",
    ]

    /// measured, scaled or extrapolated: measured when the device is in `measuredIDs`, scaled when another device
    /// of its GPU generation is, extrapolated otherwise.
    public var evidence: Evidence {
        if Self.measuredIDs.contains(id) { return .measured }
        let measuredGenerations = Set(Self.all.filter { Self.measuredIDs.contains($0.id) }.compactMap(\.generation))
        return generation.map(measuredGenerations.contains) == true ? .scaled : .extrapolated
    }

    /// The interval a prediction on this device claims: ``PredictionInterval/stored`` for a measured or scaled device
    /// (its held-out errors are predictions within a generation), ``PredictionInterval/extrapolated`` otherwise.
    public var predictionInterval: PredictionInterval {
        evidence == .extrapolated ? .extrapolated : .stored
    }
}
