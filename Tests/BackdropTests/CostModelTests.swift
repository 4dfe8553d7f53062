import Backdrop
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

@Suite("The GPU cost model")
struct CostModelTests {
    let estimator = Estimator()
    func device(_ id: String) throws -> Device { try #require(Device.named(id)) }

    @Test(arguments: SeedFigure.all)
    func seedFiguresB1B2V4V5AreReproducedWithinTenPercent(_ seed: SeedFigure) {
        let predicted = seed.predictedMs(by: .fitted)
        print(String(format: "%@ %@ %@%@ %@: measured %.2f ms, predicted %.2f ms (%+.1f %%)%@", seed.id, seed.deviceID,
                     seed.style.name, seed.vibrancy ? " + vibrancy" : "", seed.path.rawValue, seed.ms, predicted,
                     (predicted - seed.ms) / seed.ms * 100, seed.usedInFit ? "" : " — held out of the fit"))
        #expect(seed.accepted.contains(predicted), "\(seed.id) \(seed.deviceID) \(seed.style.name): \(predicted) ms")
    }

    @Test func b1IsHeldOutOfTheFit() {
        #expect(SeedFigure.all.filter { !$0.usedInFit }.map(\.id) == ["B1"])
        // The fit really depends on its figures: fitting B1 as well moves the coefficients.
        let withB1 = CostModel.fit(to: SeedFigure.all)
        #expect(withB1 != CostModel.fitted)
    }

    @Test func theFittedCoefficientsAreALocalMinimumOfTheFitError() {
        let figures = SeedFigure.all.filter(\.usedInFit)
        func error(_ model: CostModel) -> Double {
            figures.reduce(0) { sum, seed in
                let e = (seed.predictedMs(by: model) - seed.ms) / seed.ms
                return sum + e * e
            }
        }
        let fitted = CostModel.fitted, best = error(fitted)
        for factor in [0.95, 1.05] {
            var perturbed = [fitted, fitted, fitted, fitted]
            perturbed[0].flopsPerFetch *= factor
            perturbed[1].flopsPerPixel *= factor
            perturbed[2].vibrancyFilterFlopsPerPixel *= factor
            perturbed[3].bandwidthEfficiency = min(1, fitted.bandwidthEfficiency * factor)
            for model in perturbed { #expect(error(model) >= best - 1e-12) }
        }
    }

    /// F3 (blur: four gaps, 0.4–0.8 ms) and V2 (with vibrancy: six gaps, 0.6–1.2 ms), each gap 0.1–0.2 ms.
    @Test(arguments: [(false, 4, 0.4...0.8), (true, 6, 0.6...1.2)])
    func f3AndV2EveryGapIsATenthToAFifthOfAMillisecondAndTheirSumIsInRange(vibrancy: Bool, gaps: Int,
                                                                           idle: ClosedRange<Double>) throws {
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
            let estimate = try estimator.estimate(device: try device("ipad-air"), style: style, vibrancy: false, path: .blur)
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
                        let estimate = try estimator.estimate(device: device, style: style, vibrancy: vibrancy, path: path)
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
                    let view = (width: (points.width * fraction).rounded(), height: (points.height * fraction).rounded())
                    let total = try estimator.estimate(device: device, style: style, vibrancy: true,
                                                       viewPoints: view, path: .blur).totalMs
                    #expect(total >= previous, "\(device.id) \(style.name) at \(view)")
                    previous = total
                }
            }
        }
    }

    @Test func aViewLargerThanTheScreenIsRefused() throws {
        #expect(throws: BackdropError.self) {
            try estimator.estimate(device: try device("iphone-4"), style: .light, vibrancy: false,
                                   viewPoints: (width: 321, height: 100))
        }
    }

    @Test func theTimelineIsWellFormedSVGWithTilerRendererVsyncAndGaps() throws {
        let estimate = try estimator.estimate(device: try device("ipad-air"), style: .light, vibrancy: true)
        let svg = TimelineSVG.render(estimate)
        let document = try XMLDocument(data: Data(svg.utf8))
        #expect(document.rootElement()?.name == "svg")
        for text in ["Tiler", "Renderer", "vsync 0.0 ms", "vsync 16.7 ms", "vibrancy filter", "idle: render-target switch"] {
            #expect(svg.contains(text), "\(text)")
        }
        #expect(svg.components(separatedBy: "fill=\"#e74c3c\"").count - 1 == 6)  // one red mark per gap
    }
}

