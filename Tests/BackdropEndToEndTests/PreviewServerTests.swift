import Backdrop
import BackdropTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `backdrop preview`'s HTTP API over real HTTP on a port the system picks.
@Suite("backdrop preview: the HTTP API")
struct PreviewServerTests {
    func get(_ url: String) async throws -> (Int, Data, String) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: url)!)
        let http = response as! HTTPURLResponse
        return (http.statusCode, data, http.value(forHTTPHeaderField: "Content-Type") ?? "")
    }

    func getWithHeaders(_ url: String) async throws -> (Int, Data, [String: String]) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: url)!)
        let http = response as! HTTPURLResponse
        var headers: [String: String] = [:]
        for name in ["Backdrop-Frame", "Backdrop-Size"] { headers[name] = http.value(forHTTPHeaderField: name) }
        return (http.statusCode, data, headers)
    }

    /// A POST as the preview's page sends it: from the server's own origin.
    func post(_ url: String, _ body: Data) async throws -> (Int, Data) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        let origin = URL(string: url)!
        request.setValue("http://\(origin.host!):\(origin.port!)", forHTTPHeaderField: "Origin")
        request.httpBody = body
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as! HTTPURLResponse).statusCode, data)
    }

    @Test func everyEndpointAnswersAndBadRequestsAreOneLineJSONErrors() async throws {
        let server = try PreviewProcess()
        defer { server.stop() }
        let a = server.address
        let (pageStatus, page, pageType) = try await get(a)
        #expect(
            pageStatus == 200 && pageType.hasPrefix("text/html")
                && String(decoding: page, as: UTF8.self).contains("Backdrop preview"))
        let (inputStatus, input, _) = try await get(a + "input.png")
        #expect(inputStatus == 200)
        let demo = try PNGDecoder().decode([UInt8](input))
        #expect(demo == DemoImage.make())
        // The render is what `backdrop render` draws with the same options: the query's names are the CLI's.
        let directory = try Fixtures.temporaryDirectory()
        let demoFile = directory.appendingPathComponent("demo.png").path
        try PNGEncoder().write(demo, to: demoFile)
        for query in [
            "style=dark&frame=100,300,800,300&scale=2", "style=light&exact=1&frame=0,0,200,100",
            "style=extraLight&path=tint-only", "style=light&device=ipad-3",
            "style=custom&sigma=12&saturation=1.2&tint=1,0.9,0.8&tint-alpha=0.3&frame=10,10,300,200",
            "style=custom&sigma=12&saturation=1.2&tint=0,0,0&tint-alpha=0.3&fallback-alpha=0.5"
                + "&vibrancy-blend=plusLighter&path=tint-only&device=iphone-4",
        ] {
            let (status, png, type) = try await get(a + "render.png?" + query)
            #expect(status == 200 && type == "image/png", "\(query)")
            let picture = try PNGDecoder().decode([UInt8](png))
            #expect(picture != demo, "\(query): the effect changed nothing")
            let options = query.split(separator: "&").flatMap { pair -> [String] in
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                return parts == ["exact", "1"] ? ["--exact"] : ["--" + parts[0], parts[1]]
            }
            let output = directory.appendingPathComponent("cli.png").path
            let cli = try runCLI(["render", demoFile, "-o", output] + options)
            #expect(cli.status == 0, "\(options): \(cli.standardError)")
            #expect(try PNGDecoder().decodeFile(output) == picture, "\(query): not what backdrop render draws")
        }
        let (estimateStatus, estimate, _) = try await get(
            a + "estimate.json?style=light&frame=0,0,640,128&device=iphone-5")
        #expect(estimateStatus == 200)
        let record = try JSONDecoder().decode(EstimateRecord.self, from: estimate)
        #expect(record.device == "iphone-5" && record.view == PixelSize(width: 640, height: 128))
        let all = try JSONDecoder().decode([EstimateRecord].self, from: try await get(a + "estimate.json?device=all").1)
        // The whole 1024×768 picture as a view at each device's scale: only where it fits on the screen.
        let fitting = Device.all.filter {
            1024 / $0.scale <= $0.screenPoints.width && 768 / $0.scale <= $0.screenPoints.height
        }
        #expect(all.map(\.device) == fitting.map(\.id) && !fitting.isEmpty)
        let (tooLarge, refusal, _) = try await get(a + "estimate.json?device=iphone-4&frame=0,0,1024,768")
        #expect(
            tooLarge == 400 && String(decoding: refusal, as: UTF8.self).contains("does not fit on the iPhone 4"))
        let (svgStatus, svg, svgType) = try await get(a + "estimate.svg?device=ipad-air")
        #expect(
            svgStatus == 200 && svgType == "image/svg+xml" && String(decoding: svg, as: UTF8.self).hasPrefix("<svg"))
        for (query, text) in [
            ("style=bogus", "unknown style 'bogus'"), ("frame=99999,0,10,10", "lies wholly outside"),
            ("scale=-1", "the scale -1.0 is out of range"), ("device=ipad-99", "unknown device 'ipad-99'"),
            ("colour=red", "unknown parameter 'colour'"), ("style=custom", "style custom needs sigma"),
        ] {
            let (status, body, type) = try await get(a + "render.png?" + query)
            let error = try #require(try JSONSerialization.jsonObject(with: body) as? [String: String])["error"]
            #expect(
                status == 400 && type == "application/json" && (error ?? "").contains(text)
                    && !(error ?? "").contains("\n"),
                "\(query): \(status) \(error ?? "")")
        }
    }

    @Test func uploadsReplaceThePictureAndTheVibrantContentAndOversizedOnesAreRefused() async throws {
        let server = try PreviewProcess(["--max-pixels", "300000"])
        defer { server.stop() }
        let a = server.address
        let coffee = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("photos/coffee.png")))
        let (status, body) = try await post(a + "input", coffee)
        #expect(status == 200 && String(decoding: body, as: UTF8.self) == #"{"width":600,"height":400}"#)
        #expect(
            try PNGDecoder().decode([UInt8](try await get(a + "input.png").1)).size
                == PixelSize(width: 600, height: 400))
        let glyphs = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("photos/glyphs-alpha.png")))
        #expect(try await post(a + "vibrancy", glyphs).0 == 200)
        let withContent = try await get(a + "render.png?style=light")
        #expect(withContent.0 == 200)
        // The live view's pixels are the frame's pixels of the whole render, vibrant content and all; averaged down
        // to a display width, they keep the frame's shape.
        for query in ["style=dark&frame=50,60,400,300&at=80,90", "style=light&at=0,0", "style=extraLight&exact=1"] {
            let whole = try PNGDecoder().decode([UInt8](try await get(a + "render.png?" + query).1))
            let (status, rgba, headers) = try await getWithHeaders(a + "render.rgba?" + query)
            let frame = try PixelRect.parsed(headers["Backdrop-Frame"] ?? "", as: "Backdrop-Frame")
            #expect(status == 200 && headers["Backdrop-Size"] == "\(frame.width),\(frame.height)", "\(query)")
            var expected = [UInt8]()
            for y in frame.y..<(frame.y + frame.height) {
                let start = (y * whole.width + frame.x) * 4
                expected += whole.samples[start..<(start + frame.width * 4)]
            }
            #expect([UInt8](rgba) == expected, "\(query): the live view differs from the render")
        }
        let (small, smallBody, smallHeaders) = try await getWithHeaders(
            a + "render.rgba?style=dark&frame=0,0,600,300&display-width=200")
        #expect(small == 200 && smallHeaders["Backdrop-Size"] == "200,100" && smallBody.count == 200 * 100 * 4)
        let wallpaper = try Data(
            contentsOf: URL(fileURLWithPath: Fixtures.path("photos/wallpaper-2048x1536.png")))
        let (big, bigBody) = try await post(a + "input", wallpaper)
        #expect(big == 413 && String(decoding: bigBody, as: UTF8.self).contains("over the limit of 300000 pixels"))
        let (bad, badBody) = try await post(a + "vibrancy", Data("not a png".utf8))
        #expect(bad == 400 && String(decoding: badBody, as: UTF8.self).contains("not a PNG, JPEG, WebP or HEIF file"))
        #expect(try await get(a + "render.png?style=dark").0 == 200)  // still serving
    }

    /// An upload is decoded as `backdrop render` decodes the same file: a JPEG turned by its EXIF orientation and a
    /// HEIC with a Display P3 profile (converted to sRGB) and one turned by `irot` show as `/input.png` the picture
    /// the decoder makes, and `/render.png` has the pixels `backdrop render` writes of the same file and options.
    /// `color-space=keep` is refused in one line: the upload is converted once, when it arrives.
    @Test func jpegAndHEICUploadsRenderAsTheCommandRendersTheSameFile() async throws {
        let directory = try Fixtures.temporaryDirectory()
        try ImageFormatTests.makeFixtures(in: directory)
        let server = try PreviewProcess()
        defer { server.stop() }
        let a = server.address
        for path in [
            directory.appendingPathComponent("turned.jpg").path, Fixtures.path("heif/p3-icc.heic"),
            Fixtures.path("heif/turned.heic"),
        ] {
            let decoded = try ImageDecoder().decodeFile(path)
            let (status, body) = try await post(a + "input", try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(
                status == 200
                    && String(decoding: body, as: UTF8.self)
                        == "{\"width\":\(decoded.width),\"height\":\(decoded.height)}",
                "\(path)")
            #expect(try PNGDecoder().decode([UInt8](try await get(a + "input.png").1)) == decoded, "\(path)")
            for (options, query) in [
                (["--style", "dark"], "style=dark"),
                (["--style", "extraLight", "--frame", "10,20,80,40"], "style=extraLight&frame=10,20,80,40"),
            ] {
                let output = directory.appendingPathComponent("render.png").path
                let command = try runCLI(["render", path, "-o", output] + options)
                #expect(command.status == 0, "\(command.standardError)")
                let (renderStatus, picture, _) = try await get(a + "render.png?" + query)
                #expect(renderStatus == 200, "\(path) \(query)")
                #expect(
                    try PNGDecoder().decode([UInt8](picture)) == PNGDecoder().decodeFile(output), "\(path) \(query)")
            }
        }
        let (kept, keptBody, _) = try await get(a + "render.png?style=dark&color-space=keep")
        #expect(
            kept == 400
                && String(decoding: keptBody, as: UTF8.self).contains("color-space keep needs the picture's own file"),
            "\(String(decoding: keptBody, as: UTF8.self))")
    }

    /// Scene mode: `/scene.png` is what `render --scene` draws, `/scene.json` what `estimate --scene`
    /// prices, and a posted scene is `scene=uploaded`; bad requests are one-line JSON errors.
    @Test func scenesAreDrawnAndPricedAsTheCommandsDoAndAnUploadIsTheUploadedScene() async throws {
        let server = try PreviewProcess()
        defer { server.stop() }
        let a = server.address
        let (pageStatus, page, _) = try await get(a + "scenes")
        #expect(pageStatus == 200 && String(decoding: page, as: UTF8.self).contains("contacts-table-masks"))
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (status, png, type) = try await get(
            a + "scene.png?scene=contacts-table-masks&device=iphone-4s&show=offscreen")
        #expect(status == 200 && type == "image/png")
        let output = directory.appendingPathComponent("cli.png").path
        let cli = try runCLI([
            "render", "--scene", "contacts-table-masks", "--device", "iphone-4s", "--show", "offscreen", "-o", output,
        ])
        try #require(cli.status == 0, "\(cli.standardError)")
        #expect(try PNGDecoder().decode([UInt8](png)) == PNGDecoder().decodeFile(output))
        let records = try JSONDecoder().decode(
            [SceneRecord].self, from: try await get(a + "scene.json?scene=contacts-table-masks&device=all").1)
        #expect(records.map(\.device) == Device.all.map(\.id))
        #expect(records.first { $0.device == "iphone-4s" }?.offscreenPasses == 14)

        for (query, message) in [
            ("scene=nope&device=iphone-5", "unknown scene 'nope'"),
            ("scene=control-center&device=iphone-5&show=overdraw", "unknown show 'overdraw'"),
            ("scene=control-center", "scene needs device ID"),
            ("scene=control-center&device=all", "device=all is for /scene.json"),
            ("scene=uploaded&device=iphone-5", "no scene uploaded yet"),
        ] {
            let (code, body, _) = try await get(a + "scene.png?" + query)
            let error = (try? JSONSerialization.jsonObject(with: body) as? [String: String])?["error"] ?? ""
            #expect(code == 400 && error.contains(message), "\(query): \(code) \(error)")
        }
        let scene =
            #"{ "name": "mine", "screen": [320, 480], "layers": [ { "name": "a", "frame": [0, 0, 320, 480], "content": "solid", "opaque": true } ] }"#
        let (posted, summary) = try await post(a + "scene", Data(scene.utf8))
        #expect(posted == 200, "\(String(decoding: summary, as: UTF8.self))")
        let (uploadedStatus, uploaded, _) = try await get(a + "scene.png?scene=uploaded&device=iphone-3gs")
        #expect(uploadedStatus == 200)
        #expect(try PNGDecoder().decode([UInt8](uploaded)).size == PixelSize(width: 320, height: 480))
        // An imported scene (`backdrop import`, here the Figma example with its custom blur) uploads as any scene.
        let imported = try Data(
            contentsOf: Fixtures.packageRoot.appendingPathComponent("Examples/import/figma-file.scene.json"))
        let (importedStatus, importedSummary) = try await post(a + "scene", imported)
        #expect(importedStatus == 200, "\(String(decoding: importedSummary, as: UTF8.self))")
        let (drawnStatus, drawn, _) = try await get(a + "scene.png?scene=uploaded&device=iphone-5")
        #expect(drawnStatus == 200)
        #expect(try PNGDecoder().decode([UInt8](drawn)).size == PixelSize(width: 640, height: 1136))
        for (body, message) in [
            ("not json", "not valid JSON"),
            (
                #"{ "layers": [ { "frame": [0, 0, 9, 9], "content": "image", "image": "/etc/passwd" } ] }"#,
                "needs a scene file"
            ),
        ] {
            let (code, answer) = try await post(a + "scene", Data(body.utf8))
            #expect(code == 400 && String(decoding: answer, as: UTF8.self).contains(message), "\(body)")
        }
    }

    /// The side-by-side view: one request per device, drawn and priced as that device draws it, each device's
    /// command drawing its picture; devices the view does not fit on named with the reason in points; errors in the
    /// picture's coordinates; `rev` in any query ignored.
    @Test func theSideBySideViewIsOneRequestPerDeviceAndSaysWhyADeviceIsLeftOut() async throws {
        let server = try PreviewProcess()
        defer { server.stop() }
        let a = server.address
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let demoFile = directory.appendingPathComponent("demo-input.png").path
        try PNGEncoder().write(DemoImage.make(), to: demoFile)
        // The 800×300 px frame: 800 pt wide on the iPad 2 (1×), 400 pt on the iPhone 4S (2×, a 320 pt screen).
        let (status, body, _) = try await get(
            a + "compare.json?style=dark&frame=100,300,800,300&devices=ipad-2,iphone-4s,ipad-air&rev=3")
        try #require(status == 200, "\(String(decoding: body, as: UTF8.self))")
        let answer = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        let shown = try #require(answer["shown"] as? [[String: Any]])
        let refused = try #require(answer["refused"] as? [[String: String]])
        #expect(shown.map { $0["device"] as? String } == ["ipad-2", "ipad-air"])
        #expect(
            refused == [
                [
                    "device": "iphone-4s", "deviceName": "iPhone 4S",
                    "reason": "the view is 400 pt wide, the screen 320 pt",
                ]
            ])
        for device in shown {
            let id = try #require(device["device"] as? String), query = try #require(device["query"] as? String)
            #expect(query == "device=\(id)&style=dark&frame=100,300,800,300", "\(id): \(query)")
            // Drawn as `render --device` draws it (Apple's policy: the iPad 2 tint-only) and priced on that path:
            // the same record as /estimate.json asks for with the path and the device's scale given.
            let path = id == "ipad-2" ? "tint-only" : "blur"
            let scale = id == "ipad-2" ? 1 : 2
            let estimate = try JSONSerialization.data(withJSONObject: try #require(device["estimate"]))
            let record = try JSONDecoder().decode(EstimateRecord.self, from: estimate)
            let expected = try JSONDecoder().decode(
                EstimateRecord.self,
                from: try await get(
                    a + "estimate.json?style=dark&frame=100,300,800,300&scale=\(scale)&path=\(path)&device=\(id)"
                ).1)
            #expect(record == expected && record.path == path, "\(id)")
            #expect(device["viewPoints"] as? [Double] == [800 / Double(scale), 300 / Double(scale)])
            // The device's command draws its picture, and its frame picture is that picture's frame.
            let (pngStatus, png, _) = try await get(a + "render.png?" + query)
            #expect(pngStatus == 200)
            let picture = try PNGDecoder().decode([UInt8](png))
            var arguments = Array(try #require(device["command"] as? String).split(separator: " ").map(String.init))
            #expect(arguments.prefix(4) == ["backdrop", "render", "picture", "demo-input.png"])
            arguments[3] = demoFile
            let output = directory.appendingPathComponent("\(id).png").path
            arguments[arguments.firstIndex(of: "-o")! + 1] = output
            let cli = try runCLI(Array(arguments.dropFirst()))
            #expect(cli.status == 0, "\(arguments): \(cli.standardError)")
            #expect(try PNGDecoder().decodeFile(output) == picture, "\(id): the command draws another picture")
            let frame = try PNGDecoder().decode([UInt8](try await get(a + "frame.png?" + query + "&rev=9").1))
            var crop = [UInt8]()
            for y in 300..<600 { crop += picture.samples[((y * 1024 + 100) * 4)..<((y * 1024 + 900) * 4)] }
            #expect(frame.size == PixelSize(width: 800, height: 300) && frame.samples == crop, "\(id)")
        }
        // A scene side by side: each device's record is what /scene.json prices; its picture what /scene.png draws.
        let scenes = try #require(
            try JSONSerialization.jsonObject(
                with: try await get(a + "compare.json?scene=control-center&devices=iphone-4s,ipad-air").1)
                as? [String: Any])
        let sceneShown = try #require(scenes["shown"] as? [[String: Any]])
        #expect(
            sceneShown.map { $0["query"] as? String } == [
                "scene=control-center&device=iphone-4s", "scene=control-center&device=ipad-air",
            ])
        for device in sceneShown {
            let id = try #require(device["device"] as? String)
            let record = try JSONDecoder().decode(
                SceneRecord.self,
                from: try JSONSerialization.data(withJSONObject: try #require(device["sceneEstimate"])))
            let expected = try JSONDecoder().decode(
                SceneRecord.self, from: try await get(a + "scene.json?scene=control-center&device=\(id)").1)
            #expect(record == expected, "\(id)")
        }
        for (query, message) in [
            ("style=dark", "give devices=ID,ID,…, devices=FILTER or devices=all"),
            ("devices=ipad-99", "'ipad-99' is no device id"),
            ("devices=ipad-2&style=bogus", "unknown style 'bogus'"), ("devices=ipad-2&device=ipad-2", "not device"),
            ("devices=all&scene=nope", "unknown scene 'nope'"),
        ] {
            let (code, answer, _) = try await get(a + "compare.json?" + query)
            let error = (try? JSONSerialization.jsonObject(with: answer) as? [String: String])?["error"] ?? ""
            #expect(code == 400 && error.contains(message), "\(query): \(code) \(error)")
        }
        // Vibrant content wholly outside the frame: the error names the frame and the content where the user put
        // them, in the picture's pixels (the live view renders a cut-out of the frame).
        let glyphs = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("photos/glyphs-alpha.png")))
        #expect(try await post(a + "vibrancy", glyphs).0 == 200)
        for route in ["render.rgba", "render.png", "frame.png"] {
            let (code, answer, _) = try await get(a + route + "?frame=75,400,600,300&at=0,0")
            let error = (try? JSONSerialization.jsonObject(with: answer) as? [String: String])?["error"] ?? ""
            #expect(
                code == 400
                    && error
                        == "the vibrant content (480×160 at 0,0) lies wholly outside the frame 75,400,600,300 (x,y,w,h)",
                "\(route): \(error)")
        }
    }

    @Test func twentyRequestsAtOnceAreAnsweredAndTheServerGoesOn() async throws {
        let server = try PreviewProcess()
        defer { server.stop() }
        let a = server.address
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<20 {
                group.addTask { try await get(a + "render.png?style=light&frame=\(index * 10),0,300,200").0 }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count == 20 && statuses.allSatisfy { $0 == 200 })
        #expect(try await get(a + "estimate.json?device=iphone-5s&frame=0,0,640,200").0 == 200)
    }

    @Test func badCommandLinesAreOneLineErrorsAndCtrlCStopsCleanly() throws {
        for (arguments, status, text) in [
            (["--port", "70000"], Int32(2), "--port 70000 is outside 0…65535"),
            (["--host", "localhost."], 2, "--host 'localhost.' is not an IPv4 address"),
            (["/no/such.png"], 1, "/no/such.png"),
            (["--max-pixels", "10"], 1, "over the limit"),
        ] {
            let arguments =
                arguments == ["--max-pixels", "10"]
                ? arguments + [Fixtures.path("photos/coffee.png")] : arguments
            let result = try runCLI(["preview", "--port", "0"] + arguments)
            #expect(
                result.status == status && result.standardError.contains(text)
                    && result.standardError.split(separator: "\n").count == 1,
                "\(arguments): \(result.status) \(result.standardError)")
        }
        // A port in use: the second server says so at once.
        let first = try PreviewProcess()
        let port = first.address.split(separator: ":").last!.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let second = try runCLI(["preview", "--port", port])
        #expect(
            second.status == 1 && second.standardError.contains("address already in use"), "\(second.standardError)")
        #expect(first.stop() == 0)
    }
}
