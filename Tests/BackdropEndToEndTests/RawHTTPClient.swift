import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP connection to the preview on 127.0.0.1 that sends bytes exactly as given, however malformed, and reads
/// what comes back with a deadline: the abuse tests' client (URLSession would fix up what they break).
final class RawHTTPClient {
    let socket: Int32
    /// Bytes received after the last response read: the next ones, when requests were pipelined.
    private var pending: [UInt8] = []

    /// Connects to 127.0.0.1:`port`; nil when the connection is refused or fails.
    init?(port: UInt16) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            return nil
        }
        self.socket = socket
    }

    deinit { close(socket) }

    /// Sends all of `bytes`; false when the server closed or reset the connection first.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Everything the server sends until it closes the connection, or until `seconds` pass; `closed` tells which.
    func readUntilClosed(seconds: Double = 10) -> (bytes: [UInt8], closed: Bool) {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return (bytes, false) }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(left * 1000) + 1) > 0 else { return (bytes, false) }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress!, $0.count, 0) }
            if count <= 0 { return (bytes, true) }
            bytes += buffer[..<count]
        }
    }

    /// One response: its status, header fields (lower-case names) and body, read by its `Content-Length`; nil
    /// when none arrives within `seconds`.
    func readResponse(seconds: Double = 10) -> (status: Int, headers: [String: String], body: [UInt8])? {
        var bytes = pending
        pending = []
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                let status = Int(head[0].split(separator: " ")[1]) ?? 0
                var headers: [String: String] = [:]
                for line in head.dropFirst() {
                    let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    if parts.count == 2 { headers[parts[0].lowercased()] = parts[1] }
                }
                let length = Int(headers["content-length"] ?? "0") ?? 0
                if bytes.count - end.upperBound >= length {
                    let body = Array(bytes[end.upperBound..<(end.upperBound + length)])
                    pending = Array(bytes[(end.upperBound + length)...])
                    return (status, headers, body)
                }
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(left * 1000) + 1) > 0 else { return nil }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress!, $0.count, 0) }
            if count <= 0 { return nil }
            bytes += buffer[..<count]
        }
    }

    /// The `"error"` of a JSON error body ("" when the body is not one).
    static func error(_ body: [UInt8]) -> String {
        ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: String])?["error"] ?? ""
    }
}
