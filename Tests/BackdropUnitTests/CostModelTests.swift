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

    /// `CostModel.fitted` is stored, not fitted at start-up: it must be what the fit gives now (to 10⁻⁹: the
    /// last digits of exp and log may differ between C libraries).
    @Test func theStoredCoefficientsAreTheFit() {
        let fit = CostModel.refit(), stored = CostModel.fitted
        let pairs: [(String, Double, Double)] = [
            ("β", fit.blendedPixelFillCost, stored.blendedPixelFillCost),
            ("c", fit.colorOpsPerPixel, stored.colorOpsPerPixel),
            ("v", fit.vibrancyFilterOpsPerPixel, stored.vibrancyFilterOpsPerPixel),
            ("d", fit.clocksPerDraw, stored.clocksPerDraw), ("k", fit.tilerClocksPerDraw, stored.tilerClocksPerDraw),
            ("w", fit.dependencyWaitMs, stored.dependencyWaitMs), ("s", fit.switchMs, stored.switchMs),
            ("e", fit.bandwidthEfficiency, stored.bandwidthEfficiency),
        ]
        for (name, fitted, kept) in pairs {
            #expect(
                abs(fitted - kept) <= 1e-9 * abs(fitted),
                "\(name): the fit gives \(fitted), CostModel.fitted keeps \(kept)")
        }
    }

    @Test func theFitDependsOnItsFiguresAndIsALocalMinimum() {
        // Fitting without the case studies moves the coefficients: the fit reads its figures.
        let withoutCases = CostModel.fit(
            seedFigures: SeedFigure.all.filter(\.usedInFit), caseStudies: [], idleFigures: IdleFigure.all)
        #expect(withoutCases != CostModel.fitted)
        // The stored fit is a minimum of the fit's objective: no coefficient moved by 3 % either way lowers it.
        let error = CostModel.fitError(of:)
        let fitted = CostModel.fitted, best = error(fitted)
        for factor in [0.97, 1.03] {
            var perturbed = Array(repeating: fitted, count: 7)
            perturbed[0].blendedPixelFillCost *= factor
            perturbed[1].colorOpsPerPixel *= factor
            perturbed[2].vibrancyFilterOpsPerPixel *= factor
            perturbed[3].clocksPerDraw *= factor
            perturbed[4].tilerClocksPerDraw *= factor
            perturbed[5].dependencyWaitMs *= factor
            perturbed[6].switchMs *= factor
            for model in perturbed { #expect(error(model) >= best - 1e-9) }
        }
    }

    /// O6's two masks rows are not met together (`MaskRowsBound`); the fit holds out the 4S's and comes within a
    /// point of the iPod's (its frame rate in range, 82.5 % against 83–90 %: a known miss in `SceneTests`).
    /// Swapped, the fit still misses the 4S's row: the one held out is the one no fit reaches either way.
    @Test func o6TheMasksRowHeldOutIsTheOneNoFitReachesEitherWay() {
        let bound = MaskRowsBound.o6
        #expect(!bound.fewer.usedInFit && bound.more.usedInFit)
        let miss = { (row: CaseStudy, model: CostModel) in row.miss(row.frame(by: model)) }
        let iPod = miss(bound.more, .fitted)
        #expect(iPod.fps == 0 && iPod.gpu < 0.02, "the iPod's masks row: \(iPod)")
        let swapped = CostModel.fit(
            seedFigures: SeedFigure.all.filter(\.usedInFit),
            caseStudies: CaseStudy.all.filter { $0.usedInFit && $0.description != bound.more.description } + [
                bound.fewer
            ], idleFigures: IdleFigure.all)
        let fourS = miss(bound.fewer, swapped)
        #expect(fourS.fps > 0 && fourS.gpu > 0, "the 4S's masks row: \(bound.fewer.frame(by: swapped).fps) fps")
    }

    @Test func noCoefficientNamesADeviceAndTheFixedOneKeepsItsDocumentedValue() {
        let model = CostModel.fitted
        #expect(model.bandwidthEfficiency == 0.8)
        // Six fitted numbers, each positive and finite.
        for value in [
            model.blendedPixelFillCost, model.colorOpsPerPixel, model.vibrancyFilterOpsPerPixel, model.clocksPerDraw,
            model.tilerClocksPerDraw, model.dependencyWaitMs,
        ] {
            #expect(value.isFinite && value > 0)
        }
    }

    /// F3 (blur on the iPad (3rd generation): four switches, 0.4–0.8 ms idle) and V2 (with vibrancy on the iPad
    /// Air: six switches, six gaps, 0.6–1.2 ms), each gap 0.1–0.2 ms. Every render of the blur samples the one
    /// before it and waits for it; the render of the vibrant content samples nothing, yet its switch still leaves
    /// the renderer idle for the context switch (s): six gaps, as V2 counts them. The sums are the gaps' alone: the
    /// tiler's lead before the first render is the frame's idle, not a gap.
    @Test(arguments: [("ipad-3", false, 4, 0.4...0.8), ("ipad-air", true, 6, 0.6...1.2)])
    func f3AndV2EveryGapIsATenthToAFifthOfAMillisecondAndTheirSumIsInRange(
        deviceID: String, vibrancy: Bool, switches: Int, idle: ClosedRange<Double>
    ) throws {
        for style in BlurStyle.builtIn {
            let estimate = try estimator.estimate(
                device: try device(deviceID), style: style, vibrancy: vibrancy, path: .blur)
            let frame = estimate.frame
            #expect(frame.renderTargetSwitches == switches, "\(style.name)")
            #expect(frame.gaps.count == switches, "\(style.name)")
            // Extra light's last render tiles two draws (the upscale and its tint layer).
            let gaps = style == .extraLight && !vibrancy ? frame.gaps.dropLast() : frame.gaps[...]
            #expect(gaps.allSatisfy { (0.1...0.2).contains($0.ms) }, "\(style.name): \(frame.gaps.map(\.ms))")
            #expect(idle.contains(frame.gapsMs), "\(style.name): \(frame.gapsMs) ms")
            #expect(abs(frame.idleMs - (frame.tilerMs + frame.gapsMs)) < 1e-12)
        }
    }

    /// F4: the tiler works ahead. Every render's tiling ends before the renderer starts it; a render that does not
    /// sample the one before it is tiled while that one renders, and one that does waits for it.
    @Test func f4TheTilerWorksAheadExceptWhereARenderSamplesTheOneBeforeIt() throws {
        let scene = try #require(BuiltInScenes.named("contacts-table-masks"))
        let estimate = try estimator.estimate(scene: scene, device: try device("iphone-4s"))
        let frame = estimate.frame
        var renderStarts: [Double] = []
        for (index, pass) in frame.passes.enumerated()
        where index == 0 || frame.passes[index - 1].gpuPass.target != pass.gpuPass.target {
            renderStarts.append(pass.startMs)
        }
        #expect(renderStarts.count == frame.tiling.count)
        for (run, start) in zip(frame.tiling, renderStarts) {
            #expect(run.startMs + run.ms <= start + 1e-9)
        }
        #expect(frame.tiling.contains { $0.waited } && frame.tiling.contains { !$0.waited })
        for index in frame.tiling.indices.dropFirst() {
            let run = frame.tiling[index], before = frame.tiling[index - 1]
            if run.waited {
                // After the render before it ends (the next render's start) and the flush.
                let rendered = index + 1 < renderStarts.count ? renderStarts[index] : frame.totalMs
                #expect(run.startMs >= renderStarts[index - 1] && run.startMs + run.ms <= rendered + 1e-9)
            } else {
                #expect(abs(run.startMs - (before.startMs + before.ms)) < 1e-9)  // straight after the last tiling
            }
        }
        // A gap waits for a texture, or is a switch to a render that samples nothing (the context switch alone).
        #expect(frame.gaps.contains { $0.waitsForTexture } && frame.gaps.contains { !$0.waitsForTexture })
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
            "Tiler", "Renderer", "vsync 0.0 ms", "vsync 16.7 ms", "vibrancy filter",
            "idle: waiting for a texture and its tiling", "(waited for the texture it samples)",
        ] {
            #expect(svg.contains(text), "\(text)")
        }
        // One red mark per gap.
        #expect(svg.components(separatedBy: "fill=\"#e74c3c\"").count - 1 == estimate.frame.gaps.count)
        #expect(svg.components(separatedBy: "<title>tiling: ").count - 1 == estimate.frame.tiling.count)
        // A scene's many offscreen passes: every pass is drawn, and the names of narrow ones move to tooltips.
        let scene = try estimator.estimate(
            scene: try #require(BuiltInScenes.named("photos-table-shadows")), device: try device("ipod-touch-5"))
        let sceneSVG = TimelineSVG.render(scene)
        let sceneDocument = try XMLDocument(data: Data(sceneSVG.utf8))
        #expect(sceneDocument.rootElement()?.name == "svg")
        #expect(
            sceneSVG.components(separatedBy: "<title>").count - 1
                >= scene.frame.passes.count + scene.frame.tiling.count + scene.frame.gaps.count)
        #expect(sceneSVG.contains("offscreen") && sceneSVG.contains("hover a pass for its name"))
    }
}
