import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// `backdrop estimate --model`'s figure list: every figure the model is fitted to or
/// checked against, cited by its seed or source id, each with its tolerance.
@Suite("The model against every published figure")
struct ModelFigureTests {
    let figures = ModelFigure.all(for: .fitted)

    @Test func everyFigureOfTheCaseStudyTableAndEverySeedFigureIsListed() {
        let caseFigures = figures.filter { $0.id == "O5" || $0.id == "O6" }
        #expect(caseFigures.count == 23, "scenes.md's table has 23 figures")
        for id in ["B1", "B2", "V4", "V5", "V3", "F3", "V2", "O4", "B4"] {
            #expect(figures.contains { $0.id == id }, "\(id)")
        }
        #expect(figures.filter { $0.id == "O4" }.count == Device.all.count)
        #expect(figures.first { $0.id == "V3" }?.use == .reading)
        // Every case-study row is fitted but the two no fit reaches, held out and reported with the rest.
        let heldOut = Set(caseFigures.filter { $0.use == .heldOut }.map { "\($0.id) \($0.device) \($0.what)" })
        #expect(
            heldOut == [
                "O5 ipod-touch-5 photos-table-shadows fps", "O5 ipod-touch-5 photos-table-shadows GPU",
                "O6 iphone-4s contacts-table-masks fps", "O6 iphone-4s contacts-table-masks GPU",
            ])
        #expect(caseFigures.allSatisfy { $0.use == .fitted || $0.use == .heldOut })
        #expect(
            figures.filter { $0.id == "fill" || $0.id == "ratio" || $0.id == "O4" }.allSatisfy { $0.use == .heldOut })
    }

    @Test func theErrorIsFromTheFigureOrTheRangesNearestEdge() throws {
        let b1 = try #require(figures.first { $0.id == "B1" })
        #expect(abs(b1.errorPercent - (b1.predicted - 18.15) / 18.15 * 100) < 1e-9)
        for figure in figures where figure.measured == nil {
            #expect(figure.inRange == (figure.errorPercent == 0), "\(figure.id) \(figure.device) \(figure.what)")
        }
    }

    @Test func theRecordsReadBackWithTheirVerdicts() throws {
        let json = try CostModelReport.json(.fitted)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let rows = try #require(object["figures"] as? [[String: Any]])
        #expect(rows.count == figures.count)
        #expect(rows.allSatisfy { $0["inRange"] is Bool && $0["errorPercent"] != nil })
        #expect(object["coefficients"] is [String: Any])
    }

    /// Fill rates measured by GLBenchmark: devices.md's [S29] [S32], Techgage's iPhone 5 ([E1]), PChome's iPhone 4
    /// and 4S ([E4]) and heise's iPad (3rd generation) ([E5]), ±15 %: they set each generation's efficiency
    /// (``GPUGeneration``), so this holds the spread around it.
    @Test func everyMeasuredFillRateIsWithinFifteenPercent() {
        let fills = figures.filter { $0.id == "fill" }
        #expect(
            fills.map(\.device) == ["ipad-1", "ipad-2", "iphone-4s", "iphone-5", "iphone-4", "iphone-4s", "ipad-3"])
        for figure in fills {
            #expect(figure.inRange && abs(figure.errorPercent) <= 15, "\(figure.device): \(figure.errorPercent) %")
        }
    }

    /// Ratios between devices ([S25], [E2], [E3], [S38]): each within 15 % of the span the model allows. A fill
    /// test is held to the fill-rate ratio alone; a scene to the least to the greatest of the devices' ratios of
    /// fill, GFLOPS and bus. E3 (GLBenchmark 2.5 Egypt HD, iPhone 5s over iPhone 5, 1.88) lies between the
    /// buses' ratio (1.51) and the fill ratio (2.26): under fill and ALU alone it missed by 20 %.
    @Test func everyRatioBetweenDevicesIsWithinTheModelsSpan() throws {
        let ratios = figures.filter { $0.id == "ratio" }
        #expect(ratios.count == DeviceEvidence.ratios.count)
        for figure in ratios {
            #expect(figure.inRange, "\(figure.device) \(figure.what): \(figure.errorPercent) %")
        }
        let e3 = try #require(DeviceEvidence.ratios.first { $0.source == "E3" })
        let (low, high) = e3.modelSpan
        #expect(abs(low - 12.8 / 8.5) < 1e-9 && abs(high - 115.2 / 25.5) < 1e-9)
        let fillTest = try #require(DeviceEvidence.ratios.first { $0.resources == .fill })
        #expect(fillTest.modelSpan.low == fillTest.modelSpan.high)
    }

    @Test func theChartHasARowForEveryFigureFilledWhereFitted() {
        let svg = ModelFitSVG.render(.fitted)
        #expect(svg.components(separatedBy: "<circle").count - 1 == figures.count)
        let hollow = figures.filter { $0.use == .heldOut || $0.use == .reading }.count
        #expect(svg.components(separatedBy: "fill=\"#ffffff\" stroke=").count - 1 == hollow)
    }
}

