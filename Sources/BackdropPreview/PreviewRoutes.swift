import Backdrop
import Foundation

/// The preview's HTTP API, which the page uses and scripts can too:
///
/// - `GET /` the page; `GET /input.png` the picture being previewed; `GET /state.json` its size and name, the
///   vibrant content's size, and the token a script sends to change the state (``RequestOrigin``);
/// - `GET /render.png?…` the effect over it, with the CLI's option names (``PreviewQuery``); `GET /render.rgba?…`
///   only the frame's pixels (``FrameView``: the page's live view, nothing to encode or decode), straight 8-bit
///   RGBA rows with no header, averaged down to `display-width` when given; the frame as `x,y,w,h` in the
///   `Backdrop-Frame` header and the size sent as `w,h` in `Backdrop-Size`; `GET /frame.png?…` the same pixels as a
///   PNG (the side-by-side view's pictures);
/// - `GET /estimate.json?…&device=ID|all` what `backdrop estimate --format json` prints for a view of the frame's
///   size in points; `GET /estimate.svg?…&device=ID` its frame timeline;
/// - `GET /compare.json?…&devices=ID,ID|all` the side-by-side view: each device's request, picture query, command
///   and price, and the devices the view is not shown on with the reason (``DeviceComparison``), for a picture's
///   query or a scene's;
/// - `GET /command.json?…` (a `/render.png` or `/scene.png` query) `{"command": "backdrop render …", "notes": […]}`,
///   the command line that draws the same picture, printed from the same request, with the uploaded files' names (a
///   `Backdrop-Name` header on an upload names it), and the notes that command prints beside the picture (a frame
///   clipped to the picture, vibrant content that cannot show: ``PreparedRender/notes(inputSize:)``);
/// - `POST /input`, `POST /vibrancy` a PNG body: the picture, or the vibrant content (drawn at `at=x,y`, default the
///   frame's corner); `DELETE /vibrancy` removes the content.
/// - Scenes (``PreviewQuery``): `GET /scenes` the scene page; `GET /scene.png?scene=NAME&device=ID[&show=…]` what
///   `backdrop render --scene` draws; `GET /scene.json?scene=NAME&device=ID|all` what `backdrop estimate --scene
///   --format json` prints; `POST /scene` a JSON scene body (at most `SceneParser.maximumBytes`; no image files:
///   nothing is read from the server's disk), afterwards `scene=uploaded`.
///
/// Every query may carry `rev`, the uploads' revision (`/state.json`'s `revision`), which the server ignores: the
/// pages put it in every picture's URL so that the URL changes whenever the uploads do and no picture of other
/// uploads is taken from the browser's cache.
///
/// Every refusal is `{"error": "…"}` naming the problem: 400 for a bad query or body, 404 and 405 for an unknown
/// route or method, 413 for an upload whose PNG header declares more pixels than the limit (refused after its
/// first 24 bytes, before the rest is read or anything decoded), 503 for a render over its time; the limits of
/// ``HTTPLimits`` and the checks of ``RequestOrigin`` come first. The server keeps serving.
struct PreviewRoutes: HTTPHandler {
    let state: PreviewState
    let origin: RequestOrigin
    let maxPixels: Int
    let renderSeconds: Double
    let renders: RenderQueue
    /// Uploads are decoded one at a time: a small PNG can declare up to `maxPixels` pixels, 4 bytes each once
    /// decoded, and this bounds that memory to one picture whatever the number of connections.
    let decoding = NSLock()

    /// The methods each path answers.
    static let routes: [String: Set<String>] = [
        "/": ["GET", "HEAD"], "/input.png": ["GET", "HEAD"], "/state.json": ["GET", "HEAD"],
        "/render.png": ["GET", "HEAD"], "/render.rgba": ["GET", "HEAD"], "/estimate.json": ["GET", "HEAD"],
        "/estimate.svg": ["GET", "HEAD"], "/input": ["POST"], "/vibrancy": ["POST", "DELETE"],
        "/scenes": ["GET", "HEAD"], "/scene.png": ["GET", "HEAD"], "/scene.json": ["GET", "HEAD"], "/scene": ["POST"],
        "/command.json": ["GET", "HEAD"], "/compare.json": ["GET", "HEAD"], "/frame.png": ["GET", "HEAD"],
    ]

