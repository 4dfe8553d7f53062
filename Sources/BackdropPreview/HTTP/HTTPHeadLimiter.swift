import NIOCore

/// The first handler of a connection: counts a request's head as its bytes arrive, before NIO's HTTP/1.1 parser
/// (`HTTPRequestDecoder`) sees them, and refuses a request line longer than ``HTTPLimits/requestLineBytes`` (414), a
/// head longer than ``HTTPLimits/headBytes`` (431), more than 64 bytes of empty lines before a request line, a
/// request line that is not three parts split by single spaces, and an obsolete folded header line (400): the
/// parser is lenient about the last two. A head is passed on only once it has ended within the limits, or in pieces
/// that are each within them, so a limit crossed in the read that ends the head still holds. A body is passed on
/// without a look: its length is what the connection's handler read in the head (``HTTPConnectionHandler``).
///
/// Reading is linear in the bytes received: each byte is looked at once, however the head is split.
final class HTTPHeadLimiter: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    let limits: HTTPLimits
    /// Told of every read; tells how long a body is and when the rest of the input is to be dropped.
    let connection: any HTTPFraming
    /// Bytes of the body being passed on that are still to come.
    private var bodyLeft = 0
    /// The head being counted: empty-line bytes before its request line, its bytes from the request line's first,
    /// the current line's bytes (without CR), and whether that line is the request line.
    private var emptyBytes = 0
    private var headLength = 0
    private var lineLength = 0
    private var lineStartsWithSpace = false
    private var onRequestLine = true
    private var requestLineSpaces = 0
    private var previousWasSpace = false

    init(limits: HTTPLimits, connection: any HTTPFraming) {
        self.limits = limits
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        connection.bytesArrived(buffer.readableBytes)
        while buffer.readableBytes > 0 {
            if connection.isDiscardingInput { return }
            if bodyLeft > 0 {
                let count = min(bodyLeft, buffer.readableBytes)
                bodyLeft -= count
                context.fireChannelRead(wrapInboundOut(buffer.readSlice(length: count)!))
                continue
            }
            let scanned: (count: Int, ended: Bool)
            do throws(HTTPRefusal) {
                scanned = try scan(buffer.readableBytesView)
            } catch {
                return connection.refuseFromFraming(error)
            }
            context.fireChannelRead(wrapInboundOut(buffer.readSlice(length: scanned.count)!))
            if scanned.ended {
                // The parser has just passed the head on, and the connection's handler has read its length.
                guard let length = connection.takeBodyLength() else { return }
                bodyLeft = length
                emptyBytes = 0
                headLength = 0
                lineLength = 0
                onRequestLine = true
                requestLineSpaces = 0
                previousWasSpace = false
            }
        }
    }

    static let notARequestLine = HTTPRefusal(400, "the request line is not 'METHOD /path HTTP/1.1'")

    /// The bytes of `bytes` that belong to the head, up to its end (`ended`) or all of them; throws when they take
    /// the head past a limit.
    private func scan(_ bytes: ByteBufferView) throws(HTTPRefusal) -> (count: Int, ended: Bool) {
        var count = 0
        for byte in bytes {
            count += 1
            let isLineFeed = byte == UInt8(ascii: "\n")
            if headLength == 0 {
                if isLineFeed || byte == UInt8(ascii: "\r") {
                    emptyBytes += 1
                    guard emptyBytes <= 64 else { throw HTTPRefusal(400, "more than 64 bytes of empty lines") }
                    continue
                }
            }
            headLength += 1
            guard headLength <= limits.headBytes else {
                throw HTTPRefusal(431, "the request's head is longer than \(limits.headBytes) bytes")
            }
            if isLineFeed {
                if onRequestLine {
                    onRequestLine = false
                    guard requestLineSpaces == 2, !previousWasSpace else { throw Self.notARequestLine }
                } else if lineLength == 0 {
                    return (count, true)
                } else if lineStartsWithSpace {
                    throw HTTPRefusal(400, "a folded header line (obsolete line folding is not accepted)")
                }
                lineLength = 0
            } else if byte != UInt8(ascii: "\r") {
                if lineLength == 0 { lineStartsWithSpace = byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
                lineLength += 1
                if onRequestLine {
                    guard lineLength <= limits.requestLineBytes else {
                        throw HTTPRefusal(414, "the request line is longer than \(limits.requestLineBytes) bytes")
                    }
                    let isSpace = byte == UInt8(ascii: " ")
                    if isSpace {
                        guard lineLength > 1, !previousWasSpace else { throw Self.notARequestLine }
                        requestLineSpaces += 1
                    }
                    previousWasSpace = isSpace
                }
            }
        }
        return (count, false)
    }
}

/// What ``HTTPHeadLimiter`` tells the handler after NIO's parser, and asks it, on the connection's event loop.
protocol HTTPFraming: AnyObject {
    /// `count` bytes were read from the socket.
    func bytesArrived(_ count: Int)
    /// The body length of the head the parser has just passed on; nil when it passed none (it refused the head).
    func takeBodyLength() -> Int?
    /// A head over a limit: answered, and the connection closed.
    func refuseFromFraming(_ refusal: HTTPRefusal)
    /// After a refusal, the rest of the input is dropped.
    var isDiscardingInput: Bool { get }
}