/// The monotonicity rules of `scenes.md`, over random scenes: more layers, more pixels or more offscreen passes
/// never cost less.
@Suite("Monotone cost over random scenes")
struct RandomSceneMonotonicityTests {
    let estimator = Estimator()

    static func randomScene(_ random: inout SplitMix64) -> Scene {
        func number(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }
        var layers: [SceneLayer] = []
        for index in 0..<Int.random(in: 1...12, using: &random) {
            var layer = SceneLayer(
                name: "layer \(index)",
                frame: PointRect(
                    x: number(-50...300), y: number(-50...500), width: number(1...320), height: number(1...300)))
            layer.content = SceneLayer.Content.allCases.randomElement(using: &random)!
            layer.opaque = Bool.random(using: &random)
            if Int.random(in: 0..<4, using: &random) == 0 { layer.cornerRadius = 8; layer.masksToBounds = true }
            if Int.random(in: 0..<4, using: &random) == 0 {
                layer.shadow = SceneLayer.Shadow(radius: number(1...6), opacity: 0.5, path: Bool.random(using: &random))
            }
            if Int.random(in: 0..<3, using: &random) == 0 {
                var child = SceneLayer(name: "child \(index)", frame: PointRect(x: 4, y: 4, width: 40, height: 20))
                child.content = .text
                layer.sublayers = [child]
                layer.opacity = Bool.random(using: &random) ? 0.5 : 1
            }
            layers.append(layer)
        }
        return Scene(name: "random", layers: layers)
    }

    func total(_ scene: Scene, on device: Device) throws -> Double {
        try estimator.estimate(scene: scene, device: device, path: .blur).firstFrame.totalMs
    }

    @Test(arguments: ["iphone-4", "iphone-4s", "ipad-3", "iphone-5s"])
    func addingEnlargingOrSendingALayerOffscreenNeverCostsLess(_ id: String) throws {
        let device = try Device.lookup(id)
        var random = SplitMix64(seed: 26)
        for trial in 0..<60 {
            let scene = Self.randomScene(&random)
            let before = try total(scene, on: device)
            let pick = Int.random(in: 0..<scene.layers.count, using: &random)
            var more = scene
            var extra = SceneLayer(name: "extra", frame: PointRect(x: 10, y: 80, width: 120, height: 60))
            extra.content = .image
            more.layers.insert(extra, at: Int.random(in: 0...scene.layers.count, using: &random))
            var larger = scene
            larger.layers[pick].frame.width += 40
            larger.layers[pick].frame.height += 40
            var offscreen = scene
            offscreen.layers[pick].mask = true
            for (change, changed) in [("a layer more", more), ("a larger layer", larger), ("a mask", offscreen)] {
                let after = try total(changed, on: device)
                #expect(after >= before - 1e-9, "\(id) trial \(trial): \(change) \(before) → \(after) ms")
            }
        }
    }
}
