import Foundation

extension CostModel {
    /// The model fitted to the seed figures and case studies marked `usedInFit`: computed once, deterministically,
    /// when first used.
    ///
    /// What fixes each coefficient: c (the colour pass) and v (the vibrancy filter) come from B1, B2, V4 and V5
    /// on the iPad (3rd generation) and the iPad Air, where the ALU bounds those passes; β (blending) from the
    /// difference between extra light and the other styles there (B1 − B2, V5) and from the blended text and
    /// shadows of O5's tables; d (per draw) from O5's utilisations of tables of many small layers. Held out and
    /// reported beside the fit: O6 (masks and overlays on four iPhones), the GLBenchmark fill rates of
    /// `devices.md`, O4 on every device and the tint-only fallback at 60 fps.
    public static let fitted: CostModel = fit(
        seedFigures: SeedFigure.all.filter(\.usedInFit),
        caseStudies: CaseStudy.all.filter(\.usedInFit))

    /// The coefficients β, c, v and d that minimise Σ ((predicted − figure) / figure)² over `seedFigures` plus,
    /// for each case study, the squared distance of its frame rate and utilisation outside their ranges (as shares
    /// of the range's upper end). Nelder–Mead over their logarithms from a fixed start; e, g and t keep their
    /// documented values.
    public static func fit(seedFigures: [SeedFigure], caseStudies: [CaseStudy]) -> CostModel {
        func model(_ x: [Double]) -> CostModel {
            CostModel(
                blendedPixelFillCost: exp(x[0]), colorOpsPerPixel: exp(x[1]), vibrancyFilterOpsPerPixel: exp(x[2]),
                clocksPerDraw: exp(x[3]))
        }
        // The passes do not depend on the coefficients: plan them once.
        let figures = seedFigures.map { ($0, $0.passes) }
        let cases = caseStudies.map { ($0, $0.passes) }
        func objective(_ x: [Double]) -> Double {
            let candidate = model(x)
            var sum = 0.0
            for (figure, passes) in figures {
                let error = (candidate.frame(of: passes, on: figure.device).totalMs - figure.ms) / figure.ms
                sum += error * error
            }
            for (row, passes) in cases {
                let miss = row.miss(candidate.frame(of: passes, on: row.device))
                sum += miss.fps * miss.fps + miss.gpu * miss.gpu
            }
            return sum
        }
        // Start: a blended pixel twice an opaque one, 90 and 140 operations a pixel, 10 000 clocks a draw.
        let best = NelderMead.minimise(objective, from: [log(2), log(90), log(140), log(10_000)], step: 0.3)
        return model(best)
    }
}
