import Backdrop
import BackdropTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One ``RenderRequest`` behind every front end: the command the preview copies is one `backdrop render` accepts and
/// draws the page's picture with, and a request refused anywhere is refused in the same words everywhere.
@Suite("RenderRequest: the preview's copied command, and one set of refusals")
struct RenderRequestTests {
    /// Requests the preview's pages make, one or more for each mode and option: the picture page's without and with
    /// vibrant content, and the scene page's.
    static let pictureQueries =
        [
            "style=dark&frame=100,50,300,200&scale=2&path=auto", "style=light&exact=1&frame=0,0,200,100&scale=1",
            "style=extraLight&path=tint-only", "style=dark&tint-only=1", "style=light&device=ipad-3&scale=2",
            "style=custom&sigma=12&saturation=1.2&tint=0,0,0&tint-alpha=0.3&fallback-alpha=0.5"
                + "&vibrancy-blend=plusLighter&path=tint-only&device=iphone-4",
            "algorithm=image-effects&style=tint&tint=0.2,0.4,0.9&frame=100,50,300,200",
            "algorithm=image-effects&style=dark&device=iphone-5",
            "algorithm=image-effects&style=custom&sigma=8&saturation=1.5&tint=0.1,0.2,0.3&tint-alpha=0.4&scale=1",
            "style=dark&frame=100,50,300,200&reduce-transparency=1", "style=systemChromeMaterial&reduce-transparency=1",
        ] + clippedQueries
    /// Frames partly outside the picture: clipped, with a note on the page and from the command alike.
    static let clippedQueries = [
        "style=dark&frame=-20,50,300,200", "algorithm=image-effects&style=light&frame=100,-30,300,200",
    ]
    static let contentQueries = [
        "style=dark&frame=50,100,500,200&at=60,120", "style=light",
        "style=systemMaterial&vibrancy-style=tertiaryLabel&increase-contrast=1",
        "style=systemThinMaterialDark&vibrancy-style=secondaryFill&increase-contrast=1&reduce-transparency=1",
        "algorithm=image-effects&style=light&frame=100,50,300,200",
    ]
    static let sceneQueries = [
        "scene=contacts-table-masks&device=iphone-4s&show=offscreen",
        "scene=navbar-tabbar-blur&device=iphone-5&steady=1&show=rasterized&path=tint-only",
        "scene=photos-table-shadows&device=iphone-5&scroll-offset=40",
        "scene=photos-table-shadows&device=iphone-5&scroll-offset=-40",
        "scene=navbar-tabbar-blur&device=iphone-5&reduce-transparency=1",
    ]

