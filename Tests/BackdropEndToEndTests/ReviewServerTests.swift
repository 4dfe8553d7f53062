import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// `backdrop review DIR --serve`: the review page in headless Chromium over the real server (the slider moves, the
/// filter hides, accept and accept-all write the goldens and nothing else, over them or under `--into`, and the cases
/// accepted stay shown as accepted after a reload), and the server's refusals over HTTP and on the page.
@Suite("backdrop review --serve: the review page and its server", .serialized)
struct ReviewServerTests {
    /// Every file under `folder` (relative path → bytes).
    func files(under folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            var isFolder: ObjCBool = false
            let url = folder.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                result[path] = try Data(contentsOf: url)
            }
        }
        return result
    }

    /// `backdrop review RESULTS --serve`, accepting beside `manifest` (the suites here live outside the working
    /// directory) and under `into` when given.
    func startServer(_ results: URL, manifest: String, into: URL? = nil) throws -> PreviewProcess {
        try PreviewProcess(
            leading: ["review", results.path, "--serve", "--port", "0", "--manifest", manifest]
                + (into.map { ["--into", $0.path] } ?? []))
    }

    /// The names of the cases the page shows as accepted, in its order.
    func acceptedOnThePage(_ browser: HeadlessChromium) throws -> [String] {
        try browser.evaluate(
            "[...document.querySelectorAll('section.case[data-accepted=\"yes\"]')].map(s => s.dataset.name)")
            as? [String] ?? []
    }

    /// The page's line above the filter: how many cases still fail and how many are accepted.
    func summaryLine(_ browser: HeadlessChromium) throws -> String {
        try browser.evaluate("$('summary').textContent") as? String ?? ""
    }

    /// Sets the filter to `text` as typing would.
    func filter(_ browser: HeadlessChromium, _ text: String) throws {
        try browser.evaluate("$('filter').value = '\(text)'; $('filter').dispatchEvent(new Event('input')); 0")
    }

    /// The answer to `method path` with `body` and the extra header lines `headers`.
    func request(
        _ server: PreviewProcess, _ method: String, _ path: String, body: String = "", headers: [String] = []
    ) throws -> (status: Int, body: String) {
        let client = try #require(RawHTTPClient(port: server.port))
        let head =
            ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(server.port)", "Connection: close"] + headers
            + (method == "POST" ? ["Content-Type: application/json", "Content-Length: \(body.utf8.count)"] : [])
        client.send(head.joined(separator: "\r\n") + "\r\n\r\n" + body)
        let response = try #require(client.readResponse(), "no answer to \(method) \(path)")
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    @Test func theSliderMovesAndAcceptWritesTheGoldenAndNothingElse() throws {
        let suite = try GoldenReviewTests().failingSuite()
        // What `check --update failed --update-into` writes for the failed case, elsewhere.
        let byCheck = try Fixtures.temporaryDirectory()
        #expect(
            try runCLI(["check", suite.manifest.path, "--update", "failed", "--update-into", byCheck.path]).status == 0)
        let expectedGolden = try Data(contentsOf: byCheck.appendingPathComponent("golden/b.png"))
        let before = try files(under: suite.directory)
        #expect(before["golden/b.png"] != expectedGolden)

        let server = try startServer(suite.results, manifest: suite.manifest.path)
        defer { #expect(server.stop() == 0, "Ctrl-C did not stop the review server cleanly") }
        let browser = try HeadlessChromium(width: 1200, height: 900)
        try browser.open(server.address)
        try browser.wait(for: "document.querySelector('.viewer[data-mode]') !== null")
        try browser.wait(for: "[...document.images].every(i => i.complete && i.naturalWidth === 64)")
        #expect(try browser.evaluate("document.body.dataset.error ?? ''") as? String == "")
        #expect(try browser.evaluate("document.querySelectorAll('section.case').length") as? Int == 1)
        #expect(try browser.evaluate("document.querySelector('.case h2').textContent") as? String == "b")
        #expect(
            try browser.evaluate("document.querySelector('.case .limits').textContent") as? String
                == "failed: identical")
        #expect(
            (try browser.evaluate("document.querySelector('.case .figures').textContent") as? String ?? "")
                .hasPrefix("PSNR"))

        // The swipe view, then the slider dragged with the mouse from a tenth to four fifths of its width.
        try browser.evaluate("document.querySelectorAll('.viewer .modes button')[1].click(); 0")
        #expect(try browser.evaluate("document.querySelector('.viewer').dataset.mode") as? String == "swipe")
        let rect = try #require(
            try browser.evaluate(
                "(r => [r.left, r.top, r.width, r.height])(document.querySelector('.viewer .slider').getBoundingClientRect())"
            ) as? [Double])
        let y = rect[1] + rect[3] / 2
        try browser.mouse("mousePressed", x: rect[0] + rect[2] * 0.1, y: y)
        let pressed = try browser.evaluate("Number(document.querySelector('.viewer').dataset.swipe)") as? Double
        for step in 1...8 {
            try browser.mouse("mouseMoved", x: rect[0] + rect[2] * (0.1 + 0.7 * Double(step) / 8), y: y)
        }
        try browser.mouse("mouseReleased", x: rect[0] + rect[2] * 0.8, y: y)
        let swiped = try browser.evaluate("Number(document.querySelector('.viewer').dataset.swipe)") as? Double
        #expect(pressed.map { $0 < 0.2 } == true, "after the press the swipe is at \(pressed ?? -1)")
        #expect(swiped.map { $0 > 0.7 && $0 < 0.9 } == true, "after the drag the swipe is at \(swiped ?? -1)")
        let clip = try browser.evaluate("document.querySelector('.viewer .top').style.clipPath") as? String ?? ""
        #expect(clip.hasPrefix("inset(0px 0px 0px 7") || clip.hasPrefix("inset(0px 0px 0px 8"), "\(clip)")

        // The filter hides a case whose name it does not hold.
        try browser.evaluate("$('filter').value = 'zz'; $('filter').dispatchEvent(new Event('input')); 0")
        #expect(try browser.evaluate("document.querySelector('section.case').hidden") as? Bool == true)
        try browser.evaluate("$('filter').value = 'B'; $('filter').dispatchEvent(new Event('input')); 0")
        #expect(try browser.evaluate("document.querySelector('section.case').hidden") as? Bool == false)
        #expect(try files(under: suite.directory) == before, "the page wrote before accept was pressed")

        // Accept: the golden `check --update-into` writes, at the golden's path; every other file as it was.
        try browser.evaluate("document.querySelector('.case button.accept').click(); 0")
        try browser.wait(for: "document.querySelector('section.case').dataset.accepted === 'yes'")
        let status = try browser.evaluate("document.querySelector('.case .status').textContent") as? String ?? ""
        #expect(status.hasPrefix("written: ") && status.hasSuffix("golden/b.png"), "\(status)")
        #expect(try summaryLine(browser).hasPrefix("1 failed case: 0 still failing, 1 accepted"))
        let after = try files(under: suite.directory)
        #expect(after.keys.sorted() == before.keys.sorted())
        #expect(after["golden/b.png"] == expectedGolden)
        #expect(after.filter { $0.key != "golden/b.png" } == before.filter { $0.key != "golden/b.png" })

        // Reloaded, the page still shows the case as accepted, with its button disabled; nothing more is written.
        try browser.open(server.address)
        try browser.wait(for: "document.querySelectorAll('section.case').length === 1")
        #expect(try acceptedOnThePage(browser) == ["b"])
        #expect(try browser.evaluate("document.querySelector('.case button.accept').disabled") as? Bool == true)
        #expect(try summaryLine(browser).hasPrefix("1 failed case: 0 still failing, 1 accepted"))
        #expect(try files(under: suite.directory) == after)
        #expect(try runCLI(["check", suite.manifest.path]).status == 0)
    }

    /// Served with `--into OUT`, three failed cases, the filter showing two: accept-all writes exactly those two under
    /// OUT, with the bytes `check --update failed --update-into` writes, and nothing else; a refusal is shown on the
    /// page and writes nothing; after a reload the two are shown accepted and accept-all takes only the third.
    @Test func acceptAllWritesTheCasesShownUnderIntoAndTheyStayAcceptedAfterAReload() throws {
        let names = ["sky-light", "sky-dark", "sea-dark"]
        let suite = try GoldenReviewTests().failingSuite(failing: names)
        let byCheck = try Fixtures.temporaryDirectory()
        #expect(
            try runCLI(["check", suite.manifest.path, "--update", "failed", "--update-into", byCheck.path]).status == 0)
        let byCheckFiles = try files(under: byCheck)
        #expect(byCheckFiles.keys.sorted() == ["golden/sea-dark.png", "golden/sky-dark.png", "golden/sky-light.png"])
        let out = try Fixtures.temporaryDirectory().appendingPathComponent("accepted")
        let before = try files(under: suite.directory)

        let server = try startServer(suite.results, manifest: suite.manifest.path, into: out)
        defer { #expect(server.stop() == 0, "Ctrl-C did not stop the review server cleanly") }
        let browser = try HeadlessChromium(width: 1200, height: 900)
        try browser.open(server.address)
        try browser.wait(for: "document.querySelectorAll('.viewer[data-mode]').length === 3")
        #expect(try browser.evaluate("document.body.dataset.error ?? ''") as? String == "")
        #expect(
            try summaryLine(browser)
                == "3 failed cases: 3 still failing, 0 accepted; accepted goldens go under \(out.path)")
        try filter(browser, "SKY")
        #expect(
            try browser.evaluate("[...document.querySelectorAll('section.case')].filter(s => !s.hidden).length")
                as? Int == 2)

        // A folder that no longer holds check's summary.json: the server's error beside the button, nothing written.
        let summary = suite.results.appendingPathComponent("summary.json")
        let moved = suite.directory.appendingPathComponent("moved.json")
        try FileManager.default.moveItem(at: summary, to: moved)
        try browser.evaluate("$('accept-all').click(); 0")
        try browser.wait(for: "$('all-status').classList.contains('error')")
        let refusal = try browser.evaluate("$('all-status').textContent") as? String ?? ""
        #expect(refusal.contains("no summary.json") && !refusal.contains("\n"), "\(refusal)")
        #expect(try acceptedOnThePage(browser) == [])
        #expect(!FileManager.default.fileExists(atPath: out.path))
        try FileManager.default.moveItem(at: moved, to: summary)

        // Accept-all: the two cases shown, under OUT only, with check's bytes.
        try browser.evaluate("$('accept-all').click(); 0")
        try browser.wait(for: "document.querySelectorAll('section.case[data-accepted=\"yes\"]').length === 2")
        let written = try browser.evaluate("$('all-status').textContent") as? String ?? ""
        #expect(written.hasPrefix("written: ") && !written.contains("sea-dark"), "\(written)")
        #expect(try acceptedOnThePage(browser) == ["sky-light", "sky-dark"])
        #expect(try files(under: out) == byCheckFiles.filter { $0.key.contains("sky-") })
        #expect(try files(under: suite.directory) == before)
        #expect(try summaryLine(browser).hasPrefix("3 failed cases: 1 still failing, 2 accepted"))

        // Reloaded: the two still accepted (the filter is empty again); accept-all now takes only the third.
        try browser.open(server.address)
        try browser.wait(for: "document.querySelectorAll('.viewer[data-mode]').length === 3")
        #expect(try acceptedOnThePage(browser) == ["sky-light", "sky-dark"])
        #expect(try summaryLine(browser).hasPrefix("3 failed cases: 1 still failing, 2 accepted"))
        #expect(
            try browser.evaluate("[...document.querySelectorAll('button.accept')].map(b => b.disabled)") as? [Bool]
                == [true, true, false])
        try browser.evaluate("$('accept-all').click(); 0")
        try browser.wait(for: "document.querySelectorAll('section.case[data-accepted=\"yes\"]').length === 3")
        let third = try browser.evaluate("$('all-status').textContent") as? String ?? ""
        #expect(
            third.hasPrefix("written: ") && third.hasSuffix("golden/sea-dark.png") && !third.contains(","), "\(third)")
        #expect(try files(under: out) == byCheckFiles)
        #expect(try files(under: suite.directory) == before)
        try browser.evaluate("$('accept-all').click(); 0")
        #expect(try browser.evaluate("$('all-status').textContent") as? String == "no case shown is left to accept")
    }

    @Test func refusalsAreFourHundredsWithOneLineOfJSONAndWriteNothing() throws {
        let suite = try GoldenReviewTests().failingSuite()
        let before = try files(under: suite.directory)
        let server = try startServer(suite.results, manifest: suite.manifest.path)
        defer { #expect(server.stop() == 0) }
        let state = try request(server, "GET", "/state.json")
        let token = try #require(
            ((try? JSONSerialization.jsonObject(with: Data(state.body.utf8))) as? [String: String])?["token"])
        let withToken = ["Backdrop-Token: \(token)"]
        for (headers, body, status, text) in [
            ([String](), #"{"names": ["b"]}"#, 403, "Backdrop-Token"),
            (["Origin: http://example.com"], #"{"names": ["b"]}"#, 403, "Origin"),
            (withToken, #"{"names": ["a"]}"#, 400, "did not fail (passed)"),
            (withToken, #"{"names": ["nobody"]}"#, 400, "no case named 'nobody'"),
            (withToken, #"{"names": ["b", "nobody"]}"#, 400, "no case named 'nobody'"),
            (withToken, #"{"names": []}"#, 400, "the body must be"),
            (withToken, "not json", 400, "the body must be"),
        ] {
            let answer = try request(server, "POST", "/accept", body: body, headers: headers)
            #expect(answer.status == status && RawHTTPClient.error(Array(answer.body.utf8)).contains(text), "\(answer)")
            #expect(!answer.body.contains("\n"), "\(answer.body)")
        }
        // A name given twice is refused rather than one of its values taken silently (issue 70, item 6).
        for path in [
            "/picture?case=1&kind=actual", "/picture?case=0&kind=golden", "/picture?case=x",
            "/picture?case=0&kind=actual&kind=expected",
        ] {
            let answer = try request(server, "GET", path)
            #expect(answer.status == 400 && !RawHTTPClient.error(Array(answer.body.utf8)).isEmpty, "\(path): \(answer)")
        }
        #expect(try request(server, "GET", "/picture?case=0&kind=actual").status == 200)
        #expect(try request(server, "GET", "/nowhere").status == 404)
        #expect(try request(server, "GET", "/accept").status == 405)
        #expect(try files(under: suite.directory) == before)

        // A folder that is no longer one check wrote: refused, nothing written.
        let summary = suite.results.appendingPathComponent("summary.json")
        try FileManager.default.moveItem(at: summary, to: suite.directory.appendingPathComponent("moved.json"))
        let gone = try request(server, "POST", "/accept", body: #"{"all": true}"#, headers: withToken)
        #expect(gone.status == 400 && RawHTTPClient.error(Array(gone.body.utf8)).contains("no summary.json"), "\(gone)")
        try FileManager.default.moveItem(at: suite.directory.appendingPathComponent("moved.json"), to: summary)
        #expect(try files(under: suite.directory) == before)

        // With the token, a failed case is accepted.
        let accepted = try request(server, "POST", "/accept", body: #"{"all": true}"#, headers: withToken)
        let written = (try? JSONSerialization.jsonObject(with: Data(accepted.body.utf8))) as? [String: [String]]
        #expect(accepted.status == 200 && written?["written"]?.count == 1, "\(accepted)")
        #expect(written?["written"]?.first?.hasSuffix("golden/b.png") == true, "\(accepted)")
        #expect(try files(under: suite.directory)["golden/b.png"] != before["golden/b.png"])
    }

    /// Budget and cost cases on the page (issue 65 item 3): a line per device; a moved cost golden accepted from the
    /// page writes what `check --update failed` would, and a case that only missed its budget has no button.
    @Test func costCasesShowTheirDevicesAndAMovedCostGoldenIsAcceptedFromThePage() throws {
        let budgets = BudgetTests()
        let directory = try budgets.suite(
            #"{ "cases": [ { "name": "feed", "scene": "feed.json", "devices": ["iphone-5", "ipad-air"], "costGolden": "g/feed.cost.json" },"#
                + #"{ "name": "masks", "scene": "contacts-table-masks", "budget": { "fps": 60, "devices": ["ipad-air"] } } ] }"#
        )
        let manifest = directory.appendingPathComponent("m.json").path
        #expect(try runCLI(["check", manifest, "--update", "missing"]).status == 1)
        try Data(BudgetTests.feed(shadowPath: false).utf8).write(to: directory.appendingPathComponent("feed.json"))
        let results = directory.appendingPathComponent("out")
        #expect(try runCLI(["check", manifest, "--output", results.path]).status == 1)
        let proposed = try CostGolden.read(results.path + "/001-feed/actual.cost.json")

        let server = try startServer(results, manifest: manifest)
        defer { #expect(server.stop() == 0, "Ctrl-C did not stop the review server cleanly") }
        let browser = try HeadlessChromium(width: 1200, height: 900)
        try browser.open(server.address)
        try browser.wait(for: "document.querySelectorAll('section.case.cost').length === 2")
        #expect(try browser.evaluate("document.body.dataset.error ?? ''") as? String == "")
        let lines = try #require(
            try browser.evaluate(
                "[...document.querySelectorAll('section.cost')].map(s => [s.dataset.name, s.querySelectorAll('li').length, s.querySelector('button.accept') !== null])"
            ) as? [[Any]])
        #expect(lines.map { $0[0] as? String } == ["feed", "masks"])
        #expect(lines.map { $0[1] as? Int } == [2, 1])
        #expect(lines.map { $0[2] as? Bool } == [true, false])
        #expect(
            try browser.evaluate("document.querySelector('section.cost li.failed').textContent") as? String
                ?? "" != "")
        try browser.evaluate("document.querySelector('section.cost button.accept').click(); 0")
        try browser.wait(for: "document.querySelector('section.cost').dataset.accepted === 'yes'")
        #expect(try CostGolden.read(directory.path + "/g/feed.cost.json") == proposed)
    }

    @Test func aFolderCheckDidNotWriteIsRefusedBeforeTheServerStarts() throws {
        let suite = try GoldenReviewTests().failingSuite()
        // A folder whose summary.json check did not write.
        let other = try Fixtures.temporaryDirectory()
        try Data("{}".utf8).write(to: other.appendingPathComponent("summary.json"))
        for arguments in [
            [suite.directory.path, "--serve"], [suite.results.path, "--serve", "--accept", "b"],
            [other.path, "--serve"],
        ] {
            let result = try runCLI(["review"] + arguments + ["--port", "0"])
            #expect(result.status == 2, "\(arguments): \(result.standardOutput)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(arguments): \(result.standardError)")
        }
    }
}
