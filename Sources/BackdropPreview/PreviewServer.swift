import Backdrop
import FlyingFox
import FlyingSocks
import Foundation

/// `backdrop preview`: a local web server with the preview page and the HTTP API it uses (and scripts can too).
///
/// - `GET /` the page; `GET /input.png` the picture being previewed; `GET /state.json` its size and name, and
///   the vibrant content's size;
/// - `GET /render.png?…` the effect over it, with the CLI's option names (``PreviewRequest``); `GET /render.rgba?…`
///   only the frame's pixels (``FrameView``: the page's live view, nothing to encode or decode), straight 8-bit
///   RGBA rows with no header, averaged down to `display-width` when given; the frame as `x,y,w,h` in the
///   `Backdrop-Frame` header and the size sent as `w,h` in `Backdrop-Size`;
/// - `GET /estimate.json?…&device=ID|all` what `backdrop estimate --format json` prints for a view of the frame's
///   size in points; `GET /estimate.svg?…&device=ID` its frame timeline;
/// - `POST /input`, `POST /vibrancy` a PNG body: the picture, or the vibrant content (drawn at `at=x,y`, default the
///   frame's corner); `DELETE /vibrancy` removes the content.
///
/// A bad query or body is a 400 with `{"error": "…"}` naming the problem; an upload over the pixel limit is refused
/// before its pixels are decoded. The server keeps serving.
actor PreviewState {
    var input: RGBAImage<UInt8>
    var inputPNG: [UInt8]
    /// The input's file name, for the command line the page copies (nil: the demo picture, `backdrop demo`'s).
    var inputName: String?
    var vibrancy: RGBAImage<UInt8>?

    init(input: RGBAImage<UInt8>, name: String?) throws(BackdropError) {
        self.input = input
        inputPNG = try PNGEncoder(compression: .fast).encode(input)
        inputName = name
    }

    func setInput(_ image: RGBAImage<UInt8>) throws(BackdropError) {
        input = image
        inputPNG = try PNGEncoder(compression: .fast).encode(image)
        inputName = nil
    }

    /// What the page needs to know of the state, as JSON: sizes and the input's name.
    func summary() -> Data {
        var summary: [String: Any] = [
            "width": input.width, "height": input.height, "inputName": inputName ?? "demo-input.png",
        ]
        if let vibrancy { summary["vibrancy"] = ["width": vibrancy.width, "height": vibrancy.height] }
        return (try? JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys])) ?? Data("{}".utf8)
    }

    func setVibrancy(_ image: RGBAImage<UInt8>?) { vibrancy = image }
    func snapshot() -> (RGBAImage<UInt8>, [UInt8], RGBAImage<UInt8>?) { (input, inputPNG, vibrancy) }
}

public struct PreviewServer: Sendable {
    /// Where to listen.
    public let host: String
    public let port: UInt16
    /// Uploads with more pixels than this are refused before decoding.
    public let maxPixels: Int
    let state: PreviewState

    /// A server previewing `input`, read from the file `inputName` (default: the built-in demo picture).
    public init(
        input: RGBAImage<UInt8>?, inputName: String? = nil, host: String, port: UInt16, maxPixels: Int
    ) throws(BackdropError) {
        self.host = host
        self.port = port
        self.maxPixels = maxPixels
        state = try PreviewState(input: input ?? DemoImage.make(), name: input == nil ? nil : inputName)
    }

    /// Runs until the task is cancelled; calls `ready` with the address once it listens. Throws the server's
    /// error at once when it cannot listen (an address in use, a host that is not an IPv4 address).
    public func run(ready: @escaping @Sendable (String) -> Void) async throws {
        var parsed = in_addr()
        guard inet_pton(AF_INET, host, &parsed) == 1 else {
            throw BackdropError(.badOption, "--host '\(host)' is not an IPv4 address, e.g. 127.0.0.1 or 0.0.0.0")
        }
        let server = HTTPServer(
            config: HTTPServer.Configuration(
                address: try sockaddr_in.inet(ip4: host, port: port),
                pool: NoDelaySocketPool(base: HTTPServer.defaultPool()), logger: .disabled))
        await addRoutes(to: server)
        do {
            try await serve(server, ready: ready)
        } catch SocketError.failed(_, _, let message) {
            throw BackdropError(.output, "cannot listen on \(host):\(port): \(message.lowercased())")
        }
    }

