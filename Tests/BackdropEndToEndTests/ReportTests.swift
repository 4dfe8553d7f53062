import Backdrop
import BackdropTestSupport
import Foundation
import Testing

@Suite("backdrop report")
struct ReportTests {
    /// The report of the built-in picture, generated fresh by the CLI into a temporary folder.
    static func generate() throws -> (folder: URL, output: String) {
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("report")
        let result = try runCLI(["report", "--output", folder.path])
        #expect(result.status == 0, "\(result.standardError)")
        return (folder, result.standardOutput)
    }

    static func files(in folder: URL) throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        return (enumerator?.allObjects as? [String] ?? []).filter {
            !$0.hasSuffix("/") && $0.contains(".") && $0 != "images"
        }.sorted()
    }

    @Test func theCommittedReportsFolderIsCurrent() throws {
        let (folder, output) = try Self.generate()
        #expect(output.contains("wrote the report to"))
        let generated = try Self.files(in: folder)
        #expect(generated.contains("index.html") && generated.contains("README.md") && generated.count > 20)
        let committed = Fixtures.packageRoot.appendingPathComponent("Reports")
        var stale: [String] = []
        for file in generated {
            let fresh = FileManager.default.contents(atPath: folder.appendingPathComponent(file).path)
            let kept = FileManager.default.contents(atPath: committed.appendingPathComponent(file).path)
            if fresh != kept { stale.append(file) }
        }
        #expect(stale.isEmpty, "Reports/ is stale (run scripts/report): \(stale.joined(separator: ", "))")
    }

    @Test func theReportIsTheSameOnEveryRun() throws {
        let first = try Self.generate().folder, second = try Self.generate().folder
        for file in try Self.files(in: first) {
            #expect(
                FileManager.default.contents(atPath: first.appendingPathComponent(file).path)
                    == FileManager.default.contents(atPath: second.appendingPathComponent(file).path), "\(file)")
        }
    }

    /// Opens index.html in headless Chromium: the page reports every picture loaded, and its screenshot is not
    /// blank. The screenshot is kept at .build/report-screenshot.png for a person to look at.
    @Test func theReportRendersInARealBrowserWithEveryPictureLoaded() throws {
        let (folder, _) = try Self.generate()
        let page = "file://" + folder.appendingPathComponent("index.html").path
        let chromium = try HeadlessChromium.executable()
        let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--virtual-time-budget=10000"]
        let dom = try run(chromium, flags + ["--dump-dom", page])
        let body = try #require(
            dom.range(of: "<body[^>]*>", options: .regularExpression).map { String(dom[$0]) },
            "no <body> in the page Chromium rendered")
        #expect(body.contains("data-loaded=\"yes\""), "\(body)")
        #expect(body.contains("data-broken=\"\""), "pictures that did not load: \(body)")
        let images =
            Int(body.split(separator: "\"").drop { !$0.hasSuffix("data-images=") }.dropFirst().first ?? "") ?? 0
        #expect(images >= 2 + Device.all.count + 1 + 3 * Device.all.count, "\(images) pictures on the page")
        // Readable in a 1400 px window: nothing wider than the window, the scenes table wraps.
        let narrow = try run(chromium, flags + ["--window-size=1400,1000", "--dump-dom", page])
        let width = narrow.range(of: #"data-width="\d+""#, options: .regularExpression).flatMap {
            Int(narrow[$0].dropFirst("data-width=\"".count).dropLast())
        }
        #expect((width ?? .max) <= 1400, "the page is \(width ?? -1) px wide in a 1400 px window")
        let screenshot = Fixtures.packageRoot.appendingPathComponent(".build/report-screenshot.png").path
        try? FileManager.default.removeItem(atPath: screenshot)
        _ = try run(chromium, flags + ["--window-size=1200,2400", "--screenshot=\(screenshot)", page])
        let picture = try PNGDecoder().decodeFile(screenshot)
        var colors = Set<UInt32>(), nonWhite = 0
        for index in stride(from: 0, to: picture.samples.count, by: 4) {
            let s = picture.samples
            colors.insert(UInt32(s[index]) << 16 | UInt32(s[index + 1]) << 8 | UInt32(s[index + 2]))
            if s[index] < 240 || s[index + 1] < 240 || s[index + 2] < 240 { nonWhite += 1 }
        }
        #expect(colors.count > 200, "the screenshot has only \(colors.count) colors")
        #expect(nonWhite > picture.width * picture.height / 20, "the screenshot is nearly blank")
    }

    func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
