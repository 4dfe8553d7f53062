import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// `backdrop review DIR --serve`: the review page in headless Chromium over the real server (the slider moves, the
/// filter hides, accept writes the golden and nothing else), and the server's refusals over HTTP.
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

    func startServer(_ results: URL) throws -> PreviewProcess {
        try PreviewProcess(leading: ["review", results.path, "--serve", "--port", "0"])
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

        let server = try startServer(suite.results)
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
        let after = try files(under: suite.directory)
        #expect(after.keys.sorted() == before.keys.sorted())
        #expect(after["golden/b.png"] == expectedGolden)
        #expect(after.filter { $0.key != "golden/b.png" } == before.filter { $0.key != "golden/b.png" })
        #expect(try runCLI(["check", suite.manifest.path]).status == 0)
    }

    @Test func refusalsAreFourHundredsWithOneLineOfJSONAndWriteNothing() throws {
        let suite = try GoldenReviewTests().failingSuite()
        let before = try files(under: suite.directory)
        let server = try startServer(suite.results)
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
        for path in ["/picture?case=1&kind=actual", "/picture?case=0&kind=golden", "/picture?case=x"] {
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

    @Test func aFolderCheckDidNotWriteIsRefusedBeforeTheServerStarts() throws {
        let suite = try GoldenReviewTests().failingSuite()
        for arguments in [[suite.directory.path, "--serve"], [suite.results.path, "--serve", "--accept", "b"]] {
            let result = try runCLI(["review"] + arguments + ["--port", "0"])
            #expect(result.status == 2, "\(arguments): \(result.standardOutput)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(arguments): \(result.standardError)")
        }
    }
}
