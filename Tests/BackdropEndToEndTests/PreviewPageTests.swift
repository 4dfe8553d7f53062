import Backdrop
import BackdropTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The preview page in headless Chromium, over a real server, in real time: a link's state, dragging, controls, the
/// estimate panel, the copied command line, and the time each update takes to reach the screen.
///
/// With `BACKDROP_PREVIEW_REPORT=DIR` (`scripts/preview-report`) it also writes DIR/preview.md (the measured update
/// times) and DIR/images/preview.png (the screenshot the README shows). Times are recorded, not asserted: this
/// machine is shared and noisy, and the target is checked where the report is read.
@Suite("backdrop preview: the page in a real browser", .serialized)
struct PreviewPageTests {
    static let wallpaper = "photos/wallpaper-2048x1536.png"

    /// Scene mode: a link's scene, device and overlay drawn and priced on every device; a control's change redraws.
    @Test func theScenePageShowsTheSceneAndItsPriceOnEveryDevice() throws {
        let server = try PreviewProcess()
        defer { #expect(server.stop() == 0) }
        let browser = try HeadlessChromium(width: 1400, height: 1000)
        try browser.open(server.address + "scenes?scene=contacts-table-masks&device=iphone-4s&show=offscreen")
        try browser.wait(for: "document.body.dataset.updates >= 1")
        #expect(try browser.evaluate("document.body.dataset.error ?? ''") as? String == "")
        #expect(try browser.evaluate("$('screen').naturalWidth") as? Int == 640)
        #expect(try browser.evaluate("$('all').rows.length") as? Int == Device.all.count + 1)
        #expect(try browser.evaluate("document.querySelector('tr.picked td').textContent") as? String == "iPhone 4S")
        // Each device's frame rate with its 80 % range.
        #expect(
            (try browser.evaluate("document.querySelector('tr.picked td:nth-child(3)').textContent") as? String ?? "")
                .hasSuffix("fps"))
        #expect(
            try browser.evaluate("$('command').value") as? String
                == "backdrop render scene contacts-table-masks --device iphone-4s --show offscreen -o screen.png")
        try browser.evaluate("$('device').value = 'ipad-air'; $('device').dispatchEvent(new Event('change')); 0")
        try browser.wait(for: "document.body.dataset.updates >= 2")
        #expect(try browser.evaluate("$('screen').naturalWidth") as? Int == 2048)
        #expect(
            try browser.evaluate("new URLSearchParams(location.search).get('device')") as? String == "ipad-air")
    }

    @Test func aLinkReproducesThePreviewAndDraggingAndControlsUpdateIt() async throws {
        let input = Fixtures.path(Self.wallpaper)
        guard FileManager.default.fileExists(atPath: input) else { throw FixtureMissing(path: input) }
        let server = try PreviewProcess([input])
        defer { #expect(server.stop() == 0, "Ctrl-C did not stop the preview cleanly") }
        let browser = try HeadlessChromium(width: 1400, height: 1000)
        try browser.open(server.address + "?style=dark&frame=200,700,1600,600&scale=2")
        try browser.wait(for: "document.body.dataset.estimated >= 1")
        #expect(try browser.evaluate("document.body.dataset.error ?? ''") as? String == "")

        // The link's state is the controls' and the picture's.
        #expect(try browser.evaluate("[$('style').value, $('scale').value].join()") as? String == "dark,2")
        // A row for every device on whose screen the 800×300 pt view fits (the others refuse it).
        let rows = try browser.evaluate("$('all').rows.length") as? Int
        let fitting = Device.all.filter { 800 <= $0.screenPoints.width && 300 <= $0.screenPoints.height }
        #expect(rows == fitting.count + 1, "the every-device table has \(rows ?? 0) rows")
        #expect(try browser.evaluate("$('timeline').complete && $('timeline').naturalWidth > 0") as? Bool == true)
        // The predicted ms with its range.
        #expect((try browser.evaluate("$('estimate').textContent") as? String ?? "").contains("80 % range"))

        // Its screenshot shows the effect inside the frame and the picture unchanged outside it: compared with a
        // screenshot of the same page showing the input.
        let screenshot = try browser.screenshot()
        let effect = try PNGDecoder().decode([UInt8](screenshot))
        let box = try #require(
            try browser.evaluate(
                "(r => [r.left, r.top, r.width, r.height].map(Math.round))(frameBox.getBoundingClientRect())")
                as? [Int])
        let picture = try #require(
            try browser.evaluate(
                "(r => [r.left, r.top, r.width, r.height].map(Math.round))(stage.getBoundingClientRect())")
                as? [Int])
        try browser.evaluate("$('view').style.visibility = 'hidden'")
        try browser.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        let plain = try PNGDecoder().decode([UInt8](try browser.screenshot()))
        let inside = PixelRect(x: box[0] + 4, y: box[1] + 4, width: box[2] - 8, height: box[3] - 8)
        let above = PixelRect(x: picture[0], y: picture[1], width: picture[2], height: box[1] - picture[1] - 4)
        #expect(Self.meanDifference(effect, plain, in: inside) > 20, "the frame shows no effect")
        #expect(Self.meanDifference(effect, plain, in: above) < 0.5, "the picture changed outside the frame")

        // Dragging the frame: each step moves it; the page sends one request at a time, the newest state next.
        let before = try #require(try browser.evaluate("previewTimings.length") as? Int)
        let x = Double(box[0] + box[2] / 2), y = Double(box[1] + box[3] / 2)
        try browser.mouse("mousePressed", x: x, y: y)
        let steps = 30
        for step in 1...steps {
            try browser.mouse("mouseMoved", x: x - Double(step * 4), y: y - Double(step * 3))
            usleep(16_000)
        }
        try browser.mouse("mouseReleased", x: x - Double(steps * 4), y: y - Double(steps * 3))
        try browser.wait(for: "!document.body.dataset.busy && previewTimings.length > \(before)")
        let dragged = try #require(try browser.evaluate("new URLSearchParams(location.search).get('frame')") as? String)
        let frame = try PixelRect.parsed(dragged, as: "frame")
        #expect(frame.x < 200 && frame.y < 700 && frame.width == 1600, "the frame after the drag: \(dragged)")
        let dragUpdates = try #require(try browser.evaluate("previewTimings.length") as? Int) - before
        #expect(dragUpdates >= 1 && dragUpdates <= steps, "\(dragUpdates) updates for \(steps) drag steps")

        // Changing controls: each change is one update.
        for (control, value) in [
            ("style", "light"), ("style", "extraLight"), ("exact", ""), ("device", "iphone-4"), ("style", "dark"),
            ("scale", "1"), ("path", "tint-only"), ("path", "blur"), ("style", "custom"), ("sigma", "12"),
        ] {
            let count = try #require(try browser.evaluate("previewTimings.length") as? Int)
            let set =
                control == "exact"
                ? "$('exact').checked = !$('exact').checked" : "$('\(control)').value = '\(value)'"
            try browser.evaluate("\(set); $('\(control)').dispatchEvent(new Event('change')); 0")
            try browser.wait(for: "!document.body.dataset.busy && previewTimings.length > \(count)")
        }
        #expect(try browser.evaluate("document.body.dataset.error ?? ''") as? String == "")
        #expect((try browser.evaluate("$('error').textContent") as? String) == "")

        // Vibrant content: chosen in the page's file input, then dragged; the URL gets its corner (`at`).
        let glyphs = Fixtures.path("photos/glyphs-alpha.png")
        let controlsEnd = try #require(try browser.evaluate("previewTimings.length") as? Int)
        let fileInput = try browser.call(
            "Runtime.evaluate", ["expression": "document.getElementById('vibrancy')", "returnByValue": false])
        let objectID = try #require((fileInput["result"] as? [String: Any])?["objectId"] as? String)
        try browser.call("DOM.setFileInputFiles", ["files": [glyphs], "objectId": objectID])
        let uploaded = "contentBox.style.display === 'block' && !document.body.dataset.busy"
        try browser.wait(for: uploaded + " && previewTimings.length > \(controlsEnd)")
        let content = try #require(
            try browser.evaluate(
                "(r => [r.left, r.top, r.width, r.height].map(Math.round))(contentBox.getBoundingClientRect())")
                as? [Int])
        let afterUpload = try #require(try browser.evaluate("previewTimings.length") as? Int)
        let cx = Double(content[0] + content[2] / 2), cy = Double(content[1] + content[3] / 2)
        try browser.mouse("mousePressed", x: cx, y: cy)
        for step in 1...5 { try browser.mouse("mouseMoved", x: cx + Double(step * 6), y: cy + Double(step * 2)) }
        try browser.mouse("mouseReleased", x: cx + 30, y: cy + 10)
        try browser.wait(for: "!document.body.dataset.busy && previewTimings.length > \(afterUpload)")
        let at = try browser.evaluate("new URLSearchParams(location.search).get('at')") as? String
        #expect(at != nil && at != "", "no vibrant content corner in the URL after the drag")
        #expect((try browser.evaluate("$('command').value") as? String ?? "").contains("--vibrancy glyphs-alpha.png"))
        #expect((try browser.evaluate("$('error').textContent") as? String) == "")

        // The copied command line draws what the page shows (the download link's picture).
        let command = try #require(try browser.evaluate("$('command').value") as? String)
        let href = try #require(try browser.evaluate("$('download').href") as? String)
        var arguments = Array(command.split(separator: " ").map(String.init).dropFirst())
        let directory = try Fixtures.temporaryDirectory()
        let output = directory.appendingPathComponent("out.png").path
        #expect(arguments.prefix(3) == ["render", "picture", "wallpaper-2048x1536.png"], "\(command)")
        arguments[2] = input
        arguments[arguments.firstIndex(of: "-o")! + 1] = output
        if let vibrancy = arguments.firstIndex(of: "--vibrancy") { arguments[vibrancy + 1] = glyphs }
        let rendered = try runCLI(arguments)
        #expect(rendered.status == 0, "\(command): \(rendered.standardError)")
        let (fromPage, _) = try await URLSession.shared.data(from: URL(string: href)!)
        #expect(try PNGDecoder().decode([UInt8](fromPage)) == (try PNGDecoder().decodeFile(output)), "\(command)")

        let timings = try #require(try browser.evaluate("previewTimings") as? [Double])
        #expect(!timings.isEmpty && timings.allSatisfy { $0 > 0 })
        if let report = ProcessInfo.processInfo.environment["BACKDROP_PREVIEW_REPORT"] {
            let drag = Array(timings[before..<(before + dragUpdates)]),
                controls = Array(timings[(before + dragUpdates)..<controlsEnd])
            try Self.writeReport(
                to: URL(fileURLWithPath: report), screenshot: screenshot, drag: drag, dragSteps: steps,
                controls: controls)
        }
    }

    /// DIR/preview.md and DIR/images/preview.png.
    static func writeReport(to folder: URL, screenshot: Data, drag: [Double], dragSteps: Int, controls: [Double]) throws
    {
        let images = folder.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try screenshot.write(to: images.appendingPathComponent("preview.png"), options: .atomic)
        func row(_ name: String, _ times: [Double]) -> String {
            let sorted = times.sorted()
            func at(_ q: Double) -> String {
                String(format: "%.0f", sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * q).rounded()))])
            }
            return "| \(name) | \(times.count) | \(at(0.5)) | \(at(0.9)) | \(at(1)) |"
        }
        let version = (try? runProcess(try HeadlessChromium.executable(), ["--version"]).output) ?? ""
        let chromium = version.split(separator: "\n").first { $0.hasPrefix("Chromium") }.map(String.init) ?? "Chromium"
        let date = ISO8601DateFormatter().string(from: Date()).prefix(16).replacingOccurrences(of: "T", with: " ")
        let text = """
            # The preview page: time from a change to its picture on screen

            Written by `scripts/preview-report`, which runs `PreviewPageTests` (Tests/BackdropEndToEndTests) with \
            `BACKDROP_PREVIEW_REPORT=Reports`; do not edit. Run at \(date) UTC on \
            \(ProcessInfo.processInfo.activeProcessorCount) cores: \(chromium), headless, and a release build of \
            `backdrop preview` on the same machine.

            The picture is `wallpaper-2048x1536.png` at scale 2 (style dark, then the controls below), shown in a \
            1400×1000 window. An update's time runs from the first change it answers (a pointer move, a control's \
            change event) to the animation frame in which its picture is on screen: the request, the render of the \
            frame, its pixels averaged down to the size the page shows them at, the transfer, and drawing them. Dragging sends \(dragSteps) pointer moves 16 ms \
            apart; the page keeps one request in flight and asks for the newest state next, so moves made meanwhile \
            are answered by one update (and their time includes the wait). The target is 100 ms.

            | updates | count | median ms | 90th percentile ms | slowest ms |
            |---|---|---|---|---|
            \(row("dragging the frame", drag))
            \(row("changing a control", controls))

            ![The preview page](images/preview.png)

            """
        try Data(text.utf8).write(to: folder.appendingPathComponent("preview.md"), options: .atomic)
    }
    /// Mean absolute difference of the RGB samples of two same-sized pictures over `rect`.
    static func meanDifference(_ a: RGBAImage<UInt8>, _ b: RGBAImage<UInt8>, in rect: PixelRect) -> Double {
        var sum = 0, count = 0
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) {
                let index = (y * a.width + x) * 4
                for channel in 0..<3 { sum += abs(Int(a.samples[index + channel]) - Int(b.samples[index + channel])) }
                count += 3
            }
        }
        return Double(sum) / Double(max(count, 1))
    }
}
