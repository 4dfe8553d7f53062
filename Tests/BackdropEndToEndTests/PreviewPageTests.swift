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
        #expect(try browser.evaluate("$('all-refused').textContent") as? String == "")

        // Side by side: a checkbox a device; each device's screen as it draws the scene, with its price and command.
        for (step, id) in ["iphone-4s", "ipad-2"].enumerated() {
            try browser.evaluate(
                "$('compare-\(id)').checked = true; $('compare-\(id)').dispatchEvent(new Event('change')); 0")
            try browser.wait(
                for:
                    "document.body.dataset.updates >= \(step + 3) && document.querySelectorAll('figure.device').length === \(step + 1)"
            )
        }
        #expect(
            try browser.evaluate("new URLSearchParams(location.search).get('compare')") as? String == "iphone-4s,ipad-2"
        )
        let tiles = try #require(
            try browser.evaluate(
                """
                [...document.querySelectorAll('figure.device')].map(f => [f.dataset.device, f.querySelector('.command').value,
                  String(f.querySelector('img').naturalWidth), f.querySelector('figcaption').textContent])
                """) as? [[String]])
        // In the grouped device table's order (iPhones, then iPads), whatever the order they were ticked in.
        #expect(tiles.map { $0[0] } == ["iphone-4s", "ipad-2"])
        for tile in tiles {
            let device = try Device.lookup(tile[0])
            #expect(
                tile[1]
                    == "backdrop render scene contacts-table-masks --device \(device.id) --show offscreen -o screen.png"
            )
            #expect(Int(tile[2]) == device.screen.width, "\(tile)")
            #expect(
                tile[3].hasPrefix("\(device.name) · \(Int(device.scale))× · screen")
                    && tile[3].contains("fps (80 % range"), "\(tile[3])")
        }

        // Reduce Transparency over a scene with effect views: in the URL and the command; every device's price falls
        // (no blur passes), and each side-by-side tile's command carries it.
        try browser.evaluate(
            "$('scene').value = 'navbar-tabbar-blur'; $('scene').dispatchEvent(new Event('change')); 0")
        try browser.wait(for: "document.body.dataset.updates >= 5")
        let frameMs = "[...$('all').rows].slice(1).map(r => +r.cells[5].textContent)"
        let blurred = try #require(try browser.evaluate(frameMs) as? [Double])
        try browser.evaluate(
            "$('reduce-transparency').checked = true; $('reduce-transparency').dispatchEvent(new Event('change')); 0")
        try browser.wait(for: "document.body.dataset.updates >= 6")
        #expect(
            try browser.evaluate("new URLSearchParams(location.search).get('reduce-transparency')") as? String == "1")
        #expect(
            try browser.evaluate("$('command').value") as? String
                == "backdrop render scene navbar-tabbar-blur --device ipad-air --show offscreen --reduce-transparency -o screen.png"
        )
        let reduced = try #require(try browser.evaluate(frameMs) as? [Double])
        #expect(reduced.count == blurred.count && zip(reduced, blurred).allSatisfy { $0 <= $1 } && reduced != blurred)
        #expect(
            try browser.evaluate(
                "[...document.querySelectorAll('figure.device .command')].every(c => c.value.includes('--reduce-transparency'))"
            )
                as? Bool == true)
        #expect(try browser.evaluate("document.body.dataset.error ?? ''") as? String == "")

        // An uploaded scene with an iOS 13 material and Liquid Glass, blurred (Reduce Transparency off again): every
        // device's row and each side-by-side tile say beside the price that it is a what-if, and that glass is an
        // approximation.
        try browser.evaluate(
            "$('reduce-transparency').checked = false; $('reduce-transparency').dispatchEvent(new Event('change')); 0")
        try browser.wait(for: "document.body.dataset.updates >= 7")
        let scene = try Fixtures.temporaryDirectory().appendingPathComponent("styles.json")
        try Data(
            #"""
            {"name": "styles", "layers": [
              {"name": "bar", "frame": [0, 0, 320, 64], "effect": {"blur": "systemMaterial"}},
              {"name": "pill", "frame": [20, 100, 200, 60], "effect": {"blur": "glass"}}]}
            """#.utf8
        ).write(to: scene)
        let element = try browser.call(
            "Runtime.evaluate", ["expression": "document.getElementById('upload')", "returnByValue": false])
        let objectID = try #require((element["result"] as? [String: Any])?["objectId"] as? String)
        try browser.call("DOM.setFileInputFiles", ["files": [scene.path], "objectId": objectID])
        try browser.wait(for: "document.body.dataset.updates >= 8")
        #expect(try browser.evaluate("document.body.dataset.error ?? ''") as? String == "")
        let notes = try #require(
            try browser.evaluate("[...$('all').rows].slice(1).map(r => r.cells[6].textContent)") as? [String])
        #expect(notes.count == Device.all.count)
        for (device, note) in zip(Device.all, notes) {
            // A what-if exactly where the device's last iOS is older than the style's.
            let last = Int(device.lastIOS.prefix { $0.isNumber })!
            #expect(
                note.contains("a what-if: the \(device.name) never ran iOS 13") == (last < 13), "\(device.id): \(note)")
            #expect(
                note.contains("a what-if: the \(device.name) never ran iOS 26") == (last < 26), "\(device.id): \(note)")
            #expect(note.contains("Liquid Glass is an approximation"), "\(device.id): \(note)")
        }
        let captions = try #require(
            try browser.evaluate(
                "[...document.querySelectorAll('figure.device figcaption')].map(f => f.textContent)") as? [String])
        #expect(captions.count == 2)
        for caption in captions {
            #expect(caption.contains("never ran iOS 26") && caption.contains("approximation"), "\(caption)")
        }
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

        // A link whose frame reaches past the picture: drawn clipped, with the note its command prints under it.
        try browser.open(server.address + "?style=dark&frame=-200,700,1600,600&scale=2")
        try browser.wait(for: "document.body.dataset.estimated >= 1 && !document.body.dataset.busy")
        let notes = try browser.evaluate("$('notes').textContent") as? String ?? ""
        #expect(notes.hasPrefix("note: the frame -200,700,1600,600") && notes.contains("clipped to"), "\(notes)")
        #expect((try browser.evaluate("$('error').textContent") as? String) == "")
    }

    /// What the page shows now, checked against its URL: every picture's URL (the live view's download, the
    /// timeline, each side-by-side picture) carries the URL's state and the uploads' revision, and the estimate's
    /// text agrees with its timeline's title (device, ms, path, vibrant content). "" when all agree, else the
    /// disagreements.
    static let agreement = """
        (async () => {
          const pageKeys = ['compare', 'enlarge'], problems = [];
          const api = [...new URLSearchParams(location.search)].filter(([k]) => !pageKeys.includes(k));
          const carries = (url, skip) => {
            const u = new URL(url, location.href).searchParams;
            return api.every(([k, v]) => skip.includes(k) || u.get(k) === v) && u.get('rev') === String(revision);
          };
          if (!carries($('download').href, [])) { problems.push('download ' + $('download').href); }
          if (state.algorithm === 'image-effects' || !$('timeline').getAttribute('src')) {
            if ($('timeline').getAttribute('src') || / ms \\(/.test($('estimate').textContent)) {
              problems.push('a figure or timeline without an estimate');
            }
          } else {
            if (!carries($('timeline').src, ['device'])) { problems.push('timeline ' + $('timeline').src); }
            const svg = await (await fetch($('timeline').src)).text();
            const title = svg.match(/font-weight="bold">([^<]*)</)[1], text = $('estimate').textContent;
            const ms = text.match(/: ([0-9.]+) ms/)[1], e = await (await fetch(
              $('timeline').src.replace('/estimate.svg', '/estimate.json'))).json();
            if (!title.startsWith(e.deviceName) || !text.startsWith(e.deviceName) || !title.includes(' · ' + ms + ' ms')
                || !title.includes(' · ' + e.path + ' · ') || !text.includes(e.path)
                || title.includes('vibrancy') !== (content !== null)
                || text.includes('vibrant content') !== (content !== null)) {
              problems.push('"' + text + '" beside "' + title + '"');
            }
          }
          const tiles = [...document.querySelectorAll('figure.device')];
          if (tiles.map(t => t.dataset.device).join() !== state.compare) { problems.push('tiles ' + tiles.length); }
          for (const t of tiles) {
            const src = t.querySelector('img').src, u = new URL(src).searchParams;
            if (!carries(src, ['scale', 'path', 'device']) || u.get('device') !== t.dataset.device
                || !t.querySelector('img').complete) { problems.push('tile ' + src); }
          }
          return problems.join('; ');
        })()
        """

    /// Nothing stale: each control changed in turn (and vibrant content uploaded and removed), and after each
    /// every picture and figure shows the new state (``agreement``); the timeline's URL changes with every change
    /// the estimate depends on, uploads included.
    @Test func everyControlUpdatesEveryPictureAndFigure() async throws {
        let input = Fixtures.path(Self.wallpaper)
        guard FileManager.default.fileExists(atPath: input) else { throw FixtureMissing(path: input) }
        let server = try PreviewProcess([input])
        defer { #expect(server.stop() == 0) }
        let browser = try HeadlessChromium(width: 1400, height: 1000)
        try browser.open(server.address + "?style=dark&frame=200,700,600,300&compare=ipad-2,ipad-air")
        try browser.wait(for: "document.body.dataset.estimated >= 1 && document.body.dataset.compared >= 1")
        #expect(try browser.evaluate(Self.agreement) as? String == "")
        let counts = "[+document.body.dataset.estimated, +document.body.dataset.compared]"
        func settle(_ change: String) throws {
            let before = try #require(try browser.evaluate(counts) as? [Int])
            try browser.evaluate(change + "; 0")
            try browser.wait(
                for: "!document.body.dataset.busy && document.body.dataset.estimated > \(before[0])"
                    + " && document.body.dataset.compared > \(before[1])")
        }
        func upload(_ path: String, into input: String) throws {
            let element = try browser.call(
                "Runtime.evaluate", ["expression": "document.getElementById('\(input)')", "returnByValue": false])
            let objectID = try #require((element["result"] as? [String: Any])?["objectId"] as? String)
            try browser.call("DOM.setFileInputFiles", ["files": [path], "objectId": objectID])
        }
        let glyphs = Fixtures.path("photos/glyphs-alpha.png")
        let steps: [(name: String, change: String, priced: Bool)] = [
            ("style", "$('style').value = 'light'; $('style').dispatchEvent(new Event('change'))", true),
            ("device", "$('device').value = 'iphone-4s'; $('device').dispatchEvent(new Event('change'))", true),
            ("scale", "$('scale').value = '3'; $('scale').dispatchEvent(new Event('change'))", true),
            ("path", "$('path').value = 'tint-only'; $('path').dispatchEvent(new Event('change'))", true),
            ("path", "$('path').value = 'blur'; $('path').dispatchEvent(new Event('change'))", true),
            ("exact", "$('exact').checked = true; $('exact').dispatchEvent(new Event('change'))", true),
            ("style", "$('style').value = 'custom'; $('style').dispatchEvent(new Event('change'))", true),
            ("sigma", "$('sigma').value = '12'; $('sigma').dispatchEvent(new Event('change'))", true),
            ("saturation", "$('saturation').value = '1.2'; $('saturation').dispatchEvent(new Event('change'))", true),
            ("tint", "$('tint').value = '0,0,0'; $('tint').dispatchEvent(new Event('change'))", true),
            ("tint-alpha", "$('tint-alpha').value = '0.5'; $('tint-alpha').dispatchEvent(new Event('change'))", true),
            ("style", "$('style').value = 'dark'; $('style').dispatchEvent(new Event('change'))", true),
            (
                "compare",
                "$('compare-iphone-4').checked = true; $('compare-iphone-4').dispatchEvent(new Event('change'))",
                false
            ),
            ("enlarge", "$('enlarge').checked = true; $('enlarge').dispatchEvent(new Event('change'))", false),
            (
                "algorithm",
                "$('algorithm').value = 'image-effects'; $('algorithm').dispatchEvent(new Event('change'))",
                false
            ),
            ("algorithm", "$('algorithm').value = 'system'; $('algorithm').dispatchEvent(new Event('change'))", true),
            ("path", "$('path').value = 'auto'; $('path').dispatchEvent(new Event('change'))", true),
            ("exact", "$('exact').checked = false; $('exact').dispatchEvent(new Event('change'))", true),
            (
                "reduce-transparency",
                "$('reduce-transparency').checked = true; $('reduce-transparency').dispatchEvent(new Event('change'))",
                true
            ),
        ]
        for step in steps {
            let before = try browser.evaluate("$('timeline').src") as? String
            try settle(step.change)
            #expect(try browser.evaluate(Self.agreement) as? String == "", "after \(step.name)")
            if step.priced {
                #expect(try browser.evaluate("$('timeline').src") as? String != before, "after \(step.name)")
            }
        }
        #expect(try browser.evaluate("document.querySelectorAll('figure.device').length") as? Int == 3)
        // Reduce Transparency ticked: in the URL, priced on the tint-only path, and the copied command draws the page's
        // picture byte for byte.
        #expect(
            try browser.evaluate("new URLSearchParams(location.search).get('reduce-transparency')") as? String == "1")
        #expect(try browser.evaluate("$('estimate').textContent.includes('tint-only')") as? Bool == true)
        try expectTheCopiedCommandDrawsThePicture(browser, input: input, mentioning: "--reduce-transparency")
        // Vibrant content uploaded, then removed: the timeline's URL and title change both times (the issue's stale
        // "dark · blur" timeline beside a vibrant figure).
        for (name, change) in [
            ("upload", "contentBox.style.display === 'block'"), ("removal", "contentBox.style.display === 'none'"),
        ] {
            let before = try #require(try browser.evaluate("[$('timeline').src, " + counts + "]") as? [Any])
            let settled = try #require(before[1] as? [Int])
            if name == "upload" {
                try upload(glyphs, into: "vibrancy")
            } else {
                try browser.evaluate("$('unvibrant').click(); 0")
            }
            try browser.wait(
                for: "\(change) && !document.body.dataset.busy && document.body.dataset.estimated > \(settled[0])"
                    + " && document.body.dataset.compared > \(settled[1])")
            try browser.wait(for: "$('timeline').src !== '\(before[0] as? String ?? "")' && $('timeline').complete")
            #expect(try browser.evaluate(Self.agreement) as? String == "", "after the \(name)")
        }
        // Increase Contrast over a material's vibrancy level, with the same content chosen again after its removal:
        // in the URL and the command.
        let uploaded = try #require(try browser.evaluate(counts) as? [Int])
        try upload(glyphs, into: "vibrancy")
        try browser.wait(
            for: "contentBox.style.display === 'block' && !document.body.dataset.busy"
                + " && document.body.dataset.estimated > \(uploaded[0]) && document.body.dataset.compared > \(uploaded[1])"
        )
        for (name, change) in [
            ("style", "$('style').value = 'systemMaterial'; $('style').dispatchEvent(new Event('change'))"),
            (
                "vibrancy-style",
                "$('vibrancy-style').value = 'secondaryLabel'; $('vibrancy-style').dispatchEvent(new Event('change'))"
            ),
            (
                "increase-contrast",
                "$('increase-contrast').checked = true; $('increase-contrast').dispatchEvent(new Event('change'))"
            ),
        ] {
            let before = try browser.evaluate("$('download').href") as? String
            try settle(change)
            let problems = try browser.evaluate(Self.agreement) as? String
            #expect(problems == "", "after \(name): \(problems ?? "")")
            #expect(try browser.evaluate("$('download').href") as? String != before, "after \(name)")
            #expect(try browser.evaluate("$('error').textContent") as? String == "", "after \(name)")
        }
        #expect(
            try browser.evaluate("new URLSearchParams(location.search).get('increase-contrast')") as? String == "1")
        try expectTheCopiedCommandDrawsThePicture(
            browser, input: input, content: glyphs, mentioning: "--increase-contrast")
        #expect(try browser.evaluate("document.body.dataset.error ?? ''") as? String == "")
        #expect(try browser.evaluate("$('error').textContent") as? String == "")
    }

    /// The page's copied command (which must mention `option`), run with the real files, draws the page's download
    /// picture pixel for pixel.
    func expectTheCopiedCommandDrawsThePicture(
        _ browser: HeadlessChromium, input: String, content: String? = nil, mentioning option: String
    ) throws {
        let command = try #require(try browser.evaluate("$('command').value") as? String)
        #expect(command.contains(option), "\(command)")
        var arguments = Array(command.split(separator: " ").map(String.init).dropFirst())
        try #require(arguments.count > 3 && arguments.contains("-o"), "\(command)")
        arguments[2] = input
        if let content, let at = arguments.firstIndex(of: "--vibrancy") { arguments[at + 1] = content }
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("copied.png").path
        arguments[try #require(arguments.firstIndex(of: "-o")) + 1] = output
        let rendered = try runCLI(arguments)
        #expect(rendered.status == 0, "\(command): \(rendered.standardError)")
        let href = try #require(try browser.evaluate("$('download').href") as? String)
        let page = try Data(contentsOf: URL(string: href)!)
        #expect(try PNGDecoder().decode([UInt8](page)) == (try PNGDecoder().decodeFile(output)), "\(command)")
    }

    /// Side by side: the same frame on several devices, each at its scale, on its path, with its price; a device
    /// the view does not fit on listed with the reason, here and on the every-device listing; each device's copied
    /// command draws that device's picture (its download link's), byte for byte.
    @Test func theSideBySideViewShowsEachDeviceAsItDrawsItAndItsCommandDrawsIt() async throws {
        let input = Fixtures.path(Self.wallpaper)
        guard FileManager.default.fileExists(atPath: input) else { throw FixtureMissing(path: input) }
        let server = try PreviewProcess([input])
        defer { #expect(server.stop() == 0) }
        let browser = try HeadlessChromium(width: 1400, height: 1000)
        try browser.open(server.address + "?style=dark&frame=200,700,800,300&compare=ipad-2,iphone-4s")
        try browser.wait(for: "document.body.dataset.estimated >= 1 && document.body.dataset.compared >= 1")
        // The iPad 2 (1×) shows an 800 pt view, tint-only as Apple shipped it; the iPhone 4S (2×) refuses 400 pt.
        #expect(
            try browser.evaluate("[...document.querySelectorAll('figure.device')].map(f => f.dataset.device).join()")
                as? String == "ipad-2")
        let caption =
            try browser.evaluate("document.querySelector('figure.device figcaption').textContent") as? String ?? ""
        #expect(
            caption.contains("iPad 2 · 1× · screen 1024×768 pt · view 800×300 pt") && caption.contains("tint-only"),
            "\(caption)")
        #expect(
            try browser.evaluate("$('compare-refused').textContent") as? String
                == "Not shown: iPhone 4S: the view is 400 pt wide, the screen 320 pt")
        // The every-device listing (scale 1 here) names each device it leaves out, and why.
        let refused = try browser.evaluate("$('all-refused').textContent") as? String ?? ""
        let rows = try browser.evaluate("$('all').rows.length") as? Int ?? 0
        let left = Device.all.filter { 800 > $0.screenPoints.width }
        #expect(rows == Device.all.count - left.count + 1)
        for device in left {
            #expect(
                refused.contains(
                    "\(device.name): the view is 800 pt wide, the screen \(Int(device.screenPoints.width)) pt"),
                "\(refused)")
        }
        // Every device checkbox drives the view; a smaller frame fits the iPhones.
        let before = try #require(try browser.evaluate("+document.body.dataset.compared") as? Int)
        try browser.evaluate("state.frame = '200,700,600,300'; changed(); 0")
        try browser.wait(for: "!document.body.dataset.busy && document.body.dataset.compared > \(before)")
        let settled = try #require(
            try browser.evaluate(
                "[+document.body.dataset.estimated, +document.body.dataset.compared]") as? [Int])
        try browser.evaluate(
            "$('compare-ipad-air').checked = true; $('compare-ipad-air').dispatchEvent(new Event('change')); 0")
        try browser.wait(
            for: "!document.body.dataset.busy && document.body.dataset.estimated > \(settled[0])"
                + " && document.body.dataset.compared > \(settled[1])")
        #expect(try browser.evaluate(Self.agreement) as? String == "")
        #expect(try browser.evaluate("$('compare-refused').textContent") as? String == "")
        let tiles = try #require(
            try browser.evaluate(
                """
                [...document.querySelectorAll('figure.device')].map(f => [f.dataset.device,
                  f.querySelector('.command').value, f.querySelector('a.download').href,
                  f.querySelector('figcaption').textContent, String(f.querySelector('img').naturalWidth)])
                """) as? [[String]])
        #expect(tiles.map { $0[0] } == ["iphone-4s", "ipad-2", "ipad-air"])
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for tile in tiles {
            let device = try Device.lookup(tile[0])
            #expect(tile[3].contains("\(device.name) · \(Int(device.scale))× · screen"), "\(tile[3])")
            #expect(tile[3].contains(device.iOS7Blur == .tintOnly ? "tint-only" : "blur"), "\(tile[3])")
            // Never wider than the frame's pixels, and drawn to the one scale of points the tiles share.
            #expect((Int(tile[4]) ?? 0) > 0 && (Int(tile[4]) ?? 0) <= 600, "\(tile)")
            var arguments = Array(tile[1].split(separator: " ").map(String.init).dropFirst())
            #expect(
                arguments.prefix(3) == ["render", "picture", "wallpaper-2048x1536.png"]
                    && arguments.contains("--device"), "\(tile[1])")
            arguments[2] = input
            let output = directory.appendingPathComponent("\(device.id).png").path
            arguments[arguments.firstIndex(of: "-o")! + 1] = output
            let rendered = try runCLI(arguments)
            #expect(rendered.status == 0, "\(tile[1]): \(rendered.standardError)")
            let (fromPage, _) = try await URLSession.shared.data(from: URL(string: tile[2])!)
            #expect(try PNGDecoder().decode([UInt8](fromPage)) == (try PNGDecoder().decodeFile(output)), "\(tile[1])")
        }
        #expect(try browser.evaluate("document.body.dataset.error ?? ''") as? String == "")
        if let report = ProcessInfo.processInfo.environment["BACKDROP_PREVIEW_REPORT"] {
            try browser.evaluate(
                "$('compare-devices').previousElementSibling.scrollIntoView();"
                    + " new Promise(r => requestAnimationFrame(r))")
            let images = URL(fileURLWithPath: report).appendingPathComponent("images")
            try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
            try browser.screenshot().write(
                to: images.appendingPathComponent("preview-side-by-side.png"), options: .atomic)
        }
    }

    /// A tall portrait picture in a 1280×800 window: shown whole (never past 1:1), the frame's resize corner inside
    /// the window and dragging it resizes the frame; a small picture stays at 1:1 until enlarging is asked for; the
    /// timeline spans the picture's column.
    @Test func aTallPictureFitsTheWindowWithItsCornerReachableAndNothingIsUpscaled() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let portrait = directory.appendingPathComponent("portrait.png").path
        var samples = [UInt8](repeating: 255, count: 900 * 2400 * 4)
        for y in 0..<2400 {
            for x in 0..<900 {
                let index = (y * 900 + x) * 4
                samples[index] = UInt8(y * 255 / 2399)
                samples[index + 1] = UInt8(x * 255 / 899)
                samples[index + 2] = UInt8((x + y) % 256)
            }
        }
        try PNGEncoder().write(RGBAImage(width: 900, height: 2400, samples: samples), to: portrait)
        let server = try PreviewProcess([portrait])
        defer { #expect(server.stop() == 0) }
        let browser = try HeadlessChromium(width: 1280, height: 800)
        try browser.open(server.address)
        try browser.wait(for: "document.body.dataset.estimated >= 1")
        let stage = try #require(
            try browser.evaluate("(r => [r.left, r.top, r.width, r.height])(stage.getBoundingClientRect())")
                as? [Double])
        #expect(stage[2] <= 900 && stage[1] + stage[3] <= 800, "the picture at \(stage)")
        let corner = try #require(
            try browser.evaluate(
                "(r => [r.left, r.top, r.width, r.height])(frameBox.firstElementChild.getBoundingClientRect())")
                as? [Double])
        #expect(
            corner[0] >= 0 && corner[1] >= 0 && corner[0] + corner[2] <= 1280 && corner[1] + corner[3] <= 800,
            "the corner at \(corner)")
        let frame = try #require(try browser.evaluate("state.frame") as? String)
        let x = corner[0] + corner[2] / 2, y = corner[1] + corner[3] / 2
        try browser.mouse("mousePressed", x: x, y: y)
        for step in 1...5 { try browser.mouse("mouseMoved", x: x - Double(step * 8), y: y - Double(step * 4)) }
        try browser.mouse("mouseReleased", x: x - 40, y: y - 20)
        try browser.wait(for: "state.frame !== '\(frame)'")
        let resized = try PixelRect.parsed(try #require(try browser.evaluate("state.frame") as? String), as: "frame")
        let original = try PixelRect.parsed(frame, as: "frame")
        #expect(resized.x == original.x && resized.width < original.width && resized.height < original.height)
        // The timeline spans the column the picture is in.
        try browser.wait(for: "$('timeline').complete && $('timeline').naturalWidth > 0")
        let widths = try #require(try browser.evaluate("[$('timeline').clientWidth, $('main').clientWidth]") as? [Int])
        #expect(widths[0] == widths[1] && widths[0] >= 700, "\(widths)")

        // A 600×400 picture in a wider column: 1:1, then enlarged when asked.
        let coffee = Fixtures.path("photos/coffee.png")
        let element = try browser.call(
            "Runtime.evaluate", ["expression": "document.getElementById('upload')", "returnByValue": false])
        let objectID = try #require((element["result"] as? [String: Any])?["objectId"] as? String)
        try browser.call("DOM.setFileInputFiles", ["files": [coffee], "objectId": objectID])
        try browser.wait(for: "picture && picture[0] === 600 && !document.body.dataset.busy")
        #expect(try browser.evaluate("stage.clientWidth") as? Int == 600)
        try browser.evaluate("$('enlarge').checked = true; $('enlarge').dispatchEvent(new Event('change')); 0")
        try browser.wait(for: "stage.clientWidth > 600")
        #expect(try browser.evaluate("new URLSearchParams(location.search).get('enlarge')") as? String == "1")
        #expect(try browser.evaluate("document.body.dataset.error ?? ''") as? String == "")
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