    func get(_ url: String) async throws -> (Int, Data) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: url)!)
        return ((response as! HTTPURLResponse).statusCode, data)
    }

    @Test func theCopiedCommandDrawsThePagesPicture() async throws {
        let input = Fixtures.path("photos/coffee.png")
        let glyphs = Fixtures.path("photos/glyphs-alpha.png")
        for path in [input, glyphs] where !FileManager.default.fileExists(atPath: path) {
            throw FixtureMissing(path: path)
        }
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try PreviewProcess([input])
        defer { server.stop() }
        let a = server.address
        func check(_ query: String, picture route: String) async throws {
            let (status, body) = try await get(a + "command.json?" + query)
            let answer = try JSONSerialization.jsonObject(with: body) as? [String: Any]
            let command = try #require(
                answer?["command"] as? String, "\(query): \(status) \(String(decoding: body, as: UTF8.self))")
            let notes = try #require(answer?["notes"] as? [String], "\(query): no notes in \(answer ?? [:])")
            let (pictureStatus, png) = try await get(a + route + "?" + query)
            try #require(pictureStatus == 200, "\(query): \(String(decoding: png, as: UTF8.self))")
            // The page's files stand for the real ones: the input by its name, the content by the uploaded name.
            var arguments = command.split(separator: " ").map(String.init)
            #expect(arguments.prefix(2) == ["backdrop", "render"] && !command.contains("'"), "\(command)")
            arguments = Array(arguments.dropFirst())
            // The mode the request's kind names, then its input or scene.
            let mode =
                query.contains("scene=") ? "scene" : query.contains("image-effects") ? "image-effects" : "picture"
            #expect(arguments[1] == mode && !arguments.contains("--algorithm"), "\(command)")
            if arguments[2] == "coffee.png" { arguments[2] = input }
            if let at = arguments.firstIndex(of: "--vibrancy") {
                #expect(arguments[at + 1] == "glyphs-alpha.png", "\(command)")
                arguments[at + 1] = glyphs
            }
            let output = directory.appendingPathComponent("out.png").path
            let o = try #require(arguments.firstIndex(of: "-o"), "\(command)")
            arguments[o + 1] = output
            let cli = try runCLI(arguments)
            #expect(cli.status == 0, "\(command): \(cli.standardError)")
            // The page shows the notes the command prints, word for word.
            let printed = cli.standardError.split(separator: "\n").map(String.init).filter {
                $0.hasPrefix("backdrop: note: ") || $0.hasPrefix("backdrop: warning: ")
            }.map { String($0.dropFirst("backdrop: ".count)) }
            #expect(notes == printed, "\(command): the page says \(notes), the command \(printed)")
            #expect(
                notes.contains { $0.contains("clipped") } == Self.clippedQueries.contains(query),
                "\(query): \(notes)")
            // The page's PNG is fast-compressed: the pixels are compared.
            #expect(
                try PNGDecoder().decode([UInt8](png)) == PNGDecoder().decodeFile(output),
                "\(command) does not draw \(route)?\(query)")
        }
        for query in Self.pictureQueries { try await check(query, picture: "render.png") }
        for query in Self.sceneQueries { try await check(query, picture: "scene.png") }
        var upload = URLRequest(url: URL(string: a + "vibrancy")!)
        upload.httpMethod = "POST"
        upload.setValue(String(a.dropLast()), forHTTPHeaderField: "Origin")
        upload.setValue("glyphs-alpha.png", forHTTPHeaderField: "Backdrop-Name")
        upload.httpBody = try Data(contentsOf: URL(fileURLWithPath: glyphs))
        let (_, uploaded) = try await URLSession.shared.data(for: upload)
        try #require((uploaded as! HTTPURLResponse).statusCode == 200)
        for query in Self.contentQueries { try await check(query, picture: "render.png") }
    }

    /// The same conflicts, as a command line, a preview query and a manifest case: one message, the option names
    /// spelled as each front end spells them.
    static let refusals: [(arguments: [String], query: String, message: String)] = [
        (
            ["--algorithm", "image-effects", "--exact"], "algorithm=image-effects&exact=1",
            "exact is for the system algorithm, not image-effects"
        ),
        (
            ["--algorithm", "image-effects", "--path", "blur"], "algorithm=image-effects&path=blur",
            "path is for the system algorithm, not image-effects"
        ),
        (["--show", "offscreen"], "show=offscreen", "show, steady and scroll-offset go with scene"),
        (["--tint-only", "--path", "blur"], "tint-only=1&path=blur", "tint-only contradicts path blur"),
        (["--at", "1,2"], "at=1,2", "at goes with vibrancy"),
        (
            ["--algorithm", "image-effects", "--reduce-transparency"], "algorithm=image-effects&reduce-transparency=1",
            "reduce-transparency is for the system algorithm, not image-effects"
        ),
        (
            ["--reduce-transparency", "--path", "blur"], "reduce-transparency=1&path=blur",
            "reduce-transparency draws no blur: it contradicts path blur"
        ),
        (
            ["--increase-contrast"], "increase-contrast=1",
            "increase-contrast goes with vibrancy-style: it raises the level's alpha, and changes nothing else"
        ),
        (
            ["--style", "custom", "--sigma", "3"], "style=custom&sigma=3",
            "style custom needs sigma, saturation, tint and tint-alpha"
        ),
    ]

    @Test(arguments: refusals)
    func aRequestIsRefusedInTheSameWordsEverywhere(
        _ refusal: (arguments: [String], query: String, message: String)
    ) async throws {
        let input = Fixtures.path("photos/coffee.png")
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cli = try runCLI(
            ["render", input, "-o", directory.appendingPathComponent("x.png").path] + refusal.arguments)
        let dashed = refusal.message.replacingOccurrences(
            of:
                #"\b(exact|path|show|steady|scroll-offset|scene|tint-only|at|vibrancy-style|vibrancy|style|sigma|saturation|tint-alpha|tint|reduce-transparency|increase-contrast)\b"#,
            with: "--$1", options: .regularExpression)
        #expect(cli.status == 2 && cli.standardError == "backdrop: error: \(dashed)\n", "\(cli.standardError)")

        let server = try PreviewProcess()
        defer { server.stop() }
        let (status, body) = try await get(server.address + "render.png?" + refusal.query)
        let error = (try? JSONSerialization.jsonObject(with: body) as? [String: String])?["error"]
        #expect(status == 400 && error == refusal.message, "\(refusal.query): \(error ?? "")")

        try FileManager.default.copyItem(atPath: input, toPath: directory.appendingPathComponent("in.png").path)
        var fields = [#""golden": "g.png""#, #""input": "in.png""#]
        if !refusal.query.contains("style=") { fields.append(#""style": "light""#) }
        for pair in refusal.query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            let value = ["1"].contains(parts[1]) ? "true" : Double(parts[1]) != nil ? parts[1] : "\"\(parts[1])\""
            fields.append("\"\(parts[0])\": \(value)")
        }
        let manifest = directory.appendingPathComponent("manifest.json").path
        try Data(#"{ "cases": [ { \#(fields.joined(separator: ", ")) } ] }"#.utf8)
            .write(to: URL(fileURLWithPath: manifest))
        // A conflict refuses the manifest when it is read; a value, the case when it runs.
        let check = try runCLI(["check", manifest])
        #expect(
            check.status != 0
                && (check.standardError.hasSuffix("case 0: \(refusal.message)\n")
                    || check.standardOutput.contains(": \(refusal.message)")),
            "\(fields): \(check.standardError)")
    }
}
