import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a server serves: it admits or refuses a request from its head alone (before any body is read), may
/// refuse a body from its first bytes, and answers.
protocol HTTPHandler: Sendable {
    /// Throws to refuse a request before its body is read (a bad Host, a cross-origin upload, an unknown route).
    func admit(_ head: HTTPRequest, bodyLength: Int) throws(HTTPRefusal)
    /// How many of a body's first bytes ``checkBody(_:prefix:)`` wants.
    var bodyPrefixLength: Int { get }
    /// Throws to refuse a body from its first bytes (a PNG whose header declares too many pixels).
    func checkBody(_ head: HTTPRequest, prefix: ArraySlice<UInt8>) throws(HTTPRefusal)
    /// The answer. `clientHasGone` tells long work (a render) whether the client is still there to take it.
    func respond(to request: HTTPRequest, clientHasGone: @escaping () -> Bool) -> HTTPResponse
}

/// A small HTTP/1.1 server for `backdrop preview`: a thread accepts, and each connection is served on a thread of
/// its own, one request at a time (persistent connections and pipelining, no TLS, no chunked bodies).
///
/// Back-pressure: at most ``HTTPLimits/connections`` connections are served at once; one more is answered 503 at
/// once and closed. Bodies being read or held by all connections together are at most one largest body; an upload
/// that would go over is answered 503 with `Retry-After: 1` before it is read. Answers held while clients read
/// them are at most ``HTTPLimits/responseBytes`` together (one answer always fits): one more is dropped when it is
/// made and answered 503 with `Retry-After: 1`, so slow readers cannot make the server hold an answer each. When the process runs out of file descriptors (EMFILE) or the system does, accepting pauses
/// 100 ms at a time and resumes as connections close; the server never exits for it. A thread that cannot be
/// started is the same pause.
final class HTTPServer: Sendable {
    let listener: Int32
    /// The port it listens on (the one the system picked for port 0).
    let port: UInt16
    let limits: HTTPLimits
    let handler: any HTTPHandler
    private let open = CountUnderCap()
    /// Body bytes being read or held, over all connections: at most one largest body (``HTTPLimits/bodyBytes``).
    private let bodies = CountUnderCap()
    /// Answer bytes held while clients read them, over all connections (``HTTPLimits/responseBytes``).
    private let answers = CountUnderCap()

    /// A server accepting on `listener` (from ``listen(host:port:)``).
    init(listener: (socket: Int32, port: UInt16), limits: HTTPLimits, handler: any HTTPHandler) {
        self.listener = listener.socket
        self.port = listener.port
        self.limits = limits
        self.handler = handler
    }

