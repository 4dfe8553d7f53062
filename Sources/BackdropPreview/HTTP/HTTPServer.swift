import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

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

/// The preview's HTTP/1.1 server on SwiftNIO: one event loop accepts and serves every connection (NIO's parser,
/// ``HTTPHeadLimiter`` before it and ``HTTPConnectionHandler`` after it), and answers are made on a pool of
/// ``HTTPLimits/answeringThreads`` threads, off the event loop. Persistent connections and pipelining; no TLS, no
/// chunked request bodies. Linux and macOS (NIOPosix); the tests run on Linux.
///
/// Back-pressure, where the server reads input and where it writes answers:
/// - at most ``HTTPLimits/connections`` connections are served at once; at the cap a new one takes the place of the
///   connection that has waited longest for its client (``HTTPConnections`` states the policy), or, when none has
///   waited ``HTTPLimits/evictableSeconds``, is answered 503 at once and closed after it has been read;
/// - a connection reads nothing more while its answer is made or written, so pipelined requests wait in the
///   client's socket, not in the server;
/// - bodies being read or held by all connections together are at most one largest body; an upload that would go
///   over is answered 503 with `Retry-After: 1` before it is read;
/// - an answer's body is written a chunk at a time, the next only when the channel is writable; answers held while
///   clients read them are at most ``HTTPLimits/responseBytes`` together (one answer always fits): one more is
///   dropped when it is made and answered 503 with `Retry-After: 1`;
/// - when the process runs out of file descriptors (EMFILE) or the system does, accepting pauses 100 ms at a time
///   (NIO's `AcceptBackoffHandler`) and resumes as connections close; the server never exits for it.
final class HTTPServer: Sendable {
    /// The port it listens on (the one the system picked for port 0).
    let port: UInt16
    let group: MultiThreadedEventLoopGroup
    let listener: any Channel

    /// Listens on `host:port` (IPv4) with `limits`, serving what `makeHandler` (given the port) makes; throws when
    /// it cannot listen.
    init(host: String, port: UInt16, limits: HTTPLimits, makeHandler: (UInt16) -> any HTTPHandler)
        throws(BackdropListenError)
    {
        guard let address = try? SocketAddress(ipAddress: host, port: Int(port)), case .v4 = address else {
            throw .notIPv4
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let pool = NIOThreadPool(numberOfThreads: limits.answeringThreads)
        pool.start()
        let budgets = HTTPBudgets(pool: pool, connections: HTTPConnections(limits: limits))
        let served = NIOLockedValueBox<(any HTTPHandler)?>(nil)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 128)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        AcceptBackoffHandler(shouldForwardIOErrorCaught: true, backoffProvider: Self.pause),
                        AcceptPauseLog(connections: budgets.connections))
                }
            }
            // Why TCP_NODELAY: an answer's last partial segment would otherwise wait for the client's delayed
            // acknowledgement (about 40 ms for one live-view update in ten).
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    guard let handler = served.withLockedValue({ $0 }) else {
                        return try channel.pipeline.syncOperations.addHandler(RefuseAtOnce(limits: limits))
                    }
                    let connection = HTTPConnectionHandler(limits: limits, handler: handler, budgets: budgets)
                    guard budgets.connections.admit(connection) else {
                        return try channel.pipeline.syncOperations.addHandler(RefuseAtOnce(limits: limits))
                    }
                    let id = ObjectIdentifier(connection)
                    channel.closeFuture.whenComplete { _ in budgets.connections.remove(id) }
                    try channel.pipeline.syncOperations.addHandlers(
                        HTTPHeadLimiter(limits: limits, connection: connection),
                        ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)),
                        HTTPResponseEncoder(),
                        connection)
                }
            }
        do {
            listener = try bootstrap.bind(to: address).wait()
        } catch {
            try? group.syncShutdownGracefully()
            let reason = (error as? IOError).map { String(cString: strerror($0.errnoCode)).lowercased() }
            throw .system(reason ?? "\(error)")
        }
        self.group = group
        self.port = UInt16(listener.localAddress?.port ?? Int(port))
        served.withLockedValue { $0 = makeHandler(self.port) }
    }

    /// Accepting pauses 100 ms when the process or the system is out of file descriptors or memory for sockets.
    @Sendable static func pause(_ error: IOError) -> TimeAmount? {
        [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errnoCode) ? .milliseconds(100) : nil
    }
}

/// What the connections of one server share: the counts kept under their caps, and the threads answers are made on.
final class HTTPBudgets: Sendable {
    /// Connections being served (``HTTPLimits/connections``).
    let connections: HTTPConnections
    /// Body bytes being read or held, over all connections: at most one largest body (``HTTPLimits/bodyBytes``).
    let bodies = CountUnderCap()
    /// Answer bytes held while clients read them, over all connections (``HTTPLimits/responseBytes``).
    let answers = CountUnderCap()
    let pool: NIOThreadPool

    init(pool: NIOThreadPool, connections: HTTPConnections) {
        self.pool = pool
        self.connections = connections
    }
}

/// A connection over the cap: answered 503 as soon as it is active; then its sending side is closed and what the
/// client sends is dropped until it closes its own, or for at most 1 s and 64 KiB, before the connection closes. (A
/// socket closed with unread input sends a reset, which would discard the answer before the client reads it.)
final class RefuseAtOnce: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let limits: HTTPLimits
    private var dropped = 0

    init(limits: HTTPLimits) { self.limits = limits }

    func channelActive(context: ChannelHandlerContext) {
        let body = "{\"error\":\"the server has \(limits.connections) connections open; try again\"}"
        let text =
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        let channel = context.channel
        context.writeAndFlush(NIOAny(channel.allocator.buffer(string: text))).whenComplete { result in
            guard case .success = result else { return channel.close(promise: nil) }
            channel.close(mode: .output, promise: nil)
        }
        channel.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        dropped += unwrapInboundIn(data).readableBytes
        if dropped > 64 * 1024 { context.close(promise: nil) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, case .inputClosed = event { context.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) { context.close(promise: nil) }
}

/// On the listening channel: logs once when accepting pauses for want of file descriptors, again after a connection
/// was accepted.
final class AcceptPauseLog: ChannelInboundHandler {
    typealias InboundIn = any Channel
    let connections: HTTPConnections
    private var paused = false

    init(connections: HTTPConnections) { self.connections = connections }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        paused = false
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !paused else { return }
        paused = true
        let reason = (error as? IOError).map { String(cString: strerror($0.errnoCode)).lowercased() } ?? "\(error)"
        HTTPServer.log("cannot accept a connection (\(reason)); pausing while \(connections.count) are open")
    }
}

extension HTTPServer {
    static func log(_ line: String) {
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
