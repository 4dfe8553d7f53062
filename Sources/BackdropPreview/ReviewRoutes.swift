import Backdrop
import Foundation

/// The review server's HTTP API (``ReviewServer``):
///
/// - `GET /` the page (``ReviewPage``), with the cases accepted so far (``GoldenReview/accepted(into:)`` on the folder
///   read again: none when it or its manifest cannot be read); `GET /review.js`, `GET /review.css` the review views `check --output` writes
///   beside `index.html`; `GET /picture?case=I&kind=expected|actual|diff` the failed case I's picture from the
///   folder (only the pictures the summary names, only inside the folder);
/// - `GET /state.json` `{"token": …}`, the token a script sends to accept (``RequestOrigin``);
/// - `POST /accept` with a JSON body `{"names": ["NAME", …]}` or `{"all": true}`: ``GoldenReview/accept(_:into:)``
///   or ``GoldenReview/acceptAll(into:)`` on the folder read again, answered `{"written": [PATH, …]}`. A folder
///   `check` did not write (any more), a case that did not fail or does not exist, a manifest changed since the
///   check: 400 and nothing written. Accepts run one at a time.
///
/// Every refusal is `{"error": "…"}`: 400 for a bad query or body, 404 and 405 for an unknown route or method, 413
/// for an accept body over ``acceptBodyBytes``; the limits of ``HTTPLimits`` and the checks of ``RequestOrigin``
/// (the preview's: a POST needs the page's Origin or the token) come first.
struct ReviewRoutes: HTTPHandler {
    let folder: String
    let into: String?
    /// The manifest named on the command line (``GoldenReview/manifest``).
    let manifest: String?
    let cases: [ReviewCase]
    let costCases: [GoldenSummary.Case]
    let origin: RequestOrigin
    /// One accept at a time: two would race on the same golden.
    let accepting = NSLock()

    /// The largest accept body: a list of names.
    static let acceptBodyBytes = 1 << 20

    /// The methods each path answers.
    static let routes: [String: Set<String>] = [
        "/": ["GET", "HEAD"], "/review.js": ["GET", "HEAD"], "/review.css": ["GET", "HEAD"],
        "/picture": ["GET", "HEAD"], "/state.json": ["GET", "HEAD"], "/accept": ["POST"],
    ]

    func admit(_ head: HTTPRequest, bodyLength: Int) throws(HTTPRefusal) {
        try origin.admit(head, bodyLength: bodyLength, routes: Self.routes)
        if bodyLength > Self.acceptBodyBytes {
            throw HTTPRefusal(413, "an accept body is at most \(Self.acceptBodyBytes) bytes")
        }
    }

    var bodyPrefixLength: Int { 0 }

    func checkBody(_ head: HTTPRequest, prefix: ArraySlice<UInt8>) throws(HTTPRefusal) {}

    func respond(to request: HTTPRequest, clientHasGone: @escaping () -> Bool) -> HTTPResponse {
        do throws(BackdropError) {
            return try answer(request)
        } catch {
            return .error(400, error.message)
        }
    }

    private func answer(_ request: HTTPRequest) throws(BackdropError) -> HTTPResponse {
        switch request.path {
        case "/":
            let accepted = (try? GoldenReview(folder: folder, manifest: manifest).accepted(into: into)) ?? []
            let page = try ReviewPage.make(cases: cases, costCases: costCases, into: into, accepted: accepted)
            return HTTPResponse(contentType: "text/html; charset=utf-8", body: Array(page.utf8))
        case "/review.js":
            return HTTPResponse(
                contentType: "text/javascript; charset=utf-8", body: Array(GoldenReviewPage.script.utf8))
        case "/review.css":
            return HTTPResponse(contentType: "text/css; charset=utf-8", body: Array(GoldenReviewPage.styleSheet.utf8))
        case "/picture":
            return HTTPResponse(contentType: "image/png", body: try picture(request.query))
        case "/state.json":
            return HTTPResponse(contentType: "application/json", body: Array("{\"token\":\"\(origin.token)\"}".utf8))
        default:  // "/accept": admit lets no other path through
            let names = try Self.names(request.body)
            accepting.lock()
            defer { accepting.unlock() }
            let review = try GoldenReview(folder: folder, manifest: manifest)
            let written =
                if let names { try review.accept(names, into: into) } else { try review.acceptAll(into: into) }
            let body =
                (try? JSONSerialization.data(withJSONObject: ["written": written], options: [.withoutEscapingSlashes]))
                ?? Data()
            return HTTPResponse(contentType: "application/json", body: [UInt8](body))
        }
    }

    /// The names an accept body asks for, nil for `{"all": true}`.
    static func names(_ body: [UInt8]) throws(BackdropError) -> [String]? {
        let object = try? JSONSerialization.jsonObject(with: Data(body))
        guard let fields = object as? [String: Any], fields.count == 1 else {
            throw BackdropError(.badOption, #"the body must be {"names": ["NAME", …]} or {"all": true}"#)
        }
        if fields["all"] as? Bool == true { return nil }
        guard let names = fields["names"] as? [String], !names.isEmpty else {
            throw BackdropError(.badOption, #"the body must be {"names": ["NAME", …]} or {"all": true}"#)
        }
        return names
    }

    /// The bytes of the picture `case=I&kind=K` names, read from inside the folder.
    private func picture(_ query: [String: String]) throws(BackdropError) -> [UInt8] {
        guard let text = query["case"], let index = Int(text), cases.indices.contains(index) else {
            throw BackdropError(.badOption, "give case=I with I a failed case's index, 0…\(cases.count - 1)")
        }
        let failure = cases[index]
        let path: String?
        switch query["kind"] {
        case "expected": path = failure.expected
        case "actual": path = failure.actual
        case "diff": path = failure.entry.diff
        default: throw BackdropError(.badOption, "give kind=expected, actual or diff")
        }
        guard let path else { throw BackdropError(.badOption, "case \(index) has no \(query["kind"] ?? "") picture") }
        guard !path.hasPrefix("/"), !path.split(separator: "/").contains(".."),
            FileLocation.lies(folder + "/" + path, inside: folder)
        else {
            throw BackdropError(.badOption, "\(folder)/summary.json: picture path '\(path)' leaves its folder")
        }
        return try InputFile.bytes(
            of: folder + "/" + path, limit: HTTPLimits.largestBody, what: "the picture", recorded: false)
    }
}
