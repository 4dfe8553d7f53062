import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One client's TCP connection: requests read within ``HTTPLimits``, responses written, on the one thread that
/// serves it. Every wait is a `poll` with a deadline, so no client holds the thread longer than the limits say.
///
/// Memory: what is buffered is at most the head limit plus one 64 KiB read, and one body of at most
/// ``HTTPLimits/bodyBytes`` (a `Content-Length` over the limit is refused before its first byte is read).
final class HTTPConnection {
    let socket: Int32
    let limits: HTTPLimits
    /// Bytes received and not yet consumed: the start of the next request, when the client pipelines.
    private var received: [UInt8] = []
    private static let readSize = 64 * 1024

    init(socket: Int32, limits: HTTPLimits) {
        self.socket = socket
        self.limits = limits
    }

    /// The next request's head, or nil when the client closed the connection or stayed silent for
    /// ``HTTPLimits/idleSeconds`` before sending a byte of it.
    func readHead() throws(HTTPRefusal) -> HTTPRequest? {
        var start = 0  // the request line's first byte: empty lines before it are skipped (RFC 9112 §2.2)
        var lineStart = 0
        var requestLineEnd: Int?
        var scanned = 0
        var firstByte: ContinuousClock.Instant? = received.isEmpty ? nil : .now
        while true {
            // Only the bytes not yet scanned: linear in what arrives, however it is split.
            while scanned < received.count {
                defer { scanned += 1 }
                guard received[scanned] == UInt8(ascii: "\n") else { continue }
                let lineEnd = scanned > lineStart && received[scanned - 1] == UInt8(ascii: "\r") ? scanned - 1 : scanned
                if lineEnd == lineStart {
                    if let requestLineEnd {
                        // The limits hold here too: a head's end can arrive in the read that takes it past them.
                        try checkLimits(requestLine: requestLineEnd - start, head: scanned + 1 - start)
                        let head = received[start...scanned]
                        let request = try HTTPHead.parse(head, limits: limits)
                        received.removeFirst(scanned + 1)
                        return request
                    }
                    start = scanned + 1
                    guard start <= 64 else { throw HTTPRefusal(400, "more than 64 bytes of empty lines") }
                } else if requestLineEnd == nil {
                    try checkLimits(requestLine: lineEnd - start, head: scanned + 1 - start)
                    requestLineEnd = lineEnd
                }
                lineStart = scanned + 1
            }
            // What has arrived of a head that has not ended.
            try checkLimits(requestLine: (requestLineEnd ?? received.count) - start, head: received.count - start)
            let headDeadline = firstByte.map { $0 + .seconds(limits.headSeconds) }
            switch try receive(into: &received, until: headDeadline, timeout: 408, "the request's head") {
            case 0:
                return nil  // closed, before a request or in the middle of one: nothing to answer
            default:
                if firstByte == nil { firstByte = .now }
            }
        }
    }

    /// A 414 for a request line of more than ``HTTPLimits/requestLineBytes`` bytes, a 431 for a head of more than
    /// ``HTTPLimits/headBytes``.
    private func checkLimits(requestLine: Int, head: Int) throws(HTTPRefusal) {
        if requestLine > limits.requestLineBytes {
            throw HTTPRefusal(414, "the request line is longer than \(limits.requestLineBytes) bytes")
        }
        if head > limits.headBytes {
            throw HTTPRefusal(431, "the request's head is longer than \(limits.headBytes) bytes")
        }
    }

    /// The body of `length` bytes that follows a head. `check` is called once with the body's first
    /// `min(length, checkLength)` bytes, before the rest is read, to refuse it early.
    func readBody(
        length: Int, checkLength: Int, check: (ArraySlice<UInt8>) throws(HTTPRefusal) -> Void
    ) throws(HTTPRefusal) -> [UInt8] {
        var body = [UInt8]()
        body.reserveCapacity(length)
        let taken = min(length, received.count)
        body.append(contentsOf: received[..<taken])
        received.removeFirst(taken)
        let deadline = ContinuousClock.now + .seconds(limits.bodySeconds)
        var checked = false
        while true {
            if !checked && body.count >= min(length, checkLength) {
                try check(body[..<min(length, checkLength)])
                checked = true
            }
            if body.count == length { return body }
            var chunk: [UInt8] = []
            let count = try receive(into: &chunk, until: deadline, timeout: 408, "the body", most: length - body.count)
            guard count > 0 else { throw HTTPRefusal(400, "the connection closed before the whole body arrived") }
            body.append(contentsOf: chunk)
        }
    }

    /// Reads what has arrived (at most `most` bytes, one read) onto `buffer`; the count, 0 when the client closed.
    /// Waits at most the idle time, and never past `deadline`; a wait that runs out is refused with `timeout`
    /// (after a request has started) or answered as a close (`buffer` empty and no deadline: an idle connection).
    private func receive(
        into buffer: inout [UInt8], until deadline: ContinuousClock.Instant?, timeout status: Int, _ what: String,
        most: Int = readSize
    ) throws(HTTPRefusal) -> Int {
        let idle = ContinuousClock.now + .seconds(limits.idleSeconds)
        let until = deadline.map { min($0, idle) } ?? idle
        guard wait(for: Int16(POLLIN), until: until) else {
            if deadline == nil && buffer.isEmpty { return 0 }
            throw HTTPRefusal(status, "\(what) did not arrive in time")
        }
        let size = min(most, Self.readSize)
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: size))
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress! + old, size, 0) }
        buffer.removeLast(size - max(count, 0))
        return max(count, 0)
    }

    /// Writes `response` whole: its head with `Content-Length`, `Connection` and the headers every answer carries,
    /// then its body unless the request was `HEAD`. False when the client is gone or stopped reading for the idle
    /// time.
    @discardableResult
    func write(_ response: HTTPResponse, keepAlive: Bool, includeBody: Bool = true) -> Bool {
        var head = "HTTP/1.1 \(response.status) \(HTTPResponse.reason(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\n"
        head += "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n"
        head += "Connection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
        return send(Array(head.utf8)) && (!includeBody || send(response.body))
    }

    /// The interim `100 Continue` a client that sent `Expect: 100-continue` waits for before its body.
    func writeContinue() { _ = send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) }

    private func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            guard wait(for: Int16(POLLOUT), until: .now + .seconds(limits.idleSeconds)) else { return false }
            let count = bytes.withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Whether the client has closed its side (or the connection failed): a render for it is no longer wanted.
    var clientHasGone: Bool {
        // POLLRDHUP (the peer shut its side: <poll.h> defines it only for _GNU_SOURCE).
        let peerClosed: Int16 = 0x2000
        var descriptor = pollfd(fd: socket, events: peerClosed, revents: 0)
        return poll(&descriptor, 1, 0) > 0
            && descriptor.revents & (peerClosed | Int16(POLLHUP) | Int16(POLLERR)) != 0
    }

    /// After a refusal: stop sending, read and drop what the client still sends (at most 1 MiB or 1 s), so that
    /// closing does not reset the connection before the client has read the answer.
    func closeGracefully() {
        shutdown(socket, Int32(SHUT_WR))
        let until = ContinuousClock.now + .seconds(1)
        var drained = 0
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        while drained < 1 << 20, wait(for: Int16(POLLIN), until: until) {
            let count = scratch.withUnsafeMutableBytes { recv(socket, $0.baseAddress!, $0.count, 0) }
            if count <= 0 { break }
            drained += count
        }
    }

    /// Polls for `events` until `deadline`; false when it passed first.
    private func wait(for events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            let milliseconds = Int32(
                min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 60_000))
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return true }  // the read or write that follows reports the failure
        }
    }
}