    func admit(_ head: HTTPRequest, bodyLength: Int) throws(HTTPRefusal) {
        try origin.admit(head, bodyLength: bodyLength, routes: Self.routes)
        if head.path == "/scene", bodyLength > SceneParser.maximumBytes {
            throw HTTPRefusal(413, "a scene file is at most \(SceneParser.maximumBytes) bytes")
        }
    }

    var bodyPrefixLength: Int { PNGDecoder.declaredSizeBytes }

    func checkBody(_ head: HTTPRequest, prefix: ArraySlice<UInt8>) throws(HTTPRefusal) {
        guard head.path != "/scene" else { return }  // JSON, bounded in `admit`
        do throws(BackdropError) {
            try PNGDecoder(maxPixels: maxPixels).checkDeclaredSize(prefix, name: String(head.path.dropFirst()))
        } catch {
            throw HTTPRefusal(413, error.message)
        }
    }

    func respond(to request: HTTPRequest, clientHasGone: @escaping () -> Bool) -> HTTPResponse {
        var request = request
        request.query["rev"] = nil
        do throws(BackdropError) {
            return try answer(request, clientHasGone: clientHasGone)
        } catch {
            return .error(400, error.message)
        }
    }

    private func answer(_ request: HTTPRequest, clientHasGone: () -> Bool) throws(BackdropError) -> HTTPResponse {
        switch (request.method, request.path) {
        case ("POST", "/scene"):
            let scene = try SceneParser.parse(Data(request.body), source: "scene")
            // The most the pages ask of a scene: its estimate on every device.
            try SceneWork.Budget.standard.check(scene, run: .estimate, devices: Device.all.count)
            state.setScene(scene, name: request.headers["backdrop-name"].flatMap(PreviewState.fileName))
            let summary: [String: Any] = ["name": scene.name, "layers": scene.layers.count]
            let body = (try? JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys])) ?? Data()
            return HTTPResponse(contentType: "application/json", body: [UInt8](body))
        case (_, "/scenes"):
            return HTTPResponse(contentType: "text/html; charset=utf-8", body: Array(ScenePage.html.utf8))
        case (_, "/scene.png"):
            guard request.query["scene"] != nil else { throw BackdropError(.badOption, "give scene=NAME") }
            if request.query["device"] == "all" { throw BackdropError(.badOption, "device=all is for /scene.json") }
            let prepared = try prepare(request.query, vibrancy: nil)
            return renders.run(limit: renderSeconds, clientHasGone: clientHasGone) {
                cancellation throws(BackdropError) in
                let picture = try prepared.render(nil, cancellation: cancellation).picture
                return HTTPResponse(
                    contentType: "image/png", body: try picture.encoded(with: PNGEncoder(compression: .fast)))
            }
        case (_, "/scene.json"):
            var query = request.query
            guard let id = query.removeValue(forKey: "device") else {
                throw BackdropError(.badOption, "give device=ID or device=all")
            }
            let asked = try RenderRequest(query: query, accepting: [.scene, .path, .reduceTransparency])
            let accessibility = AccessibilitySettings(reduceTransparency: asked.reduceTransparency == true)
            guard let name = asked.scene else { throw BackdropError(.badOption, "give scene=NAME") }
            let scene = try PreviewQuery.files(state, vibrancy: nil).scene(name)
            let devices = id == "all" ? Device.all : [try Device.lookup(id)]
            try SceneWork.Budget.standard.check(scene, run: .estimate, devices: devices.count)
            guard let path = Estimator.PathChoice(rawValue: asked.path ?? "auto") else {
                throw BackdropError(.badOption, "unknown path '\(asked.path ?? "")'")
            }
            if accessibility.reduceTransparency {
                try RenderRequest.checkReduceTransparency(path: path, spelling: .key)
            }
            return renders.run(limit: renderSeconds, clientHasGone: clientHasGone) {
                cancellation throws(BackdropError) in
                let estimator = Estimator()
                var records: [SceneRecord] = []
                for device in devices {
                    try cancellation.check()
                    records.append(
                        SceneRecord(
                            try estimator.estimate(
                                scene: scene, device: device, path: path, accessibility: accessibility)))
                }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                let body = try? id == "all" ? encoder.encode(records) : encoder.encode(records[0])
                return HTTPResponse(contentType: "application/json", body: [UInt8](body ?? Data()))
            }
        case (_, "/command.json"):
            let (input, _, vibrancy) = state.snapshot()
            let prepared = try prepare(request.query, vibrancy: vibrancy)
            var asked = prepared.request
            let names = state.names()
            asked.input = asked.input.map { _ in names.input }
            asked.vibrancy = asked.vibrancy.map { _ in names.vibrancy }
            if asked.scene == PreviewQuery.uploaded { asked.scene = names.scene }
            let command = asked.shellCommand(output: asked.scene == nil ? "out.png" : "screen.png")
            let notes = try prepared.notes(inputSize: input.size)
            let body =
                (try? JSONSerialization.data(withJSONObject: ["command": command, "notes": notes] as [String: Any]))
                ?? Data()
            return HTTPResponse(contentType: "application/json", body: [UInt8](body))
        case ("POST", let path):
            let isInput = path == "/input"
            decoding.lock()
            defer { decoding.unlock() }
            let image = try ImageDecoder(maxPixels: maxPixels).decode(
                request.body, name: isInput ? "input" : "vibrancy")
            let name = request.headers["backdrop-name"].flatMap(PreviewState.fileName)
            if isInput { try state.setInput(image, name: name) } else { state.setVibrancy(image, name: name) }
            return json("{\"width\":\(image.width),\"height\":\(image.height)}")
        case ("DELETE", _):
            state.setVibrancy(nil, name: nil)
            return json("{}")
        case (_, "/"):
            return HTTPResponse(contentType: "text/html; charset=utf-8", body: Array(PreviewPage.html.utf8))
        case (_, "/input.png"):
            return HTTPResponse(contentType: "image/png", body: state.snapshot().png)
        case (_, "/state.json"):
            return HTTPResponse(contentType: "application/json", body: state.summary(token: origin.token))
        case (_, "/render.png"), (_, "/render.rgba"), (_, "/frame.png"):
            let (input, _, vibrancy) = state.snapshot()
            var query = request.query
            let width = try PreviewQuery.displayWidth(query.removeValue(forKey: "display-width"))
            let prepared = try prepare(query, vibrancy: vibrancy), path = request.path
            return renders.run(limit: renderSeconds, clientHasGone: clientHasGone) {
                cancellation throws(BackdropError) in
                try Self.render(
                    prepared, as: path == "/render.png" ? .picture : path == "/frame.png" ? .framePNG : .frame,
                    input: input, displayWidth: width, cancellation: cancellation)
            }
        case (_, "/compare.json"):
            let answer = try DeviceComparison.answer(request.query, state: state)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return HTTPResponse(contentType: "application/json", body: [UInt8]((try? encoder.encode(answer)) ?? Data()))
        case (_, "/estimate.json"):
            let estimates = try estimates(request.query)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let records = estimates.map(EstimateRecord.init)
            let body = try? request.query["device"] == "all" ? encoder.encode(records) : encoder.encode(records[0])
            return HTTPResponse(contentType: "application/json", body: [UInt8](body ?? Data()))
        default:  // "/estimate.svg": admit lets no other path through
            let estimates = try estimates(request.query)
            return HTTPResponse(contentType: "image/svg+xml", body: Array(TimelineSVG.render(estimates[0]).utf8))
        }
    }

    /// The request `query` makes (``PreviewQuery``), checked and its files read, errors naming the query's keys.
    private func prepare(_ query: [String: String], vibrancy: RGBAImage<UInt8>?) throws(BackdropError)
        -> PreparedRender
    {
        try PreviewQuery.request(query, hasVibrancy: vibrancy != nil).prepare(
            files: PreviewQuery.files(state, vibrancy: vibrancy), spelling: .key)
    }

    private func json(_ text: String) -> HTTPResponse {
        HTTPResponse(contentType: "application/json", body: Array(text.utf8))
    }

    /// What a render request answers with: the whole picture as PNG, the frame's pixels with the frame in a header,
    /// or the frame's pixels as PNG.
    enum RenderAnswer { case picture, frame, framePNG }

    /// A render request's answer (``RenderAnswer``).
    static func render(
        _ prepared: PreparedRender, as answer: RenderAnswer, input: RGBAImage<UInt8>, displayWidth: Int?,
        cancellation: RenderCancellation
    ) throws(BackdropError) -> HTTPResponse {
        if answer == .picture {
            let picture = try prepared.render(input, cancellation: cancellation).picture
            return HTTPResponse(
                contentType: "image/png", body: try picture.encoded(with: PNGEncoder(compression: .fast)))
        }
        let view: (data: Data, size: PixelSize, frame: PixelRect)
        switch prepared.work {
        case .effect(let effect, let content, _):
            view = try FrameView.render(
                input, effect: effect, vibrantContent: content, width: displayWidth, cancellation: cancellation)
        case .imageEffects(let style, let scale, let frame, _):
            // Apple's UIImage+ImageEffects: the picture with the frame's crop replaced.
            let frame = try ImageEffectsPlan(style: style, scale: scale, frame: frame, imageSize: input.size).frame
            let picture = try prepared.render(input).picture.eightBit ?? input
            let pixels = FrameView.pixels(of: picture, in: frame, width: displayWidth)
            view = (pixels.data, pixels.size, frame)
        case .scene:
            throw BackdropError(.badOption, "a scene is drawn by /scene.png")
        }
        if answer == .framePNG {
            let picture = RGBAImage(width: view.size.width, height: view.size.height, samples: [UInt8](view.data))
            return HTTPResponse(contentType: "image/png", body: try PNGEncoder(compression: .fast).encode(picture))
        }
        return HTTPResponse(
            contentType: "application/octet-stream", body: [UInt8](view.data),
            headers: [
                ("Backdrop-Frame", "\(view.frame.x),\(view.frame.y),\(view.frame.width),\(view.frame.height)"),
                ("Backdrop-Size", "\(view.size.width),\(view.size.height)"),
            ])
    }

    /// The estimates a request asks for: its effect as one view of the frame's size in points (pixels over the
    /// request's scale, or each device's), on one device or all — `device` is required, as `backdrop estimate` requires
    /// `--device` or `--all-devices`.
    func estimates(_ query: [String: String]) throws(BackdropError) -> [Estimate] {
        var query = query
        guard let id = query.removeValue(forKey: "device") else {
            throw BackdropError(.badOption, "give device=ID or device=all")
        }
        let (input, _, vibrancy) = state.snapshot()
        let request = try PreviewQuery.request(query, hasVibrancy: vibrancy != nil)
        if request.algorithm == RenderRequest.Algorithm.imageEffects.rawValue {
            throw BackdropError(
                .badOption, "the cost model prices the system blur: leave out algorithm=image-effects to estimate")
        }
        let checked = try request.validate(spelling: .key)
        let frame = try RenderPlan.frame(checked.frame, in: input.size)
        let devices = id == "all" ? Device.all : [try Device.lookup(id)]
        // A view larger than a device's screen is refused, as `backdrop estimate --view` refuses it: one device's
        // request is a 400; with device=all the devices it does not fit are left out (a 400 when none is left).
        var estimates: [Estimate] = []
        var refusal: BackdropError?
        for device in devices {
            let scale = request.scale ?? device.scale
            try RenderPlan.validate(scale: scale)
            let points = (width: Double(frame.width) / scale, height: Double(frame.height) / scale)
            do throws(BackdropError) {
                estimates.append(
                    try Estimator().estimate(
                        device: device, style: checked.style, vibrancy: vibrancy != nil, viewPoints: points,
                        path: checked.path, accessibility: checked.accessibility))
            } catch {
                refusal = refusal ?? error
            }
        }
        if estimates.isEmpty, let refusal { throw refusal }
        return estimates
    }
}