    /// A socket listening on `host:port` (IPv4) and the port it got, or why it cannot listen.
    static func listen(host: String, port: UInt16) throws(BackdropListenError) -> (socket: Int32, port: UInt16) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw .notIPv4 }
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw .system(String(cString: strerror(errno))) }
        var on: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        // Accepted sockets inherit TCP_NODELAY on Linux. Why it is on: a response's last partial segment would
        // otherwise wait for the client's delayed acknowledgement (about 40 ms for one live-view update in ten).
        setsockopt(listener, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, Glibc.listen(listener, 128) == 0 else {
            let message = String(cString: strerror(errno)).lowercased()
            close(listener)
            throw .system(message)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        return (listener, UInt16(bigEndian: address.sin_port))
    }

    /// Accepts connections until the process ends.
    func run() -> Never {
        var pausedSince: ContinuousClock.Instant?
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                let error = errno
                if error == EINTR || error == ECONNABORTED { continue }
                if pausedSince == nil {
                    pausedSince = .now
                    let reason = String(cString: strerror(error)).lowercased()
                    log("cannot accept a connection (\(reason)); pausing while \(open.value) are open")
                }
                usleep(100_000)
                continue
            }
            pausedSince = nil
            guard open.acquire(upTo: limits.connections) else {
                refuseAtOnce(client)
                continue
            }
            let started = startThread { [self] in
                serve(client)
                open.release()
            }
            if !started {
                open.release()
                refuseAtOnce(client)
                usleep(100_000)
            }
        }
    }

    /// One connection, request after request, until it closes, stays idle or a request is refused.
    private func serve(_ socket: Int32) {
        defer { close(socket) }
        let connection = HTTPConnection(socket: socket, limits: limits)
        while true {
            var request: HTTPRequest
            var length = 0
            do throws(HTTPRefusal) {
                guard let head = try connection.readHead() else { return }
                request = head
                length = try HTTPHead.contentLength(request)
                if length > limits.bodyBytes {
                    throw HTTPRefusal(413, "the body of \(length) bytes is over the limit of \(limits.bodyBytes)")
                }
            } catch {
                return refuse(error, on: connection)
            }
            do throws(HTTPRefusal) {
                try handler.admit(request, bodyLength: length)
            } catch {
                // Without a body to skip, the connection can go on (a 404 does not end a keep-alive connection).
                guard length == 0, request.keepsAlive,
                    connection.write(.error(error.status, error.message), keepAlive: true)
                else { return refuse(error, on: connection) }
                continue
            }
            // The body's bytes count against the budget from before it is read until it is answered.
            guard length == 0 || bodies.acquire(length, upTo: limits.bodyBytes) else {
                return refuse(
                    HTTPRefusal(503, "other uploads are being read; try again", headers: [("Retry-After", "1")]),
                    on: connection)
            }
            do throws(HTTPRefusal) {
                if length > 0 {
                    if request.headers["expect"]?.lowercased() == "100-continue" { connection.writeContinue() }
                    let head = request
                    request.body = try connection.readBody(
                        length: length, checkLength: handler.bodyPrefixLength,
                        check: { prefix throws(HTTPRefusal) in try handler.checkBody(head, prefix: prefix) })
                }
            } catch {
                bodies.release(length)
                return refuse(error, on: connection)
            }
            var response = handler.respond(to: request, clientHasGone: { connection.clientHasGone })
            request.body = []
            bodies.release(length)
            let includeBody = request.method != "HEAD"
            var held = includeBody ? response.body.count : 0
            if held > 0, !answers.acquire(held, upTo: limits.responseBytes, evenOverWhenEmpty: true) {
                // Dropped here, before a byte of it waits on a slow reader.
                response = .error(
                    503, "other clients are still reading the answers the server holds; try again",
                    headers: [("Retry-After", "1")])
                held = 0
            }
            let keepAlive = request.keepsAlive
            let written = connection.write(response, keepAlive: keepAlive, includeBody: includeBody)
            response.body = []
            answers.release(held)
            guard written, keepAlive else { return }
        }
    }

    /// Answers a refusal and closes: what follows on the connection cannot be framed.
    private func refuse(_ refusal: HTTPRefusal, on connection: HTTPConnection) {
        connection.write(.error(refusal.status, refusal.message, headers: refusal.headers), keepAlive: false)
        connection.closeGracefully()
    }

    /// The 503 for a connection over the cap: one non-blocking write, then close.
    private func refuseAtOnce(_ socket: Int32) {
        let body = "{\"error\":\"the server has \(limits.connections) connections open; try again\"}"
        let text =
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        _ = Array(text.utf8).withUnsafeBytes {
            Glibc.send(socket, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
        close(socket)
    }

    func log(_ line: String) {
        FileHandle.standardError.write(Data("backdrop-preview: \(line)\n".utf8))
    }
}

/// Why a server cannot listen.
enum BackdropListenError: Error {
    case notIPv4
    case system(String)
}

/// A count kept under a cap, taken and given back from any thread: the connections being served, and the body
/// bytes held.
final class CountUnderCap: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    /// Adds `amount` when the count stays within `limit` (or, `evenOverWhenEmpty`, when it is 0); false (and
    /// nothing added) otherwise.
    func acquire(_ amount: Int = 1, upTo limit: Int, evenOverWhenEmpty: Bool = false) -> Bool {
        lock.withLock {
            guard count + amount <= limit || (evenOverWhenEmpty && count == 0) else { return false }
            count += amount
            return true
        }
    }

    func release(_ amount: Int = 1) { lock.withLock { count -= amount } }
}

/// Starts `body` on a detached thread with a 1 MiB stack; false when the system cannot start one (the caller backs
/// off instead of trapping, as Foundation's `Thread` would).
private func startThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    pthread_attr_setstacksize(&attributes, 1 << 20)
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
        &thread, &attributes,
        { context in
            Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
    if result != 0 { Unmanaged<ThreadBody>.fromOpaque(context).release() }
    return result == 0
}

/// A thread's work, passed through `pthread_create`'s context pointer.
private final class ThreadBody {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
