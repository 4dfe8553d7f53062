import BackdropScenes
import Foundation

/// ``PredictionInterval`` recomputed from the evidence: the held-out errors and the interval they give, which
/// ``PredictionInterval/stored`` keeps.
extension PredictionInterval {
    /// One figure's error, taken with the figure held out.
    public struct HeldOutError: Sendable, Encodable, Equatable {
        /// The seed id ("B1", "O5") or "fill".
        public let id: String
        public let device: String
        public let what: String
        /// ln(measured ÷ predicted); for a range, of its nearest end (0 inside).
        public let logError: Double
        /// Whether it lies inside the interval of the other figures' errors.
        public let covered: Bool
    }

    /// Every figure's held-out error and the interval they give.
    public static func compute() -> (interval: PredictionInterval, errors: [HeldOutError]) {
        let seeds = SeedFigure.all.filter(\.usedInFit), rows = CaseStudy.all.filter(\.usedInFit)
        var raw: [(id: String, device: String, what: String, error: Double)] = []
        for (index, seed) in seeds.enumerated() {
            var others = seeds
            others.remove(at: index)
            let model = CostModel.fit(seedFigures: others, caseStudies: rows, idleFigures: IdleFigure.all)
            let what = "\(seed.style.name)\(seed.vibrancy ? " + vibrancy" : ""), full screen, \(seed.path.rawValue)"
            raw.append((seed.id, seed.deviceID, what, log(seed.ms / seed.predictedMs(by: model))))
        }
        for row in CaseStudy.all {
            let model =
                row.usedInFit
                ? CostModel.fit(
                    seedFigures: seeds, caseStudies: rows.filter { $0.description != row.description },
                    idleFigures: IdleFigure.all) : .fitted
            raw.append(
                (row.id, row.deviceID, "\(row.sceneName) frame time", row.logError(row.frame(by: model).totalMs)))
        }
        let fills = DeviceEvidence.fillRates
        for (index, fill) in fills.enumerated() {
            var others = fills
            others.remove(at: index)
            let device = Device.named(fill.deviceID)!
            let efficiency = device.generation.flatMap { GPUGeneration.fillEfficiencies(from: others)[$0] } ?? 1
            let predicted = device.texelsPerClock * device.gpuClockMHz * efficiency
            raw.append(("fill", device.id, "single-texture fill (\(fill.benchmark))", log(predicted / fill.value)))
        }
        let all = raw.map(\.error)
        func covered(share: Double) -> [Bool] {
            all.indices.map { index in
                var others = all
                others.remove(at: index)
                return Self.interval(of: others, share: share).contains(logError: all[index])
            }
        }
        // The narrowest central share whose held-out coverage reaches the claim.
        let share =
            stride(from: coverage, through: 0.99, by: 0.01).first {
                Double(covered(share: $0).filter { $0 }.count) >= coverage * Double(all.count) - 1e-9
            } ?? 0.99
        let inside = covered(share: share)
        let errors = raw.enumerated().map { index, figure in
            HeldOutError(
                id: figure.id, device: figure.device, what: figure.what, logError: figure.error,
                covered: inside[index])
        }
        return (Self.interval(of: all, share: share), errors)
    }

    /// The interval between the percentiles of `errors` that leave (1 − `share`) ÷ 2 outside at each end, linearly
    /// interpolated. ``compute()`` takes the narrowest share from ``coverage`` up whose held-out figures reach the
    /// claim: with few figures, the central 80 % of the others covers fewer than 80 % of the figures left out.
    static func interval(of errors: [Double], share: Double) -> PredictionInterval {
        let sorted = errors.sorted()
        func percentile(_ p: Double) -> Double {
            let at = p * Double(sorted.count - 1), below = Int(at.rounded(.down))
            let above = min(below + 1, sorted.count - 1)
            return sorted[below] + (sorted[above] - sorted[below]) * (at - Double(below))
        }
        let tail = (1 - share) / 2
        return PredictionInterval(lowLog: percentile(tail), highLog: percentile(1 - tail))
    }
}

extension CaseStudy {
    /// ln of the frame time nearest to `ms` that the row's frame rates allow, over `ms`: 0 inside. A frame rate of
    /// 60 allows any time up to a frame (16.67 ms); fps = 1000 ÷ ms below it.
    func logError(_ ms: Double) -> Double {
        let shortest = fps.upperBound >= 60 ? 0 : 1000 / fps.upperBound
        let longest = fps.lowerBound <= 0 ? Double.infinity : 1000 / fps.lowerBound
        if ms < shortest { return log(shortest / ms) }
        if ms > longest { return log(longest / ms) }
        return 0
    }
}
