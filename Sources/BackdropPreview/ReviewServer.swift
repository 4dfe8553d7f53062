import Backdrop
import Foundation

/// `backdrop review DIR --serve`: a local web server with the review page of a `backdrop check --output` folder
/// (``ReviewRoutes``): each failed case with its figures, the limits it broke and the review views, an accept
/// button per case and one for every case shown. It runs on the preview's server, with the same limits and the
/// same checks of the client's host and origin.
public struct ReviewServer: Sendable {
    /// Where to listen.
    public let host: String
    public let port: UInt16
    /// How long a connection may stay silent before it is closed.
    public let idleSeconds: Double
    let folder: String
    let into: String?
    let manifest: String?
    let cases: [ReviewCase]
    /// The failed budget and cost cases, in the suite's order.
    let costCases: [GoldenSummary.Case]

    /// A server for `folder`, accepting under `into` when given (as `check --update-into`) and beside `manifest`
    /// when given (``GoldenReview/manifest``). Refuses (one line, before it listens) a folder that
    /// `backdrop check --output` did not write, and an install without the page's files.
    public init(
        folder: String, into: String?, manifest: String? = nil, host: String, port: UInt16, idleSeconds: Double = 10
    ) throws(BackdropError) {
        let review = try GoldenReview(folder: folder, manifest: manifest)
        self.folder = folder
        self.into = into
        self.manifest = manifest
        self.host = host
        self.port = port
        self.idleSeconds = idleSeconds
        cases = ReviewCase.failed(in: review)
        costCases = review.summary.cases.filter { $0.status == "failed" && $0.devices != nil }
        _ = try ReviewPage.make(cases: cases, costCases: costCases, into: into)
    }

    /// Serves on the calling thread until Ctrl-C (SIGINT) or SIGTERM; calls `ready` with the address once it
    /// listens. Throws at once when it cannot listen.
    public func serveUntilStopped(ready: (String) -> Void) throws(BackdropError) {
        var limits = HTTPLimits(maxPixels: PNGDecoder.defaultMaxPixels)
        limits.idleSeconds = idleSeconds
        limits.headSeconds = idleSeconds
        try HTTPServer.serveUntilStopped(host: host, port: port, limits: limits, ready: ready) { port in
            ReviewRoutes(
                folder: folder, into: into, manifest: manifest, cases: cases, costCases: costCases,
                origin: RequestOrigin(listenAddress: host, port: port))
        }
    }
}

/// A failed case as the review page shows it: the summary's entry, with its expected picture.
struct ReviewCase: Sendable {
    let entry: GoldenSummary.Case
    let expected: String
    let actual: String

    /// The failed cases of `review` that have both pictures, in the suite's order.
    static func failed(in review: GoldenReview) -> [ReviewCase] {
        review.summary.cases.compactMap { entry in
            guard entry.status == "failed", let actual = entry.actual, let expected = entry.expected else { return nil }
            return ReviewCase(entry: entry, expected: expected, actual: actual)
        }
    }
}
