import Backdrop
import BackdropTestSupport
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("backdrop estimate")
struct EstimateCLITests {
    @Test func allDevicesPrintsARowForEveryDevice() throws {
        let result = try runCLI(["estimate", "--all-devices", "--style", "light"])
        #expect(result.status == 0, "\(result.standardError)")
        for device in Device.all { #expect(result.standardOutput.contains(device.id)) }
        #expect(result.standardOutput.contains("* ipad-2: model blur, Apple tint-only"))
    }

    /// A style a device never ran (iOS 13's materials before the iPhone 6s, iOS 26's glass before the iPhone 11) is
    /// marked on that device's row and only there: on every device of 2009–2013; light on none.
    @Test func allDevicesMarksEveryRowOfAStyleTheDevicesNeverRan() throws {
        for style in ["systemMaterial", "glass", "light"] {
            let result = try runCLI(["estimate", "--all-devices", "--style", style])
            #expect(result.status == 0, "\(result.standardError)")
            let rows = result.standardOutput.split(separator: "\n").filter { line in
                Device.all.contains { line.hasPrefix($0.id + " ") }
            }
            #expect(rows.count == Device.all.count)
            let entry = try #require(StyleCatalogue.entry(named: style)?.light)
            for row in rows {
                let device = try #require(Device.all.first { row.hasPrefix($0.id + " ") })
                let marked = Estimator.whatIf(entry, on: device) != nil
                #expect(row.contains("(what-if)") == marked, "\(style): \(row)")
                if Device.earlyDevices.contains(device) { #expect(marked == (style != "light"), "\(device.id)") }
            }
            #expect(
                result.standardOutput.contains("a what-if, not a prediction of shipped behaviour") == (style != "light")
            )
        }
    }

    /// A scene's system materials and glass (here in a sublayer) are what-ifs on every device of the table, and glass is
    /// an approximation:
    /// the scene's estimate (one device, every device, JSON), its picture's line and `estimate view` say so; a scene of
    /// iOS 7's styles says neither.
    @Test func aScenesMaterialsAndGlassAreMarkedAsWhatIfsAndGlassAsAnApproximation() throws {
        let directory = try Fixtures.temporaryDirectory()
        let scene = directory.appendingPathComponent("styles.json"),
            plain = directory.appendingPathComponent("plain.json")
        try Data(
            #"""
            {"name": "styles", "layers": [
              {"name": "bar", "frame": [0, 0, 320, 64], "effect": {"blur": "systemMaterial"}},
              {"name": "holder", "frame": [0, 90, 320, 100], "sublayers": [
                {"name": "pill", "frame": [20, 10, 200, 60], "effect": {"blur": "glass"}}]}]}
            """#.utf8
        ).write(to: scene)
        try Data(
            #"{"name": "plain", "layers": [{"name": "bar", "frame": [0, 0, 320, 64], "effect": {"blur": "light"}}]}"#
                .utf8
        )
        .write(to: plain)
        let whatIf13 = "a what-if: the iPhone 5 never ran iOS 13", whatIf26 = "a what-if: the iPhone 5 never ran iOS 26"
        let approximation = "Liquid Glass is an approximation"
        let one = try runCLI(["estimate", "scene", scene.path, "--device", "iphone-5"])
        #expect(one.status == 0, "\(one.standardError)")
        for note in [whatIf13, whatIf26, approximation] {
            #expect(one.standardOutput.contains("style:     \(note)"), "\(note): \(one.standardOutput)")
        }
        let all = try runCLI(["estimate", "scene", scene.path, "--all-devices"])
        #expect(all.status == 0, "\(all.standardError)")
        let rows = all.standardOutput.split(separator: "\n").filter { line in
            Device.all.contains { line.hasPrefix($0.id + " ") }
        }
        // Glass (iOS 26) makes the scene a what-if on every device whose last iOS is older: all of 2009–2013.
        #expect(rows.count == Device.all.count, "\(all.standardOutput)")
        for row in rows {
            let device = try #require(Device.all.first { row.hasPrefix($0.id + " ") })
            let last = Int(device.lastIOS.prefix { $0.isNumber }) ?? 0
            #expect(row.contains("(what-if)") == (last < 26), "\(row)")
        }
        #expect(Device.earlyDevices.allSatisfy { Int($0.lastIOS.prefix { $0.isNumber })! < 26 })
        #expect(all.standardOutput.contains("a what-if, not a prediction of shipped behaviour"))
        #expect(all.standardOutput.contains(approximation))
        let json = try runCLI(["estimate", "scene", scene.path, "--device", "iphone-5", "--format", "json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let notes = try #require(object["styleNotes"] as? [String])
        #expect(notes.count == 3 && notes[0].hasPrefix(whatIf13) && notes[1].hasPrefix(whatIf26), "\(notes)")
        #expect(notes[2].hasPrefix(approximation))
        let picture = try runCLI(
            [
                "render", "scene", scene.path, "--device", "iphone-5", "-o",
                directory.appendingPathComponent("s.png").path,
            ])
        #expect(picture.status == 0, "\(picture.standardError)")
        for note in [whatIf13, whatIf26, approximation] {
            #expect(picture.standardOutput.contains(note), "\(note): \(picture.standardOutput)")
        }
        let view = try runCLI(["estimate", "view", "--style", "glass", "--device", "iphone-5"])
        #expect(view.standardOutput.contains("style:      \(approximation)"), "\(view.standardOutput)")
        let glassTable = try runCLI(["estimate", "view", "--style", "glass", "--all-devices"])
        #expect(glassTable.standardOutput.contains(approximation), "\(glassTable.standardOutput)")
        let plainOne = try runCLI(["estimate", "scene", plain.path, "--device", "iphone-5"])
        #expect(plainOne.status == 0 && !plainOne.standardOutput.contains("style:"), "\(plainOne.standardOutput)")
        let plainAll = try runCLI(["estimate", "scene", plain.path, "--all-devices"])
        #expect(!plainAll.standardOutput.contains("what-if"), "\(plainAll.standardOutput)")
    }

    @Test func theJSONKeepsItsSchema() throws {
        let result = try runCLI([
            "estimate", "--device", "ipad-air", "--style", "extraLight", "--vibrancy", "--format", "json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        for key in [
            "device", "style", "vibrancy", "path", "applePolicy", "passes", "gapsMs", "idleMs", "totalMs",
            "budgetMs", "leftMs", "fps", "verdict",
        ] {
            #expect(object[key] != nil, "missing key \(key)")
        }
        let passes = try #require(object["passes"] as? [[String: Any]])
        #expect(passes.count == 8)
        for pass in passes {
            for key in ["name", "kind", "ms", "pixelsWritten", "texelsRead", "bytes", "offscreen", "textureBytes"] {
                #expect(pass[key] != nil, "missing pass key \(key)")
            }
            // Each pass's time with its range (issue 68, item 4).
            let ms = try #require(pass["ms"] as? Double), range = try #require(pass["msRange"] as? [Double])
            #expect(range.count == 2 && range[0] < ms && ms < range[1], "\(pass)")
        }
        // Six switches, six gaps (V2): the vibrant content's render samples nothing, yet its switch idles too.
        #expect((object["gapsMs"] as? [Double])?.count == 6)
        // Every figure with its range, [low, high] around it.
        let total = try #require(object["totalMs"] as? Double), fps = try #require(object["fps"] as? Double)
        let totalRange = try #require(object["totalMsRange"] as? [Double])
        let fpsRange = try #require(object["fpsRange"] as? [Double])
        #expect(totalRange.count == 2 && totalRange[0] < total && total < totalRange[1])
        #expect(fpsRange.count == 2 && fpsRange[0] <= fps && fps <= fpsRange[1])
        // GPU use with its range, and the busy and idle times with theirs (issue 68, item 4: the view's JSON had
        // the range without the figure).
        let gpu = try #require(object["gpuPercent"] as? Double)
        let gpuRange = try #require(object["gpuPercentRange"] as? [Double])
        #expect(gpuRange.count == 2 && gpuRange[0] <= gpu && gpu <= gpuRange[1])
        for key in ["busyMs", "idleMs"] {
            let value = try #require(object[key] as? Double), range = try #require(object[key + "Range"] as? [Double])
            #expect(range.count == 2 && range[0] < value && value < range[1], "\(key)")
        }
        // The whole table decodes as records too.
        let all = try runCLI(["estimate", "--all-devices", "--format", "json"])
        #expect(
            try JSONDecoder().decode([EstimateRecord].self, from: Data(all.standardOutput.utf8)).count
                == Device.all.count)
    }

    @Test func unknownDevicesPathsAndViewsAreUsageErrors() throws {
        for (arguments, text) in [
            (["--device", "ipad-12"], "unknown device 'ipad-12'"),
            (["--device", "ipad-3", "--path", "maybe"], "The value 'maybe' is invalid for '--path <path>'"),
            (["--device", "ipad-3", "--view", "10by10"], "--view '10by10' is not WxH"),
            (["--device", "iphone-4", "--view", "400x100"], "does not fit on the iPhone 4"),
            (["--all-devices", "--format", "svg"], "--format svg draws one device"),
            ([], "give --device ID, --all-devices or --devices FILTER"),
        ] {
            let result = try runCLI(["estimate"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.standardError)")
            #expect(
                result.standardError.contains(text) && result.standardError.split(separator: "\n").count == 1,
                "\(arguments): \(result.standardError)")
        }
    }

    @Test func renderWithADeviceShowsWhatTheDeviceWouldDraw() throws {
        let photo = Fixtures.path("photos/coffee.png")
        let directory = try Fixtures.temporaryDirectory()
        let source = try Fixtures.image("photos/coffee.png")
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
        #expect(
            try PNGDecoder().decodeFile(forced) == Renderer().render(source, effect: Effect(style: .light, scale: 2)))
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
        let array = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        #expect(array.count == Device.all.count)
        for object in array {
            for key in [
                "device", "scene", "passes", "gapsMs", "busyMs", "idleMs", "totalMs", "fps", "gpuPercent",
                "offscreenPasses", "renderTargetSwitches", "verdict", "predicted",
            ] {
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
        try Data(
            #"{"name": "mine", "layers": [{"name": "bar", "frame": [0, 0, 320, 64], "effect": {"blur": "dark"}}]}"#.utf8
        ).write(to: good)
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
            #expect(
                run.standardError.contains(text) && run.standardError.split(separator: "\n").count == 1,
                "\(run.standardError)")
        }
        let mixed = try runCLI(["estimate", "--device", "iphone-5", "--scene", "control-center", "--vibrancy"])
        #expect(mixed.status == 2 && mixed.standardError.contains("--scene prices its own layers"))
    }

    /// `--find`: the largest value that keeps a frame rate, one row per device with `--all-devices`, `largest` and
    /// `largestRange` in JSON; a property the scene lacks is one line naming the layer and key, exit 1.
    @Test func findAnswersTheLargestValueThatFitsOnEveryDevice() throws {
        let one = try runCLI([
            "estimate", "--scene", "photos-table-shadows", "--device", "iphone-5s", "--find", "thumbnail.shadow.radius",
        ])
        #expect(
            one.status == 0 && one.standardOutput.contains("thumbnail.shadow.radius: at most"), "\(one.standardError)")
        let all = try runCLI([
            "estimate", "--scene", "photos-table-shadows", "--all-devices", "--find", "thumbnail.shadow.radius",
            "--fps", "30", "--format", "json",
        ])
        #expect(all.status == 0, "\(all.standardError)")
        let rows = try #require(
            try JSONSerialization.jsonObject(with: Data(all.standardOutput.utf8)) as? [[String: Any]])
        #expect(
            rows.count == Device.all.count
                && rows.allSatisfy { $0.keys.contains("largest") && $0["largestRange"] is [Any] })
        for (arguments, status, message) in [
            (["--find", "navigation bar.shadow.radius"], Int32(1), "layer 'navigation bar' has no shadow"),
            (["--find", "nobody.repeat.count"], 1, "the scene has no layer 'nobody'"),
            (["--find", "thumbnail.shadow.radius", "--fps", "90"], 2, "--fps 90.0 is out of range"),
            (["--fps", "30"], 2, "--fps goes with --find"),
        ] {
            let result = try runCLI(
                ["estimate", "--scene", "photos-table-shadows", "--device", "iphone-5"] + arguments)
            #expect(result.status == status && result.standardError.contains(message), "\(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1)
        }
    }

    @Test func explainSaysWhichLayersGoOffscreenAndWhatTheFixSaves() throws {
        let result = try runCLI([
            "estimate", "--scene", "photos-table-shadows", "--device", "ipod-touch-5", "--explain",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("thumbnail: shadow without a path (O5), 30 offscreen passes a frame"))
        #expect(result.standardOutput.contains("set shadowPath") && result.standardOutput.contains("saves"))
    }

    @Test func scenesListsTheBuiltInsAndPrintsOneAsJSONThatReadsBack() throws {
        let list = try runCLI(["scenes"])
        #expect(list.status == 0)
        for name in BuiltInScenes.names { #expect(list.standardOutput.contains(name)) }
        let json = try runCLI(["scenes", "--json", "control-center"])
        #expect(
            try SceneParser.parse(Data(json.standardOutput.utf8), source: "out")
                == BuiltInScenes.named("control-center"))
        #expect(try runCLI(["scenes", "--json", "nope"]).status == 2)
    }
}

/// What bounds each frame, the screens that explain why devices with one GPU differ,
/// `--explain` in JSON that never advises a fix already in place, and the fit report in three formats.
@Suite("backdrop estimate: explanations and the fit report")
struct EstimateExplanationTests {
    @Test func theAllDevicesTablesShowTheScreenAndTheBound() throws {
        for arguments in [["--style", "light"], ["--scene", "photos-table-shadows"]] {
            let text = try runCLI(["estimate", "--all-devices"] + arguments)
            #expect(text.status == 0, "\(text.standardError)")
            #expect(text.standardOutput.contains("screen px") && text.standardOutput.contains("bound"))
            #expect(text.standardOutput.contains("2048×1536") && text.standardOutput.contains("640×1136"))
            let json = try runCLI(["estimate", "--all-devices", "--format", "json"] + arguments)
            let rows = try #require(
                try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
            for row in rows {
                #expect(["fill", "alu", "memory", "idle"].contains(row["bound"] as? String ?? ""), "\(arguments)")
                #expect((row["screen"] as? [String: Int])?["width"] != nil)
            }
        }
        // The talk's measurement beside the prediction, with the error: B2 on the iPad 3, V3 as we read it.
        let blur = try runCLI(["estimate", "--all-devices", "--style", "light", "--path", "blur"])
        #expect(blur.standardOutput.contains("B2 14.50 (") && blur.standardOutput.contains("V3 4.59 ("))
    }

    @Test func explainNamesTheBoundAndNeverAdvisesAFixInPlace() throws {
        let text = try runCLI(["estimate", "--scene", "navbar-tabbar-blur", "--all-devices", "--explain"])
        #expect(text.status == 0, "\(text.standardError)")
        let json = try runCLI([
            "estimate", "--scene", "navbar-tabbar-blur", "--all-devices", "--explain", "--format", "json",
        ])
        let records = try JSONDecoder().decode([ExplanationRecord].self, from: Data(json.standardOutput.utf8))
        #expect(records.count == Device.all.count)
        for record in records {
            #expect(["fill", "alu", "memory", "idle"].contains(record.bound))
            // The effect views of a device on the tint-only path have no offscreen pass: nothing to advise.
            let device = try Device.lookup(record.device)
            if Estimator().decision(for: device).path == .tintOnly {
                #expect(record.items.isEmpty, "\(record.device) is advised \(record.items.map(\.fix))")
            }
            #expect(record.items.allSatisfy { $0.offscreenPasses > 0 && $0.savedMs > 0 }, "\(record.device)")
        }
        #expect(text.standardOutput.contains("bound by"))
        #expect(!text.standardOutput.contains("saves 0.00 ms"))
        let svg = try runCLI([
            "estimate", "--scene", "navbar-tabbar-blur", "--device", "ipad-3", "--explain", "--format", "svg",
        ])
        #expect(svg.status == 2 && svg.standardError.contains("--explain prints text or json"))
    }

    @Test func theFitReportComesAsTextJSONAndAnSVGThatParses() throws {
        let text = try runCLI(["estimate", "--model"])
        #expect(text.status == 0 && text.standardOutput.contains("figures,") && text.standardOutput.contains("E1"))
        let json = try runCLI(["estimate", "--model", "--format", "json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect((object["figures"] as? [Any])?.count == ModelFigure.all(for: .fitted).count)
        let svg = try runCLI(["estimate", "--model", "--format", "svg"])
        let parser = XMLParser(data: Data(svg.standardOutput.utf8))
        #expect(parser.parse(), "the fit chart is not well-formed XML")
    }
}
