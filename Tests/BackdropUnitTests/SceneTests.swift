import Backdrop
import BackdropTestSupport
import Foundation
import Testing

@Suite("Scenes: the format, the planner, the case studies")
struct SceneTests {
    let estimator = Estimator()
    func device(_ id: String) throws -> Device { try #require(Device.named(id)) }
    func scene(_ name: String) throws -> Scene { try #require(BuiltInScenes.named(name)) }
    func parse(_ json: String) throws(BackdropError) -> Scene {
        try SceneParser.parse(Data(json.utf8), source: "test.json")
    }

    /// The nine built-in scenes: six first, then three more (a rasterized table, rasterized layers past 2.5 screens, a
    /// static screen with a spinner).
    @Test func everyBuiltInSceneParsesAndThereAreTheNineTheIssuesName() throws {
        #expect(
            BuiltInScenes.names == [
                "photos-table-shadows", "photos-table-shadow-path", "contacts-table-masks",
                "contacts-table-overlay", "navbar-tabbar-blur", "control-center", "photos-table-rasterized",
                "rasterized-pages", "static-spinner",
            ])
        for scene in BuiltInScenes.all {
            // Written as JSON, the scene reads back the same.
            #expect(try parse(SceneJSON.text(scene)) == scene, "\(scene.name)")
            #expect(!scene.description.isEmpty)
        }
        // The fixed tables differ from theirs only by the fix.
        let shadows = try scene("photos-table-shadows"), path = try scene("photos-table-shadow-path")
        #expect(
            shadows.layers[1].sublayers[0].shadow?.path == false && path.layers[1].sublayers[0].shadow?.path == true)
        let masks = try scene("contacts-table-masks"), overlay = try scene("contacts-table-overlay")
        #expect(masks.layers[1].sublayers[0].isMasked && !overlay.layers[1].sublayers[0].isMasked)
        #expect(overlay.layers[1].sublayers[0].sublayers.map(\.content) == [.image])
    }

