/// Which clients may use the preview: the defence against the web pages a user has open in the same browser.
///
/// - Every request's `Host` must name the address the server listens on, or `localhost`, with its port. A page on
///   another site that re-points its own name at 127.0.0.1 (DNS rebinding) sends its own name as the host, and is
///   answered 421. When the server listens on every address (`--host 0.0.0.0`), any IPv4 address is its own, and
///   names other than `localhost` are still refused.
/// - A request that changes the state (any method but GET and HEAD: the uploads and `DELETE /vibrancy`) must also
///   come from the preview's own page — an `Origin` of `http://` and that host — or carry the `Backdrop-Token` that
///   `/state.json` gives (what a script does). A form or `fetch` on another site sends its own origin, cannot read
///   the token (the server sends no CORS headers), and is answered 403.
struct RequestOrigin: Sendable {
    /// The IPv4 address the server listens on, as given: `127.0.0.1`, `0.0.0.0`, …
    let listenAddress: String
    let port: UInt16
    /// A random token for this run of the server: 128 bits, in hex.
    let token: String

    init(listenAddress: String, port: UInt16) {
        self.listenAddress = listenAddress
        self.port = port
        var generator = SystemRandomNumberGenerator()
        token = (0..<4).map { _ in
            let word = String(generator.next() as UInt32, radix: 16)
            return String(repeating: "0", count: 8 - word.count) + word
        }.joined()
    }

    /// Refuses a request whose `Host` names another server (421). An HTTP/1.0 request may have no `Host`.
    func checkHost(_ request: HTTPRequest) throws(HTTPRefusal) {
        if let host = request.headers["host"], !isOwnHost(host) {
            throw HTTPRefusal(
                421,
                "Host '\(HTTPHead.printable(host))' is not this server: use \(listenAddress):\(port) or localhost:\(port)"
            )
        }
    }

    /// Refuses a request that changes the state and comes neither from the page nor with the token (403).
    func checkStateChange(_ request: HTTPRequest) throws(HTTPRefusal) {
        let host = request.headers["host"]
        guard request.method != "GET" && request.method != "HEAD" else { return }
        if request.headers["backdrop-token"] == token { return }
        if let origin = request.headers["origin"], let host, origin.lowercased() == "http://" + host.lowercased() {
            return
        }
        throw HTTPRefusal(
            403,
            "\(request.method) needs this server's Origin (http://\(host ?? "\(listenAddress):\(port)")) or the "
                + "Backdrop-Token header that /state.json gives")
    }

    /// `name:port` (the port may be left out only for port 80) naming this server.
    func isOwnHost(_ host: String) -> Bool {
        var name = Substring(host.lowercased())
        var hostPort: UInt16 = 80
        if let colon = name.lastIndex(of: ":") {
            guard let parsed = UInt16(name[name.index(after: colon)...]) else { return false }
            hostPort = parsed
            name = name[..<colon]
        }
        guard hostPort == port else { return false }
        if name == "localhost" || name == listenAddress { return true }
        return listenAddress == "0.0.0.0" && Self.isIPv4Address(name)
    }

    static func isIPv4Address(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII)
                    && (UInt8(part).map { _ in true } ?? false)
            }
    }
}