    /// ``run(ready:)`` on the calling thread until Ctrl-C (SIGINT) or SIGTERM; throws the server's error if it stops.
    ///
    /// The two signals are blocked first, so that every thread started from here on inherits the block, and one
    /// thread takes them with `sigwait`: nothing runs inside a signal handler, and a parent that started the process
    /// with them blocked (a test runner does) can still stop it.
    public func serveUntilStopped(ready: @escaping @Sendable (String) -> Void) throws {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let done = DispatchSemaphore(value: 0)
        let failure = ServerFailure()
        Thread.detachNewThread { [signals] in
            var signals = signals, received: Int32 = 0
            sigwait(&signals, &received)
            done.signal()
        }
        Task {
            do { try await run(ready: ready) } catch { failure.error = error }
            done.signal()
        }
        done.wait()
        if let error = failure.error as? BackdropError { throw error }
        if let error = failure.error { throw BackdropError(.output, "the preview server stopped: \(error)") }
    }

    func serve(_ server: HTTPServer, ready: @escaping @Sendable (String) -> Void) async throws {
        let failure = ServerFailure()
        let task = Task {
            do { try await server.run() } catch {
                failure.error = error
                throw error
            }
        }
        // Wait until it listens, or until it ends because it cannot (then say why at once).
        while await !server.isListening {
            if let error = failure.error { throw error }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        if case .ip4(let ip, let boundPort)? = await server.listeningAddress { ready("http://\(ip):\(boundPort)/") }
        try await task.value
    }

    func addRoutes(to server: HTTPServer) async {
        let state = state, maxPixels = maxPixels, renderQueue = RenderQueue()
        await server.appendRoute("GET /") { _ in
            HTTPResponse(
                statusCode: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: Data(PreviewPage.html.utf8))
        }
        await server.appendRoute("GET /input.png") { _ in
            let (_, png, _) = await state.snapshot()
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "image/png"], body: Data(png))
        }
        await server.appendRoute("GET /state.json") { _ in
            HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: await state.summary())
        }
        await server.appendRoute("DELETE /vibrancy") { _ in
            await state.setVibrancy(nil)
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: Data("{}".utf8))
        }
        for (route, kind) in [("GET /render.png", RenderKind.png), ("GET /render.rgba", .frameRGBA)] {
            await server.appendRoute(HTTPRoute(stringLiteral: route)) { request in
                await Self.respond {
                    let query = Self.query(request)
                    let (input, _, vibrancy) = await state.snapshot()
                    let (body, headers) = try await renderQueue.run {
                        try Self.render(kind, query: query, input: input, vibrancy: vibrancy)
                    }
                    return HTTPResponse(statusCode: .ok, headers: headers, body: body)
                }
            }
        }
        await server.appendRoute("GET /estimate.json") { request in
            await Self.respond {
                let estimates = try await Self.estimates(request, state: state)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                let records = estimates.map(EstimateRecord.init)
                let all = Self.query(request)["device"] == "all"
                let body = all ? try encoder.encode(records) : try encoder.encode(records[0])
                return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: body)
            }
        }
        await server.appendRoute("GET /estimate.svg") { request in
            await Self.respond {
                let estimates = try await Self.estimates(request, state: state)
                return HTTPResponse(
                    statusCode: .ok, headers: [.contentType: "image/svg+xml"],
                    body: Data(TimelineSVG.render(estimates[0]).utf8))
            }
        }
        for (route, isInput) in [("POST /input", true), ("POST /vibrancy", false)] {
            await server.appendRoute(HTTPRoute(stringLiteral: route)) { request in
                await Self.respond {
                    let body = [UInt8](try await request.bodyData)
                    let image = try PNGDecoder(maxPixels: maxPixels).decode(body, name: isInput ? "input" : "vibrancy")
                    if isInput { try await state.setInput(image) } else { await state.setVibrancy(image) }
                    return HTTPResponse(
                        statusCode: .ok, headers: [.contentType: "application/json"],
                        body: Data("{\"width\":\(image.width),\"height\":\(image.height)}".utf8))
                }
            }
        }
    }

    enum RenderKind { case png, frameRGBA }

    /// A render request's answer: the whole picture as PNG, or the frame's pixels with the frame in a header.
    static func render(
        _ kind: RenderKind, query: [String: String], input: RGBAImage<UInt8>, vibrancy: RGBAImage<UInt8>?
    ) throws(BackdropError) -> (Data, HTTPHeaders) {
        let request = try PreviewRequest(query: query)
        var options = request.options
        options.vibrantContentSize = vibrancy?.size
        let effect = try options.effect().effect
        switch kind {
        case .png:
            let output = try Renderer().render(input, effect: effect, vibrantContent: vibrancy)
            return (Data(try PNGEncoder(compression: .fast).encode(output)), [.contentType: "image/png"])
        case .frameRGBA:
            let view = try FrameView.render(
                input, effect: effect, vibrantContent: vibrancy, width: request.displayWidth)
            let frame = view.frame
            return (
                view.data,
                [
                    .contentType: "application/octet-stream",
                    HTTPHeader("Backdrop-Frame"): "\(frame.x),\(frame.y),\(frame.width),\(frame.height)",
                    HTTPHeader("Backdrop-Size"): "\(view.size.width),\(view.size.height)",
                ]
            )
        }
    }

    /// The estimates a request asks for: its effect as one view of the frame's size in points (pixels over the
    /// request's scale, or each device's), on one device or all — `device` is required, as `backdrop estimate` requires
    /// `--device` or `--all-devices`.
    static func estimates(_ request: HTTPRequest, state: PreviewState) async throws -> [Estimate] {
        let preview = try PreviewRequest(query: query(request))
        guard let id = preview.deviceID else { throw BackdropError(.badOption, "give device=ID or device=all") }
        let (input, _, vibrancy) = await state.snapshot()
        let frame = try RenderPlan.frame(preview.options.frame, in: input.size)
        let devices = id == "all" ? Device.all : [try Device.lookup(id)]
        // A view larger than a device's screen is refused, as `backdrop estimate --view` refuses it: one device's
        // request is a 400; with device=all the devices it does not fit are left out (a 400 when none is left).
        var estimates: [Estimate] = []
        var refusal: BackdropError?
        for device in devices {
            let scale = preview.options.scale ?? device.scale
            try RenderPlan.validate(scale: scale)
            let points = (width: Double(frame.width) / scale, height: Double(frame.height) / scale)
            do throws(BackdropError) {
                estimates.append(
                    try Estimator().estimate(
                        device: device, style: preview.options.style, vibrancy: vibrancy != nil, viewPoints: points,
                        path: preview.options.path))
            } catch {
                refusal = refusal ?? error
            }
        }
        if estimates.isEmpty, let refusal { throw refusal }
        return estimates
    }

    static func query(_ request: HTTPRequest) -> [String: String] {
        Dictionary(request.query.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// The handler's response, or a 400 with the error as JSON.
    static func respond(_ body: () async throws -> HTTPResponse) async -> HTTPResponse {
        do {
            return try await body()
        } catch {
            let message = (error as? BackdropError)?.message ?? "\(error)"
            let json = (try? JSONSerialization.data(withJSONObject: ["error": message])) ?? Data()
            return HTTPResponse(statusCode: .badRequest, headers: [.contentType: "application/json"], body: json)
        }
    }
}

/// Renders one request at a time on a thread of its own: the renderer's threads already use every core, and the
/// cooperative pool stays free to read and write sockets meanwhile.
final class RenderQueue: Sendable {
    let queue = DispatchQueue(label: "backdrop.preview.render")

    // Concrete types and untyped throws: a generic `run` given a closure that makes typed-throws calls crashed the
    // task allocator on resumption ("freed pointer was not the last allocation", Swift 6.3.1, release build).
    func run(
        _ work: @escaping @Sendable () throws -> (Data, HTTPHeaders)
    ) async throws -> (Data, HTTPHeaders) {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}

/// A server task's error, if it ended: written by the task, read by whoever waits for it.
final class ServerFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?
    var error: (any Error)? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
