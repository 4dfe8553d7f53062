import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// One client's connection, on its event loop: requests as NIO's parser gives them, checked against
/// ``HTTPLimits`` and the ``HTTPHandler``'s `admit` and `checkBody`, answered one at a time in order (pipelined
/// requests wait: the connection reads at most a head's worth of bytes while an answer is made, and nothing while
/// it is written).
///
/// - Answers are made off the event loop, on the server's thread pool (a render waits there for the render queue).
/// - An answer's body is written in chunks of ``chunkBytes``, the next only once the channel is writable again (its
///   outbound buffer under NIO's high-water mark, 64 KiB): a client that reads slowly holds at most its one answer
///   and a chunk in flight, and one whose socket takes no chunk of its answer for the idle time is closed. Answers held while their
///   clients read them are counted in ``HTTPBudgets/answers``: one that would take the total over
///   ``HTTPLimits/responseBytes`` is dropped when it is made and answered 503 with `Retry-After: 1` (unless no other
///   is held).
/// - A client that closes its sending side after its request (`shutdown(SHUT_WR)`: the channel allows remote
///   half-closure) still gets its answers; the connection closes once they are written. A client whose connection
///   is reset while its answer is made is gone: the render is cancelled (``RenderQueue``). (A client that closes
///   both sides sends what a half-closed one sends; its render runs to its end or its limit.)
/// - A refusal is answered with `Connection: close`, then the server stops sending and drops what the client still
///   sends (at most 1 MiB or 1 s) before it closes, so that the client reads the answer rather than a reset. A
///   refusal that waits for the answer before it (a pipelined request that does not parse) stops the parser at
///   once: the bytes after it are dropped, not parsed.
/// - A connection that waits for its client (no request yet, or a head or a body arriving) can be evicted when
///   the server is full (``HTTPConnections``): it is closed, and a newer connection takes its place.
final class HTTPConnectionHandler: ChannelDuplexHandler, HTTPFraming {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The bytes of an answer's body handed to NIO at once.
    static let chunkBytes = 64 * 1024

    private enum Phase {
        /// No byte of the next request yet.
        case waiting
        /// The head is arriving.
        case head
        /// The body is arriving (or, for a request without one, its end is due).
        case body
        /// The answer is being made on the thread pool.
        case answering
        /// The answer is being written.
        case writing
        /// After a refusal: the answer written, input dropped until the client closes or 1 s passes.
        case closing
    }

    /// What arrives while an answer is made or written: the next pipelined request, or why it is refused.
    private enum Pending {
        case part(HTTPServerRequestPart)
        case refusal(HTTPRefusal)
    }

    let limits: HTTPLimits
    let handler: any HTTPHandler
    let budgets: HTTPBudgets
    private var context: ChannelHandlerContext?
    private var phase = Phase.waiting {
        didSet {
            switch phase {
            case .waiting, .head, .body:
                if waitingForClientSince == nil { waitingForClientSince = .now() }
            case .answering, .writing, .closing:
                waitingForClientSince = nil
            }
        }
    }
    private var pending: [Pending] = []
    private var arrivedWhileBusy = false
    /// Bytes read while an answer is made: reading stops at ``HTTPLimits/headBytes`` of them.
    private var busyBytes = 0
    private var request: HTTPRequest?
    private var body: [UInt8] = []
    private var bodyLength = 0
    private var bodyChecked = false
    /// Body bytes counted in ``HTTPBudgets/bodies`` for this connection.
    private var bodyHeld = 0
    /// A refusal that leaves the connection open (a 404 without a body), answered at the request's end.
    private var refusedAnswer: HTTPResponse?
    private var headDeadline = NIODeadline.now()
    private var bodyDeadline = NIODeadline.now()
    private var timer: Scheduled<Void>?
    private var readHeld = false
    private var inputClosed = false
    private var drained = 0
    private var nextBodyLength: Int?
    /// The answer being written: its body, how much of it is handed to NIO, the bytes counted in
    /// ``HTTPBudgets/answers``, and what follows it.
    private var answerBody: [UInt8] = []
    private var answerOffset = 0
    private var answerHeld = 0
    private var answerEndWritten = false
    private var afterAnswer = AfterAnswer.keepAlive
    private let gone = NIOLockedValueBox(false)
    /// Since when the connection has waited for its client (no request yet, or a head or a body arriving); nil
    /// while the server makes or writes an answer, or closes.
    private(set) var waitingForClientSince: NIODeadline? = .now()