    @Test(arguments: [
        (#"{"layers": [{"frame": [0,0,10,10], "colour": "red"}]}"#, "layers[0]: unknown key 'colour'"),
        (#"{"layers": [{"frame": [0,0,10]}]}"#, "layers[0].frame: expected [x, y, w, h] in points"),
        (#"{"layers": [{"frame": [0,0,-5,10]}]}"#, "layers[0].frame: the width and height must be positive"),
        (#"{"layers": [{"frame": [0,0,"a",10]}]}"#, "layers[0].frame[2]: expected a number"),
        (#"{"layers": [{"frame": [2000,0,10,10]}]}"#, "lies wholly outside the 1024×768 pt screen"),
        (#"{"screen": [320,480], "layers": [{"frame": [0,500,10,10]}]}"#, "lies wholly outside the 320×480 pt screen"),
        (#"{"layers": [{"frame": [0,0,10,10], "content": "video"}]}"#, "layers[0].content: unknown value 'video'"),
        (#"{"layers": [{"frame": [0,0,10,10], "opaque": 1}]}"#, "layers[0].opaque: expected true or false"),
        (#"{"layers": [{"frame": [0,0,10,10], "opacity": 2}]}"#, "layers[0].opacity: 2.0 is outside 0.0…1.0"),
        (
            #"{"layers": [{"frame": [0,0,10,10], "effect": {"blur": "heavy"}}]}"#,
            "layers[0].effect.blur: unknown style 'heavy'"
        ),
        (
            #"{"layers": [{"frame": [0,0,10,10], "effect": {"blur": "light", "vibrancy": [{"frame": [0,0,5,5], "sublayers": [{"frame": [0,0,2,2], "effect": {"blur": "glass"}}]}]}}]}"#,
            "layers[0].effect.vibrancy[0]: a vibrant layer is drawn as content: it cannot hold an effect view"
        ),
        (
            #"{"layers": [{"frame": [0,0,10,10], "repeat": {"count": 2.5}}]}"#,
            "layers[0].repeat.count: expected a whole number"
        ),
        (
            #"{"layers": [{"frame": [0,0,10,10], "repeat": {"count": 1000, "dy": 1}, "sublayers": [{"frame": [0,0,1,1], "repeat": {"count": 1000}}]}]}"#,
            "more than 100000 layers"
        ),
        (#"{"redraw": "sometimes", "layers": []}"#, "redraw: unknown value 'sometimes'"),
        (#"{"name": "x"}"#, "missing key 'layers'"),
        (#"[1, 2]"#, "expected an object"),
        (#"{"layers": [{"frame": [0,0,10,10]},"#, "not valid JSON"),
    ])
    func badSceneFilesAreOneLineErrorsNamingThePlace(json: String, message: String) {
        do {
            _ = try parse(json)
            Issue.record("accepted: \(json)")
        } catch {
            #expect(error.kind == .badInput)
            #expect(error.message.hasPrefix("test.json: ") && error.message.contains(message), "\(error.message)")
            #expect(!error.message.contains("\n"))
        }
    }

    @Test func randomBytesNeverCrashTheParser() {
        var generator = SplitMix64(seed: 7)
        for length in [0, 1, 7, 64, 512] {
            for _ in 0..<50 {
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                _ = try? SceneParser.parse(Data(bytes), source: "random")
            }
        }
        // And mutations of a real scene: every prefix parses or fails cleanly.
        let text = Array(SceneJSON.text(BuiltInScenes.all[0]).utf8)
        for cut in stride(from: 0, to: text.count, by: 37) {
            _ = try? SceneParser.parse(Data(text[..<cut]), source: "cut")
        }
    }

    @Test func aLayerPartlyOffTheScreenIsClippedAndCopiesWhollyOffItAddNothing() throws {
        let phone = try device("iphone-4s")  // 320×480 pt at scale 2
        let half = try parse(
            #"{"layers": [{"name": "a", "frame": [160, 0, 320, 100], "content": "solid", "opaque": true}]}"#)
        let passes = try ScenePlanner(device: phone, path: .blur).frame(of: half, steady: true).passes
        #expect(passes.map(\.descriptor.pixelsWritten) == [320 * 200])  // 160 of its 320 pt are on screen
        let cells = try parse(
            #"{"layers": [{"name": "cell", "frame": [0, 0, 320, 100], "content": "solid", "repeat": {"count": 10, "dy": 100}}]}"#
        )
        let drawn = try ScenePlanner(device: phone, path: .blur).frame(of: cells, steady: true).passes
        #expect(drawn.count == 5)  // 480 pt: four whole cells and part of the fifth
        #expect(drawn.last?.descriptor.pixelsWritten == 640 * 160)
    }

    @Test func o1AMaskIsThreePassesTwoOffscreenAndO3GroupOpacityIsOne() throws {
        let phone = try device("iphone-5")
        let masked = try parse(
            #"{"layers": [{"name": "avatar", "frame": [0, 0, 44, 44], "content": "image", "cornerRadius": 22, "masksToBounds": true}]}"#
        )
        let passes = try ScenePlanner(device: phone, path: .blur).frame(of: masked, steady: true).passes
        #expect(passes.map(\.descriptor.kind) == [.mask, .layer, .maskedComposite])
        #expect(passes.map { $0.target == .screen } == [false, false, true])
        let group = try parse(
            #"{"layers": [{"name": "card", "frame": [0, 0, 100, 100], "content": "solid", "opacity": 0.5, "sublayers": [{"name": "x", "frame": [0, 0, 10, 10], "content": "text"}]}]}"#
        )
        let groupPasses = try ScenePlanner(device: phone, path: .blur).frame(of: group, steady: true).passes
        #expect(groupPasses.filter { $0.target != .screen }.count == 2)  // the card and its sublayer, into one texture
        #expect(Set(groupPasses.filter { $0.target != .screen }.map(\.target)).count == 1)
        #expect(groupPasses.last?.descriptor.kind == .offscreenComposite)
    }

    @Test func o2RasterizedLayersAreDrawnFromTheCacheWhileTheyFitInTwoAndAHalfScreens() throws {
        let phone = try device("iphone-5")
        func rasterized(_ count: Int) throws -> SceneEstimate {
            try estimator.estimate(
                scene: try parse(
                    #"{"layers": [{"name": "card", "frame": [0, 0, 320, 568], "content": "image", "rasterize": true, "repeat": {"count": \#(count)}}]}"#
                ),
                device: phone)
        }
        let two = try rasterized(2), three = try rasterized(3)
        #expect(two.rasterCacheBytes == 2 * 4 * phone.screen.area && two.rasterCacheBytes <= two.rasterCacheLimitBytes)
        #expect(two.frame.offscreenPasses == 0)  // both from the cache
        #expect(three.rasterCacheBytes > three.rasterCacheLimitBytes)
        #expect(three.frame.offscreenPasses == 1)  // the third no longer fits: rendered again every frame
        #expect(two.firstFrame.offscreenPasses == 2)
    }

    @Test func b5AStaticSceneAtRestDrawsOnlyWhatAnimates() throws {
        let center = try estimator.estimate(scene: try scene("control-center"), device: try device("ipad-air"))
        #expect(
            center.frame.passes.isEmpty && center.frame.totalMs == 0 && center.frame.fps == 60
                && center.frame.gpuPercent == 0)
        #expect(center.firstFrame.totalMs > 5)
        #expect(center.firstFrame.passes.contains { $0.pass.kind == .vibrancyFilter })
        var animated = try scene("control-center")
        animated.layers[1].animating = true
        let moving = try estimator.estimate(scene: animated, device: try device("ipad-air"))
        #expect(moving.frame.totalMs == moving.firstFrame.totalMs - 0 || moving.frame.totalMs > 0)
        #expect(moving.frame.passes.contains { $0.pass.kind == .upscaleTint })
    }

    @Test func aSceneOfOneEffectViewIsTheEffectEstimate() throws {
        for device in Device.all {
            let scene = Estimator.effectViewScene(style: .dark, vibrancy: true, view: device.screen, on: device)
            let viaScene = try estimator.estimate(scene: scene, device: device, path: .blur)
            let viaEffect = try estimator.estimate(device: device, style: .dark, vibrancy: true, path: .blur)
            #expect(viaScene.frame.totalMs == viaEffect.totalMs)
            #expect(viaScene.frame.passes.map(\.pass.name) == viaEffect.frame.passes.map(\.pass.name))
        }
    }

    /// The rows of the case-study table the model does not reach, and why (see docs/cost-model.md). Each stays a
    /// known issue: if the model starts to reach one, the test says so.
    static let knownMisses: [String: String] = [
        "O5 photos-table-shadows on ipod-touch-5":
            "51.5 fps and 70 % against 30–40 and 72–82: held out of the fit (CaseStudy.usedInFit); fitted, the fit reaches only 44 fps and 64 % and pulls V5's light and dark out of ±10 %",
        "O5 photos-table-shadows on iphone-5":
            "60 fps (15.5 ms) against a drop below 60: the shadows' short chains at reduced size fit the iPhone 5's frame",
        "O6 contacts-table-masks on iphone-4s":
            "60 fps and 72 % against the mid 40s and 83–90: seven masks on the 3.5-inch screen against nine on the iPod, both in the mid 40s; MaskRowsBound puts the iPod under 40 fps whenever the 4S meets its row",
        "O6 contacts-table-masks on ipod-touch-5":
            "49.3 fps in range, 82.5 % against 83–90: half a point under, the idle of the context switches (s) it shares with V2",
    ]

    @Test(arguments: CaseStudy.all)
    func o5AndO6EveryRowOfTheCaseStudyTable(_ row: CaseStudy) throws {
        let frame = row.frame(by: .fitted)
        print(
            String(
                format: "%@: %.1f fps (talk %.0f–%.0f), GPU %.0f %%", row.description, frame.fps, row.fps.lowerBound,
                row.fps.upperBound, frame.gpuPercent))
        let check = {
            #expect(row.fps.contains(frame.fps), "\(row): \(frame.fps) fps")
            if let gpu = row.gpuPercent { #expect(gpu.contains(frame.gpuPercent), "\(row): GPU \(frame.gpuPercent) %") }
        }
        if let reason = Self.knownMisses[row.description] {
            withKnownIssue(Comment(rawValue: reason)) { check() }
        } else {
            check()
        }
    }

    /// The floor of a row (every fitted coefficient at zero) is below what the fitted model gives, never above;
    /// a row whose floor exceeds what its ranges allow is out of every fit's reach, and must be a known miss.
    @Test func o5AndO6TheRowsOutOfReachOfEveryFitAreKnownMisses() {
        let e = CostModel.fitted.bandwidthEfficiency
        for row in CaseStudy.all {
            let floor = row.floorBusyMs(bandwidthShare: e), fitted = row.frame(by: .fitted).busyMs
            #expect(floor > 0 && floor < fitted, "\(row): floor \(floor) ms, fitted \(fitted) ms")
            if row.outOfReach(bandwidthShare: e) { #expect(Self.knownMisses[row.description] != nil, "\(row)") }
        }
        // O5 on the iPod allows 27.33 ms busy (30 fps at 82 %); since shadows are planned as Core Animation draws
        // them (ShadowRule), its floor is far below that, and no row is out of every fit's reach.
        let shadows = CaseStudy.all.first { $0.description == "O5 photos-table-shadows on ipod-touch-5" }!
        #expect(abs(shadows.mostBusyMs - 0.82 * 1000 / 30) < 1e-9)
        #expect(CaseStudy.all.allSatisfy { !$0.outOfReach(bandwidthShare: e) })
        // A row that only asks for fewer than 60 fps limits nothing.
        #expect(
            CaseStudy.all.first { $0.description == "O5 photos-table-shadows on iphone-5" }!.mostBusyMs == .infinity)
    }

    /// O6: why the masks rows are known misses. The bound (``MaskRowsBound``) is computed from the talk's ranges,
    /// the scenes' plans and the device table, not from the fit; checked here against the same arithmetic done
    /// by hand with whole masks only, which it may not exceed.
    @Test func o6TheMasksRowsBoundKeepsTheIPodUnder40FpsWhenThe4SMeetsItsRow() throws {
        let bound = MaskRowsBound.o6
        let whole = 88 * 88  // a 44 pt thumbnail at scale 2
        #expect(bound.maskPixels.fewer == Array(repeating: whole, count: 7))
        #expect(bound.maskPixels.more.count == 9 && bound.maskPixels.more.prefix(8).allSatisfy { $0 == whole })
        #expect(bound.maskPixels.more[8] < whole)  // the ninth is cut by the screen's bottom edge
        let fourS = try device("iphone-4s"), iPod = try device("ipod-touch-5")
        #expect(
            fourS.gpuClockMHz == iPod.gpuClockMHz && fourS.memoryBandwidthGBps == iPod.memoryBandwidthGBps
                && fourS.texelsPerClock == iPod.texelsPerClock)
        // The least of the ratios of the draws' pixels, their number and the screens: near the screens' 1136 / 960.
        #expect(bound.baseRatio > 1.18 && bound.baseRatio <= 1136.0 / 960)

        let e = CostModel.fitted.bandwidthEfficiency
        let storeAndLoad = { (d: Device) in 8 * Double(d.screen.area) / (d.memoryBandwidthGBps * 1e9 * e) * 1e3 }
        let frame = 20.0, idle = 0.17 * 20, base = 0.35 * 1000 / 60
        let wholeMasksOnly =
            bound.baseRatio * base + idle + 9.0 / 7 * (frame - base - idle)
            + 9 * (storeAndLoad(iPod) - storeAndLoad(fourS))
        let least = bound.leastFrameMs(bandwidthShare: e)
        #expect(least < wholeMasksOnly && least > wholeMasksOnly - 0.5, "\(least) against \(wholeMasksOnly) ms")
        #expect(least > 25, "the iPod's masks row (40–50 fps) would be reachable: \(least) ms")
        let share = try #require(bound.bandwidthShareToMeet)
        #expect(share > e && share < 1)
        #expect(abs(bound.leastFrameMs(bandwidthShare: share) - 25) < 1e-3)
    }

    @Test func theOffscreenVersionsCostMoreThanTheirFixesOnEveryDevice() throws {
        for device in Device.all {
            for (slow, fast) in [
                ("photos-table-shadows", "photos-table-shadow-path"),
                ("contacts-table-masks", "contacts-table-overlay"),
            ] {
                let a = try estimator.estimate(scene: try scene(slow), device: device).frame
                let b = try estimator.estimate(scene: try scene(fast), device: device).frame
                #expect(
                    a.totalMs > b.totalMs && a.offscreenPasses > 0 && b.offscreenPasses == 0, "\(device.id) \(slow)")
                #expect(a.gpuPercent < 100 || a.idleMs > 0)
            }
        }
    }

    @Test func explainNamesTheCauseAndTheFixSavesTime() throws {
        let advice = try SceneAdvice(
            scene: try scene("photos-table-shadows"), device: try device("ipod-touch-5"), estimator: estimator)
        let item = try #require(advice.items.first)
        #expect(
            item.layer == "thumbnail" && item.cause.contains("shadow without a path") && item.fix.contains("shadowPath")
        )
        // Five visible thumbnails, each shadow its shape, three halvings and two blurs offscreen (σ = 8 px).
        #expect(item.offscreenPasses == 30 && item.savedMs > 10)
        let masks = try SceneAdvice(
            scene: try scene("contacts-table-masks"), device: try device("iphone-4s"), estimator: estimator)
        #expect(
            masks.items.map(\.layer) == ["thumbnail"] && masks.items[0].fix.contains("overlay")
                && masks.items[0].savedMs > 0)
        #expect(
            try SceneAdvice(
                scene: try scene("photos-table-shadow-path"), device: try device("iphone-5"), estimator: estimator
            ).items.isEmpty)
    }
}

@Suite("The model beyond the two measured devices")
struct ModelChecksTests {
    let estimator = Estimator()

    @Test(arguments: Device.all)
    func o4EveryDeviceFillsItsScreenAtLeastTwoAndAHalfTimesAFrame(_ device: Device) {
        #expect(ModelChecks.fillsPerFrame(on: device, estimator: estimator) >= 2.5, "\(device.id)")
    }

    @Test func b4TheTintOnlyFallbackRunsAtSixtyWhereAppleShippedIt() {
        #expect(ModelChecks.fallbackDevices.map(\.id) == ["iphone-4", "ipad-2", "ipad-3"])
        for device in ModelChecks.fallbackDevices {
            let fallback = ModelChecks.fallback(on: device, estimator: estimator)
            #expect(fallback.fps == 60 && fallback.verdict != .dropsFrames, "\(device.id): \(fallback.totalMs) ms")
        }
    }

    @Test func moreLayersMorePixelsOrMoreOffscreenPassesNeverCostLess() throws {
        for device in Device.all {
            for base in BuiltInScenes.all {
                let before = try estimator.estimate(scene: base, device: device, path: .blur).firstFrame.totalMs
                var more = base
                var extra = SceneLayer(name: "extra", frame: PointRect(x: 0, y: 100, width: 200, height: 100))
                extra.content = .text
                more.layers.append(extra)
                var larger = more
                larger.layers[larger.layers.count - 1].frame.width = 300
                var offscreen = larger
                offscreen.layers[offscreen.layers.count - 1].cornerRadius = 8
                offscreen.layers[offscreen.layers.count - 1].masksToBounds = true
                let totals = try [more, larger, offscreen].map { scene throws(BackdropError) in
                    try estimator.estimate(scene: scene, device: device, path: .blur).firstFrame.totalMs
                }
                #expect(
                    before <= totals[0] && totals[0] <= totals[1] && totals[1] <= totals[2], "\(device.id) \(base.name)"
                )
            }
        }
    }

    @Test func aDeviceNeverBeatsOneWithTheSameGPUAtAHigherClock() throws {
        // The same work on the same screen: each slower device against a copy of it at the faster one's clock.
        for slow in Device.all {
            for fast in Device.all where fast.gpu == slow.gpu && fast.gpuClockMHz > slow.gpuClockMHz {
                let faster = Device(
                    id: slow.id, name: slow.name, year: slow.year, soc: slow.soc, gpu: slow.gpu,
                    gpuClockMHz: fast.gpuClockMHz, gflops: fast.gflops, texelsPerClock: fast.texelsPerClock,
                    memoryBus: fast.memoryBus, memoryBandwidthGBps: fast.memoryBandwidthGBps, screen: slow.screen,
                    scale: slow.scale, ramMB: slow.ramMB, lastIOS: slow.lastIOS, iOS7Blur: slow.iOS7Blur,
                    measuredFillRateMTexelsPerSecond: nil, sources: "")
                for scene in BuiltInScenes.all {
                    let passes = try ScenePlanner(device: slow, path: .blur).frame(of: scene, steady: false)
                        .passes
                    #expect(
                        estimator.model.frame(of: passes, on: faster).totalMs
                            <= estimator.model.frame(of: passes, on: slow).totalMs,
                        "\(slow.id) at \(fast.gpuClockMHz) MHz, \(scene.name)")
                }
            }
        }
    }
}
