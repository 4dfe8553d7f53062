import Backdrop
import BackdropTestSupport
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("The GPU cost model")
struct CostModelTests {
    let estimator = Estimator()
    func device(_ id: String) throws -> Device { try #require(Device.named(id)) }

    @Test(arguments: SeedFigure.all)
    func seedFiguresB1B2V4V5AreReproducedWithinTenPercent(_ seed: SeedFigure) {
        let predicted = seed.predictedMs(by: .fitted)
        print(
            String(
                format: "%@ %@ %@%@ %@: measured %.2f ms, predicted %.2f ms (%+.1f %%)%@", seed.id, seed.deviceID,
                seed.style.name, seed.vibrancy ? " + vibrancy" : "", seed.path.rawValue, seed.ms, predicted,
                (predicted - seed.ms) / seed.ms * 100, ""))
        #expect(seed.accepted.contains(predicted), "\(seed.id) \(seed.deviceID) \(seed.style.name): \(predicted) ms")
    }

    @Test func theFitDependsOnItsFiguresAndIsALocalMinimum() {
        // Fitting without the case studies moves the coefficients: the fit reads its figures.
        let withoutCases = CostModel.fit(seedFigures: SeedFigure.all.filter(\.usedInFit), caseStudies: [])
        #expect(withoutCases != CostModel.fitted)
        let figures = SeedFigure.all.filter(\.usedInFit), rows = CaseStudy.all.filter(\.usedInFit)
        func error(_ model: CostModel) -> Double {
            let seeds = figures.reduce(0) { sum, seed in
                let e = (seed.predictedMs(by: model) - seed.ms) / seed.ms
                return sum + e * e
            }
            return rows.reduce(seeds) { sum, row in
                let miss = row.miss(row.frame(by: model))
                return sum + miss.fps * miss.fps + miss.gpu * miss.gpu
            }
        }
        let fitted = CostModel.fitted, best = error(fitted)
        for factor in [0.97, 1.03] {
            var perturbed = [fitted, fitted, fitted, fitted]
            perturbed[0].blendedPixelFillCost *= factor
            perturbed[1].colorOpsPerPixel *= factor
            perturbed[2].vibrancyFilterOpsPerPixel *= factor
            perturbed[3].clocksPerDraw *= factor
            for model in perturbed { #expect(error(model) >= best - 1e-9) }
        }
    }

    @Test func noCoefficientNamesADeviceAndTheFixedOnesKeepTheirDocumentedValues() {
        let model = CostModel.fitted
        #expect(model.gapMs == 0.15 && model.bandwidthEfficiency == 0.8 && model.tilerMs == 0.05)
        // Four fitted numbers, each positive and finite.
        for value in [
            model.blendedPixelFillCost, model.colorOpsPerPixel, model.vibrancyFilterOpsPerPixel, model.clocksPerDraw,
        ] {
            #expect(value.isFinite && value > 0)
        }
    }

    /// F3 (blur: four gaps, 0.4–0.8 ms) and V2 (with vibrancy: six gaps, 0.6–1.2 ms), each gap 0.1–0.2 ms.
    @Test(arguments: [(false, 4, 0.4...0.8), (true, 6, 0.6...1.2)])
    func f3AndV2EveryGapIsATenthToAFifthOfAMillisecondAndTheirSumIsInRange(
        vibrancy: Bool, gaps: Int,
        idle: ClosedRange<Double>
    ) throws {
        for device in Device.all {
            for style in BlurStyle.builtIn {
                let estimate = try estimator.estimate(device: device, style: style, vibrancy: vibrancy, path: .blur)
                #expect(estimate.frame.gaps.count == gaps, "\(device.id) \(style.name)")
                #expect(estimate.frame.gaps.allSatisfy { (0.1...0.2).contains($0.ms) })
                #expect(idle.contains(estimate.idleMs))
            }
        }
    }

    @Test func f2DarkAndLightRunFiveGPUPassesAndExtraLightSix() throws {
        for (style, count) in [(BlurStyle.dark, 5), (.light, 5), (.extraLight, 6)] {
            let estimate = try estimator.estimate(
                device: try device("ipad-air"), style: style, vibrancy: false, path: .blur)
            #expect(estimate.frame.passes.count == count, "\(style.name)")
        }
    }

    @Test func v1TheVibrancyFilterIsTheMostExpensivePass() throws {
        for id in ["ipad-3", "ipad-air"] {
            for style in BlurStyle.builtIn {
                let estimate = try estimator.estimate(device: try device(id), style: style, vibrancy: true, path: .blur)
                let slowest = try #require(estimate.frame.passes.max { $0.ms < $1.ms })
                #expect(slowest.pass.kind == .vibrancyFilter, "\(id) \(style.name): \(slowest.pass.name)")
            }
        }
    }

    @Test func b4TheModelLosesTheBlurWhereAppleDidExceptTheIPad2WhichItExplains() throws {
        for device in Device.all {
            let decision = estimator.decision(for: device)
            if device.id == "ipad-2" {
                #expect(decision.path == .blur && !decision.agreesWithApple)
                #expect(decision.reason.contains("iPad mini"), "\(decision.reason)")
            } else {
                #expect(decision.agreesWithApple, "\(device.id): \(decision.reason)")
            }
        }
        #expect(estimator.decision(for: try device("ipad-3")).path == .tintOnly)
        #expect(estimator.decision(for: try device("iphone-4")).path == .tintOnly)
        #expect(estimator.decision(for: try device("ipad-mini")).path == .blur)
    }

    @Test func everyDeviceStyleVibrancyAndPathGetsAPrediction() throws {
        for device in Device.all {
            for style in BlurStyle.builtIn {
                for vibrancy in [false, true] {
                    for path in Estimator.PathChoice.allCases {
                        let estimate = try estimator.estimate(
                            device: device, style: style, vibrancy: vibrancy, path: path)
                        #expect(estimate.totalMs.isFinite && estimate.totalMs > 0)
                        #expect(estimate.frame.passes.allSatisfy { $0.ms > 0 })
                    }
                }
            }
        }
    }

    @Test func morePixelsNeverCostLess() throws {
        for device in Device.all {
            let points = device.screenPoints
            for style in BlurStyle.builtIn {
                var previous = 0.0
                for step in 1...16 {
                    let fraction = Double(step) / 16
                    let view = (
                        width: (points.width * fraction).rounded(), height: (points.height * fraction).rounded()
                    )
                    let total = try estimator.estimate(
                        device: device, style: style, vibrancy: true,
                        viewPoints: view, path: .blur
                    ).totalMs
                    #expect(total >= previous, "\(device.id) \(style.name) at \(view)")
                    previous = total
                }
            }
        }
    }

    @Test func aViewLargerThanTheScreenIsRefused() throws {
        #expect(throws: BackdropError.self) {
            try estimator.estimate(
                device: try device("iphone-4"), style: .light, vibrancy: false,
                viewPoints: (width: 321, height: 100))
        }
    }

    @Test func theTimelineIsWellFormedSVGWithTilerRendererVsyncAndGaps() throws {
        let estimate = try estimator.estimate(device: try device("ipad-air"), style: .light, vibrancy: true)
        let svg = TimelineSVG.render(estimate)
        let document = try XMLDocument(data: Data(svg.utf8))
        #expect(document.rootElement()?.name == "svg")
        for text in [
            "Tiler", "Renderer", "vsync 0.0 ms", "vsync 16.7 ms", "vibrancy filter", "idle: render-target switch",
        ] {
            #expect(svg.contains(text), "\(text)")
        }
        #expect(svg.components(separatedBy: "fill=\"#e74c3c\"").count - 1 == 6)  // one red mark per gap
        // A scene's many offscreen passes: every pass is drawn, and the names of narrow ones move to tooltips.
        let scene = try estimator.estimate(
            scene: try #require(BuiltInScenes.named("photos-table-shadows")), device: try device("ipod-touch-5"))
        let sceneSVG = TimelineSVG.render(scene)
        let sceneDocument = try XMLDocument(data: Data(sceneSVG.utf8))
        #expect(sceneDocument.rootElement()?.name == "svg")
        #expect(sceneSVG.components(separatedBy: "<title>").count - 1 >= 2 * scene.frame.passes.count)
        #expect(sceneSVG.contains("offscreen") && sceneSVG.contains("hover a pass for its name"))
    }
}