    private enum AfterAnswer {
        case keepAlive, close, closeGracefully
    }

    /// After a refusal, the head limiter drops the rest of the input.
    private(set) var isDiscardingInput = false

    init(limits: HTTPLimits, handler: any HTTPHandler, budgets: HTTPBudgets) {
        self.limits = limits
        self.handler = handler
        self.budgets = budgets
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    /// Closes the connection to make room for a newer one (``HTTPConnections``): it is waiting for its client.
    func evict() {
        waitingForClientSince = nil
        context?.close(promise: nil)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        armTimer()
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        gone.withLockedValue { $0 = true }
        timer?.cancel()
        timer = nil
        // While the answer is made, its body is still read on the pool; it is released when the answer returns.
        if phase != .answering { releaseBody() }
        releaseAnswer()
        answerBody = []
        pending = []
        context.fireChannelInactive()
    }

    // MARK: Input

    /// The head limiter's report of `count` bytes read from the socket.
    func bytesArrived(_ count: Int) {
        switch phase {
        case .waiting:
            phase = .head
            headDeadline = .now() + Self.amount(limits.headSeconds)
            armTimer()
        case .head, .body:
            armTimer()
        case .answering, .writing:
            arrivedWhileBusy = true
            busyBytes += count
        case .closing:
            drained += count
            if drained > 1 << 20 { context?.close(promise: nil) }
        }
    }

    /// The body length of the head NIO's parser has just passed on, for the head limiter; nil when none was.
    func takeBodyLength() -> Int? {
        defer { nextBodyLength = nil }
        return nextBodyLength
    }

    /// A refusal from the head limiter: answered now, or after the answer being made.
    func refuseFromFraming(_ refusal: HTTPRefusal) { refuse(refusal) }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if case .head(let head) = part {
            // The parser accepted the length (one whole number); a request it is too large for is refused below.
            nextBodyLength = head.headers["content-length"].first.flatMap { Int($0) } ?? 0
        }
        switch phase {
        case .answering, .writing: pending.append(.part(part))
        case .closing: break
        case .waiting, .head, .body: handle(part)
        }
    }

    private func handle(_ part: HTTPServerRequestPart) {
        switch part {
        case .head(let head): start(head)
        case .body(let bytes):
            guard let request, refusedAnswer == nil else { return }
            body.append(contentsOf: bytes.readableBytesView)
            let prefix = min(bodyLength, handler.bodyPrefixLength)
            if !bodyChecked && body.count >= prefix {
                bodyChecked = true
                do throws(HTTPRefusal) {
                    try handler.checkBody(request, prefix: body[..<prefix])
                } catch {
                    refuse(error)
                }
            }
        case .end: finish()
        }
    }

