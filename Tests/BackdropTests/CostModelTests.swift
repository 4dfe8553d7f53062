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
        for value in [model.blendedPixelFillCost, model.colorOpsPerPixel, model.vibrancyFilterOpsPerPixel, model.clocksPerDraw] {
            #expect(value.isFinite && value > 0)
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
        // A scene's many offscreen passes: every pass is drawn, and the names of narrow ones move to tooltips.
        let scene = try estimator.estimate(scene: try #require(BuiltInScenes.named("photos-table-shadows")), device: try device("ipod-touch-5"))
        let sceneSVG = TimelineSVG.render(scene)
        let sceneDocument = try XMLDocument(data: Data(sceneSVG.utf8))
        #expect(sceneDocument.rootElement()?.name == "svg")
        #expect(sceneSVG.components(separatedBy: "<title>").count - 1 >= 2 * scene.frame.passes.count)
        #expect(sceneSVG.contains("offscreen") && sceneSVG.contains("hover a pass for its name"))
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

@Suite("backdrop estimate --scene and backdrop scenes")
struct SceneCLITests {
    @Test func aBuiltInSceneOnEveryDevicePrintsARowEach() throws {
        let result = try runCLI(["estimate", "--scene", "photos-table-shadows", "--all-devices"])
        #expect(result.status == 0, "\(result.standardError)")
        for device in Device.all { #expect(result.standardOutput.contains(device.id)) }
        for column in ["busy ms", "idle ms", "fps", "GPU %", "offscreen", "switches", "verdict"] {
            #expect(result.standardOutput.contains(column))
        }
        #expect(result.standardOutput.contains("predicted"))
    }

    @Test func theSceneJSONHasTheKeysOfScenesMd() throws {
        let result = try runCLI(["estimate", "--scene", "contacts-table-masks", "--all-devices", "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        #expect(array.count == Device.all.count)
        for object in array {
            for key in ["device", "scene", "passes", "gapsMs", "busyMs", "idleMs", "totalMs", "fps", "gpuPercent",
                        "offscreenPasses", "renderTargetSwitches", "verdict", "predicted"] {
                #expect(object[key] != nil, "missing key \(key)")
            }
            let gpu = try #require(object["gpuPercent"] as? Double)
            #expect((0...100).contains(gpu))
        }
        let records = try JSONDecoder().decode([SceneRecord].self, from: Data(result.standardOutput.utf8))
        #expect(records.allSatisfy { $0.passes.contains { $0.target == "offscreen" } })
        // One device: one object, not an array; and an SVG timeline.
        let one = try runCLI(["estimate", "--scene", "navbar-tabbar-blur", "--device", "iphone-5", "--format", "json"])
        #expect(try JSONDecoder().decode(SceneRecord.self, from: Data(one.standardOutput.utf8)).device == "iphone-5")
        let svg = try runCLI(["estimate", "--scene", "navbar-tabbar-blur", "--device", "iphone-5", "--format", "svg"])
        #expect(svg.status == 0 && svg.standardOutput.hasPrefix("<svg"))
    }

    @Test func aSceneFileIsReadAndItsErrorsAreOneLineWithExitOne() throws {
        let directory = try Fixtures.temporaryDirectory()
        let good = directory.appendingPathComponent("good.json")
        try Data(#"{"name": "mine", "layers": [{"name": "bar", "frame": [0, 0, 320, 64], "effect": {"blur": "dark"}}]}"#.utf8).write(to: good)
        let result = try runCLI(["estimate", "--scene", good.path, "--device", "iphone-5s"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("mine on the iPhone 5s") && result.standardOutput.contains("upscale"))
        let bad = directory.appendingPathComponent("bad.json")
        try Data(#"{"layers": [{"frame": [0, 0, 320, 64], "blurr": "dark"}]}"#.utf8).write(to: bad)
        for (arguments, text, status) in [
            ([bad.path], "unknown key 'blurr'", Int32(1)),
            ([directory.appendingPathComponent("missing.json").path], "cannot read the scene file", 1),
            (["no-such-scene"], "unknown scene 'no-such-scene'", 2),
        ] {
            let run = try runCLI(["estimate", "--device", "iphone-5", "--scene"] + arguments)
            #expect(run.status == status, "\(arguments): \(run.standardError)")
            #expect(run.standardError.contains(text) && run.standardError.split(separator: "\n").count == 1, "\(run.standardError)")
        }
        let mixed = try runCLI(["estimate", "--device", "iphone-5", "--scene", "control-center", "--vibrancy"])
        #expect(mixed.status == 2 && mixed.standardError.contains("--scene prices its own layers"))
    }

    @Test func explainSaysWhichLayersGoOffscreenAndWhatTheFixSaves() throws {
        let result = try runCLI(["estimate", "--scene", "photos-table-shadows", "--device", "ipod-touch-5", "--explain"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("thumbnail: shadow without a path (O5), 15 offscreen passes a frame"))
        #expect(result.standardOutput.contains("set shadowPath") && result.standardOutput.contains("saves"))
    }

    @Test func scenesListsTheBuiltInsAndPrintsOneAsJSONThatReadsBack() throws {
        let list = try runCLI(["scenes"])
        #expect(list.status == 0)
        for name in BuiltInScenes.names { #expect(list.standardOutput.contains(name)) }
        let json = try runCLI(["scenes", "--json", "control-center"])
        #expect(try SceneParser.parse(Data(json.standardOutput.utf8), source: "out") == BuiltInScenes.named("control-center"))
        #expect(try runCLI(["scenes", "--json", "nope"]).status == 2)
    }
}
