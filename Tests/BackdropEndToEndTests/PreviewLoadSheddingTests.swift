import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 70, item 6: the server answers every well-framed request, and sheds load (``HTTPConnections``' policy)
/// without starving ordinary requests. Before: during a slowloris of 434 connections 38 of 44 ordinary GETs got
/// 503; a request followed by bytes that do not parse was answered with a reset (the bytes after the parser's error
/// closed the connection); of 200 half-closed render requests, those over the cap were reset before they could read
/// their 503.
@Suite("The preview sheds load and answers every request it reads")
struct PreviewLoadSheddingTests {
    func host(_ server: PreviewProcess) -> String { "Host: 127.0.0.1:\(server.port)\r\n" }

    @Test func connectionsTricklingHeadsGiveWayToOrdinaryRequests() throws {
        let server = try PreviewProcess()
        defer { server.stop() }
        // Twice the cap, each with a head begun and never ended: the cap's worth are held, the rest refused.
        let trickling = (0..<128).compactMap { _ in RawHTTPClient(port: server.port) }
        for client in trickling { client.send("GET /state.json HTTP/1.1\r\n\(host(server))X-Slow: ") }
        // Older than the time a connection must have waited before it can be evicted (1 s).
        Thread.sleep(forTimeInterval: 1.5)
        // Ordinary clients that keep their connections: each takes the place of a trickling one.
        var ordinary: [RawHTTPClient] = []
        var statuses: [Int] = []
        for _ in 0..<20 {
            let client = try #require(RawHTTPClient(port: server.port))
            client.send("GET /state.json HTTP/1.1\r\n\(host(server))\r\n")
            statuses.append(client.readResponse(seconds: 10)?.status ?? 0)
            ordinary.append(client)
        }
        #expect(statuses == Array(repeating: 200, count: 20))
        // Twenty of the trickling connections were closed to make room, without an answer; the rest wait on.
        let outcomes = trickling.map { $0.readUntilClosed(seconds: 0.01) }
        #expect(outcomes.filter { $0 == ([], true) }.count == 20)
        #expect(outcomes.filter { $0 == ([], false) }.count == 44)
    }

    @Test func newConnectionsOverTheCapAreAnswered503AndNeverReset() throws {
        let server = try PreviewProcess()
        defer { server.stop() }
        // The cap's worth of connections, too young to give way.
        let held = (0..<64).compactMap { _ in RawHTTPClient(port: server.port) }
        #expect(held.count == 64)
        // Refused ones, connected before they send: the server answers 503 as soon as it accepts them. A request
        // sent after that, then the client's sending side closed: the connection must still be open to take it (a
        // connection closed at once resets the client's send), and the 503 must wait to be read.
        let refused = (0..<10).compactMap { _ in RawHTTPClient(port: server.port) }
        Thread.sleep(forTimeInterval: 0.2)
        for client in refused {
            #expect(client.send("GET /render.png?style=light HTTP/1.1\r\n\(host(server))\r\n"))
            #expect(shutdown(client.socket, Int32(SHUT_WR)) == 0, "the server reset the connection")
            let response = try #require(client.readResponse(seconds: 5), "no answer over the cap")
            #expect(response.status == 503 && response.headers["retry-after"] == "1")
            #expect(client.readUntilClosed(seconds: 5).closed)
        }
        withExtendedLifetime(held) {}
    }

    @Test(arguments: [
        ("GET /state.json", "", 200, 10), ("GET /state.json", "", 200, 300_000),
        ("POST /input", "Content-Length: 3\r\n", 400, 10), ("POST /input", "Content-Length: 3\r\n", 400, 2_000_000),
    ])
    func bytesThatDoNotParseAfterARequestGetA400AfterItsAnswer(
        request: String, fields: String, status: Int, junkBytes: Int
    ) throws {
        let server = try PreviewProcess()
        defer { server.stop() }
        let state = try #require(RawHTTPClient(port: server.port))
        state.send("GET /state.json HTTP/1.1\r\n\(host(server))Connection: close\r\n\r\n")
        let body = try #require(state.readResponse()).body
        let token = try #require(
            (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["token"] as? String)
        let client = try #require(RawHTTPClient(port: server.port))
        let head = "\(request) HTTP/1.1\r\n\(host(server))Backdrop-Token: \(token)\r\n\(fields)\r\n"
        // The body of three bytes (for the POST), then bytes that are no request.
        let body3 = fields.isEmpty ? [] : Array("abc".utf8)
        client.send(
            Array(head.utf8) + body3 + [UInt8](repeating: UInt8(ascii: "X"), count: junkBytes) + Array("\r\n\r\n".utf8))
        let first = try #require(client.readResponse(), "no answer to the request")
        #expect(first.status == status)
        let second = try #require(client.readResponse(), "the bytes after it were answered with a reset")
        // 400 from the parser, or 414 when a read brings over 8 KiB of them before the parser sees any.
        #expect([400, 414].contains(second.status) && second.headers["connection"] == "close")
        #expect(!RawHTTPClient.error(second.body).isEmpty)
        #expect(client.readUntilClosed(seconds: 5).closed)
    }
}