    /// A request's head: refused, or admitted and its body awaited.
    private func start(_ head: HTTPRequestHead) {
        phase = .body
        do throws(HTTPRefusal) {
            let request = try HTTPRequest(head, limits: limits)
            let length = try HTTPHead.contentLength(request)
            if length > limits.bodyBytes {
                throw HTTPRefusal(413, "the body of \(length) bytes is over the limit of \(limits.bodyBytes)")
            }
            self.request = request
            body = []
            bodyLength = length
            bodyChecked = length == 0
            do throws(HTTPRefusal) {
                try handler.admit(request, bodyLength: length)
            } catch {
                // Without a body to skip, the connection can go on (a 404 does not end a keep-alive connection).
                guard length == 0, request.keepsAlive else { throw error }
                refusedAnswer = .error(error.status, error.message, headers: error.headers)
                return
            }
            guard length > 0 else { return }
            // The body's bytes count against the budget from before it is read until it is answered.
            guard budgets.bodies.acquire(length, upTo: limits.bodyBytes) else {
                throw HTTPRefusal(503, "other uploads are being read; try again", headers: [("Retry-After", "1")])
            }
            bodyHeld = length
            body.reserveCapacity(length)
            bodyDeadline = .now() + Self.amount(limits.bodySeconds)
            armTimer()
            if request.headers["expect"]?.lowercased() == "100-continue" {
                context?.writeAndFlush(
                    wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
            }
        } catch {
            refuse(error)
        }
    }

    /// A request's end: its answer made on the thread pool, then written.
    private func finish() {
        guard let context, var request else { return }
        self.request = nil
        if let refused = refusedAnswer {
            refusedAnswer = nil
            return write(
                refused, then: request.keepsAlive ? .keepAlive : .close, includeBody: request.method != "HEAD", held: 0)
        }
        request.body = body
        body = []
        phase = .answering
        timer?.cancel()
        timer = nil
        let handler = handler
        let gone = gone
        let asked = request
        budgets.pool.runIfActive(eventLoop: context.eventLoop) {
            handler.respond(to: asked, clientHasGone: { gone.withLockedValue { $0 } })
        }.assumeIsolated().whenComplete { [self] result in
            releaseBody()
            guard self.context?.channel.isActive == true else { return }
            let response = (try? result.get()) ?? .error(503, "the server is stopping")
            answer(response, to: request)
        }
    }

    /// Writes `response` to `request` when the answers held stay within their budget, a 503 otherwise.
    private func answer(_ response: HTTPResponse, to request: HTTPRequest) {
        var response = response
        let includeBody = request.method != "HEAD"
        var held = includeBody ? response.body.count : 0
        if held > 0, !budgets.answers.acquire(held, upTo: limits.responseBytes, evenOverWhenEmpty: true) {
            // Dropped here, before a byte of it waits on a slow reader.
            response = .error(
                503, "other clients are still reading the answers the server holds; try again",
                headers: [("Retry-After", "1")])
            held = 0
        }
        write(response, then: request.keepsAlive ? .keepAlive : .close, includeBody: includeBody, held: held)
    }

    // MARK: Output

    /// Starts writing `response`: its head with `Content-Length`, `Connection` and the headers every answer carries,
    /// then its body (unless the request was `HEAD`) as the client reads it; `after` it, the connection goes on or
    /// closes.
    private func write(_ response: HTTPResponse, then after: AfterAnswer, includeBody: Bool, held: Int) {
        guard let context else { return }
        phase = .writing
        afterAnswer = after
        let keepAlive = after == .keepAlive
        answerHeld = held
        var headers = HTTPHeaders(response.headers.map { ($0.name, $0.value) })
        headers.add(name: "Content-Length", value: String(response.body.count))
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        let status = HTTPResponseStatus.custom(
            code: UInt(response.status), reasonPhrase: HTTPResponse.reason(response.status))
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))))
            .whenFailure { _ in }
        answerBody = includeBody ? response.body : []
        answerOffset = 0
        answerEndWritten = false
        armTimer()
        writeChunks()
    }

    /// Hands NIO the answer's next chunks while the channel is writable; the end once all are handed.
    private func writeChunks() {
        guard let context, phase == .writing, !answerEndWritten else { return }
        while answerOffset < answerBody.count && context.channel.isWritable {
            let end = min(answerOffset + Self.chunkBytes, answerBody.count)
            var chunk = context.channel.allocator.buffer(capacity: end - answerOffset)
            chunk.writeBytes(answerBody[answerOffset..<end])
            answerOffset = end
            // Each chunk the socket takes starts the client's idle time again.
            context.write(wrapOutboundOut(.body(.byteBuffer(chunk)))).assumeIsolated().whenSuccess { [self] in
                if phase == .writing { armTimer() }
            }
        }
        guard answerOffset == answerBody.count else { return context.flush() }
        answerBody = []
        answerEndWritten = true
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        written.futureResult.assumeIsolated().whenComplete { [self] result in answerWritten(result) }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if phase == .writing && context.channel.isWritable && !answerEndWritten {
            armTimer()  // the client reads: its idle time starts again
            writeChunks()
        }
        context.fireChannelWritabilityChanged()
    }

    private func answerWritten(_ result: Result<Void, any Error>) {
        releaseAnswer()
        guard let context, case .success = result else {
            self.context?.close(promise: nil)
            return
        }
        switch afterAnswer {
        case .close:
            context.close(promise: nil)
        case .closeGracefully:
            phase = .closing
            armTimer()
            if inputClosed { return context.close(promise: nil) }
            context.close(mode: .output, promise: nil)
            resumeReading()
        case .keepAlive:
            phase = .waiting
            armTimer()
            while !pending.isEmpty && (phase == .waiting || phase == .head || phase == .body) {
                switch pending.removeFirst() {
                case .part(let part): handle(part)
                case .refusal(let refusal): refuse(refusal)
                }
            }
            if phase == .waiting && arrivedWhileBusy {
                // A request's first bytes arrived while the answer was written, its head not yet whole.
                phase = .head
                headDeadline = .now() + Self.amount(limits.headSeconds)
                armTimer()
            }
            arrivedWhileBusy = false
            busyBytes = 0
            if phase == .waiting && inputClosed { return context.close(promise: nil) }
            resumeReading()
        }
    }

    /// Answers `refusal` and closes gracefully (now, or after the answer being made or written).
    private func refuse(_ refusal: HTTPRefusal) {
        switch phase {
        case .answering, .writing:
            // What follows the refused bytes is not passed to the parser.
            isDiscardingInput = true
            pending.append(.refusal(refusal))
        case .closing: break
        case .waiting, .head, .body:
            isDiscardingInput = true
            pending = []
            releaseBody()
            request = nil
            body = []
            refusedAnswer = nil
            write(
                .error(refusal.status, refusal.message, headers: refusal.headers), then: .closeGracefully,
                includeBody: true, held: 0)
        }
    }

    // MARK: Reading, time and budgets

    /// Reading waits while an answer is written, and while one is made once a head's worth of bytes has arrived: a
    /// client cannot queue requests faster than it reads. (While an answer is made the connection reads, so that a
    /// reset is seen and the render cancelled.)
    func read(context: ChannelHandlerContext) {
        if phase == .writing || (phase == .answering && busyBytes >= limits.headBytes) {
            readHeld = true
        } else {
            context.read()
        }
    }

    private func resumeReading() {
        guard readHeld, let context else { return }
        readHeld = false
        context.read()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, case .inputClosed = event {
            inputClosed = true
            switch phase {
            case .waiting, .head, .closing:
                context.close(promise: nil)  // nothing (more) to answer
            case .body:
                refuse(HTTPRefusal(400, "the connection closed before the whole body arrived"))
            case .answering, .writing:
                break  // a half-closed client still gets its answer; the connection closes after it
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let refusal = error as? HTTPRefusal {
            refuse(refusal)
        } else if let parser = error as? HTTPParserError {
            refuse(HTTPRequest.refusal(parser))
        } else if let decoding = error as? ByteToMessageDecoderError, case .dataReceivedInErrorState = decoding {
            // Bytes after a request that did not parse: its refusal is answered already or waits its turn.
        } else {
            context.close(promise: nil)  // the socket failed: nobody to answer
        }
    }

    /// The one timer: an idle connection closed; a head or body over its time answered 408; a client that reads
    /// nothing of its answer for the idle time closed; a refused client's draining ended after 1 s.
    private func armTimer() {
        timer?.cancel()
        timer = nil
        guard let context else { return }
        let idle = NIODeadline.now() + Self.amount(limits.idleSeconds)
        let loop = context.eventLoop.assumeIsolated()
        switch phase {
        case .waiting, .writing:
            timer = loop.scheduleTask(deadline: idle) { [self] in self.context?.close(promise: nil) }
        case .head:
            timer = loop.scheduleTask(deadline: min(idle, headDeadline)) { [self] in
                refuse(HTTPRefusal(408, "the request's head did not arrive in time"))
            }
        case .body:
            timer = loop.scheduleTask(deadline: min(idle, bodyDeadline)) { [self] in
                refuse(HTTPRefusal(408, "the body did not arrive in time"))
            }
        case .answering:
            break  // the render's own limit (RenderQueue)
        case .closing:
            timer = loop.scheduleTask(deadline: .now() + .seconds(1)) { [self] in self.context?.close(promise: nil) }
        }
    }

    private func releaseBody() {
        if bodyHeld > 0 { budgets.bodies.release(bodyHeld) }
        bodyHeld = 0
    }

    private func releaseAnswer() {
        if answerHeld > 0 { budgets.answers.release(answerHeld) }
        answerHeld = 0
    }

    static func amount(_ seconds: Double) -> TimeAmount { .nanoseconds(Int64(seconds * 1e9)) }
}