@Suite("backdrop estimate")
struct EstimateCLITests {
    @Test func allDevicesPrintsARowForEveryDevice() throws {
        let result = try runCLI(["estimate", "--all-devices", "--style", "light"])
        #expect(result.status == 0, "\(result.standardError)")
        for device in Device.all { #expect(result.standardOutput.contains(device.id)) }
        #expect(result.standardOutput.contains("* ipad-2: model blur, Apple tint-only"))
    }

    @Test func theJSONKeepsItsSchema() throws {
        let result = try runCLI(["estimate", "--device", "ipad-air", "--style", "extraLight", "--vibrancy", "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        for key in ["device", "style", "vibrancy", "path", "applePolicy", "passes", "gapsMs", "idleMs", "totalMs",
                    "budgetMs", "leftMs", "fps", "verdict"] {
            #expect(object[key] != nil, "missing key \(key)")
        }
        let passes = try #require(object["passes"] as? [[String: Any]])
        #expect(passes.count == 8)
        for pass in passes {
            for key in ["name", "kind", "ms", "pixelsWritten", "texelsRead", "bytes", "offscreen", "textureBytes"] {
                #expect(pass[key] != nil, "missing pass key \(key)")
            }
        }
        #expect((object["gapsMs"] as? [Double])?.count == 6)
        // The whole table decodes as records too.
        let all = try runCLI(["estimate", "--all-devices", "--format", "json"])
        #expect(try JSONDecoder().decode([EstimateRecord].self, from: Data(all.standardOutput.utf8)).count == Device.all.count)
    }

    @Test func unknownDevicesPathsAndViewsAreUsageErrors() throws {
        for (arguments, text) in [(["--device", "ipad-9"], "unknown device 'ipad-9'"),
                                  (["--device", "ipad-3", "--path", "maybe"], "unknown path 'maybe'"),
                                  (["--device", "ipad-3", "--view", "10by10"], "--view '10by10' is not WxH"),
                                  (["--device", "iphone-4", "--view", "400x100"], "does not fit on the iPhone 4"),
                                  (["--all-devices", "--format", "svg"], "--format svg draws one device"),
                                  ([], "give --device ID or --all-devices")] {
            let result = try runCLI(["estimate"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains(text) && result.standardError.split(separator: "\n").count == 1,
                    "\(arguments): \(result.standardError)")
        }
    }

    @Test func renderWithADeviceShowsWhatTheDeviceWouldDraw() throws {
        let photo = Fixtures.sharedPath("testdata/photos/coffee.png")
        let directory = try Fixtures.temporaryDirectory()
        let source = try Fixtures.image("testdata/photos/coffee.png")
        for (id, path) in [("ipad-3", Effect.Path.tintOnly), ("ipad-air", .blur)] {
            let output = directory.appendingPathComponent("\(id).png").path
            let result = try runCLI(["render", photo, "-o", output, "--style", "light", "--device", id])
            #expect(result.status == 0, "\(result.standardError)")
            let expected = try Renderer().render(source, effect: Effect(style: .light, scale: 2, path: path))
            #expect(try PNGDecoder().decodeFile(output) == expected, "\(id)")
        }
        // --path overrides the device's decision.
        let forced = directory.appendingPathComponent("forced.png").path
        #expect(try runCLI(["render", photo, "-o", forced, "--device", "ipad-3", "--path", "blur"]).status == 0)
        #expect(try PNGDecoder().decodeFile(forced) == Renderer().render(source, effect: Effect(style: .light, scale: 2)))
    }
}
