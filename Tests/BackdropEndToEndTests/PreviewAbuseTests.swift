import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// The server under abuse, on loopback, every loop
/// bounded in count and time. Each test ends by checking that the server still answers a plain request.
///
/// On the server before this one (FlyingFox 0.27): a 1 MiB request line was read whole, quadratically (minutes of a
/// core), with no 414; a declared 2 GiB body was read into memory; idle sockets were never closed, and past the file
/// limit the server exited; any Host was served and a cross-origin POST replaced the picture; a render over 15 s
/// answered an empty 500 and kept running.
@Suite("Hostile input: the preview server under abuse")
struct PreviewAbuseTests {
    /// `GET path` with the server's own Host, on a new connection; the response, or nil when none came.
    func get(_ server: PreviewProcess, _ path: String, seconds: Double = 10) -> (
        status: Int, headers: [String: String], body: [UInt8]
    )? {
        guard let client = RawHTTPClient(port: server.port) else { return nil }
        client.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n\r\n")
        return client.readResponse(seconds: seconds)
    }

    func stillServes(_ server: PreviewProcess) -> Bool { get(server, "/state.json")?.status == 200 }

    @Test func aLongRequestLineIs414AndLongOrManyHeadersAre431() throws {
        let server = try PreviewProcess()
        defer { server.stop() }
        let host = "Host: 127.0.0.1:\(server.port)\r\n"
        let cases: [(String, Int, String)] = [
            ("GET /" + String(repeating: "a", count: 1 << 20) + " HTTP/1.1\r\n" + host + "\r\n", 414, "request line"),
            (
                "GET / HTTP/1.1\r\n" + host + "X-Long: " + String(repeating: "b", count: 64 * 1024) + "\r\n\r\n", 431,
                "head"
            ),
            (
                "GET / HTTP/1.1\r\n" + host + String(repeating: "X-Many: c\r\n", count: 200) + "\r\n", 431,
                "header fields"
            ),
        ]
        for (request, status, text) in cases {
            let client = try #require(RawHTTPClient(port: server.port))
            client.send(request)  // the server may answer and close before all of it is sent
            let response = try #require(client.readResponse(), "no answer to a \(status) case")
            let answer = "\(response.status) \(response.headers) \(String(decoding: response.body, as: UTF8.self))"
            #expect(
                response.status == status && RawHTTPClient.error(response.body).contains(text),
                "the \(status) case was answered \(answer)")
            #expect(response.headers["connection"] == "close", "the \(status) case was answered \(answer)")
        }
        #expect(stillServes(server))
        // Memory after a 1 MiB line: the line was never held whole (the limit is 8 KiB).
        let peak = try #require(server.peakMemory)
        #expect(peak < 200 << 20, "peak memory \(peak >> 20) MiB")
    }

    /// The limits hold however the head is split: a request line or a head that crosses its limit in the same read
    /// that brings its end (here the second of two writes, the first under the limit) is refused as one that never
    /// ends. The server parsed such a head whole and served it (a 404 and a 200 here before the fix): the likely
    /// cause of `aLongRequestLineIs414AndLongOrManyHeadersAre431` failing once in a loaded full run with an answer
    /// other than 431 and `Connection: keep-alive`, its 64 KiB header split across reads.
    @Test func aLimitCrossedInTheReadThatEndsTheHeadStillHolds() throws {
        let server = try PreviewProcess()
        defer { server.stop() }
        let host = "Host: 127.0.0.1:\(server.port)\r\n"
        let cases: [(first: String, second: String, status: Int, text: String)] = [
            // 6 KiB of the request line, then 4 KiB more and its end: 10 KiB against 8 KiB.
            (
                "GET /" + String(repeating: "a", count: 6 * 1024),
                String(repeating: "a", count: 4 * 1024) + " HTTP/1.1\r\n" + host + "\r\n", 414, "request line"
            ),
            // 20 KiB of a header, then 20 KiB more and the blank line: 40 KiB against 32 KiB.
            (
                "GET / HTTP/1.1\r\n" + host + "X-Long: " + String(repeating: "b", count: 20 * 1024),
                String(repeating: "b", count: 20 * 1024) + "\r\n\r\n", 431, "head"
            ),
        ]
        for (first, second, status, text) in cases {
            let client = try #require(RawHTTPClient(port: server.port))
            client.send(first)
            usleep(200_000)  // the server reads the first part on its own
            client.send(second)
            let response = try #require(client.readResponse(), "no answer to the \(status) case")
            let answer = "\(response.status) \(String(decoding: response.body, as: UTF8.self))"
            #expect(
                response.status == status && RawHTTPClient.error(response.body).contains(text),
                "the \(status) case was answered \(answer)")
        }
        #expect(stillServes(server))
    }

    /// Requests that are malformed, smuggling-shaped or in an unsupported framing: each a 4xx or 5xx with a JSON
    /// error, never a crash; the server goes on.
    @Test func malformedRequestsAreRefusedWithOneLineErrors() throws {
        let server = try PreviewProcess()
        defer { server.stop() }
        let host = "Host: 127.0.0.1:\(server.port)\r\n"
        let cases: [(String, Int)] = [
            ("GET / HTTP/2.0\r\n" + host + "\r\n", 505),
            ("GET /\r\n\r\n", 400),
            ("GET  / HTTP/1.1\r\n" + host + "\r\n", 400),
            ("GET http://evil/ HTTP/1.1\r\n" + host + "\r\n", 400),
            ("GET / HTTP/1.1\r\n\r\n", 400),  // no Host
            ("GET / HTTP/1.1\r\n" + host + "Bad Name: x\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\n" + host + "X: a\r\n folded\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\n" + host + "X: a\u{0}b\r\n\r\n", 400),
            ("GET /render.png?style=%zz HTTP/1.1\r\n" + host + "\r\n", 400),
            ("GET /render.png?style=%ff HTTP/1.1\r\n" + host + "\r\n", 400),
            ("POST /input HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 501),
            ("POST /input HTTP/1.1\r\n" + host + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello", 400),
            ("POST /input HTTP/1.1\r\n" + host + "Content-Length: -1\r\n\r\n", 400),
            ("POST /input HTTP/1.1\r\n" + host + "Content-Length: 99999999999999999999999\r\n\r\n", 400),
            ("GET /nowhere HTTP/1.1\r\n" + host + "\r\n", 404),
            ("PUT /input HTTP/1.1\r\n" + host + "\r\n", 405),
            ("GET / HTTP/1.1\r\n" + host + "Content-Length: 3\r\n\r\nabc", 400),
        ]
        for (request, status) in cases {
            let client = try #require(RawHTTPClient(port: server.port))
            client.send(request)
            let response = client.readResponse()
            let error = RawHTTPClient.error(response?.body ?? [])
            #expect(
                response?.status == status && !error.isEmpty && !error.contains("\n"),
                "\(request.prefix(60).debugDescription): \(response?.status ?? 0) \(error)")
        }
        // Pipelined requests on one connection are answered in order.
        let client = try #require(RawHTTPClient(port: server.port))
        client.send(
            "GET /state.json HTTP/1.1\r\n\(host)\r\nGET /nowhere HTTP/1.1\r\n\(host)\r\n"
                + "GET /state.json HTTP/1.1\r\n\(host)Connection: close\r\n\r\n")
        let statuses = (0..<3).map { _ in client.readResponse()?.status ?? 0 }
        #expect(statuses == [200, 404, 200])
        #expect(stillServes(server))
    }

    @Test func bodiesOverTheLimitAre413BeforeTheyAreRead() throws {
        let server = try PreviewProcess(["--max-pixels", "100000"])
        defer { server.stop() }
        let host = "Host: 127.0.0.1:\(server.port)\r\nOrigin: http://127.0.0.1:\(server.port)\r\n"
        // A declared 2 GiB body: refused from its Content-Length alone (the limit here is 8 × 100 000 + 1 MiB
        // bytes), with or without `Expect: 100-continue`, and nothing of it is read.
        for expect in ["", "Expect: 100-continue\r\n"] {
            let client = try #require(RawHTTPClient(port: server.port))
            client.send("POST /input HTTP/1.1\r\n\(host)\(expect)Content-Length: 2147483648\r\n\r\n")
            let response = try #require(client.readResponse())
            #expect(response.status == 413 && RawHTTPClient.error(response.body).contains("over the limit"))
        }
        // A PNG whose header declares 100 000 × 100 000 pixels, with a body within the byte limit: refused after
        // its first 24 bytes, while the client has sent nothing more.
        var header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        header += [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0]
        let client = try #require(RawHTTPClient(port: server.port))
        client.send("POST /vibrancy HTTP/1.1\r\n\(host)Content-Length: 500000\r\n\r\n")
        client.send(header)
        let response = try #require(client.readResponse())
        #expect(
            response.status == 413
                && RawHTTPClient.error(response.body).contains("100000×100000 pixels, over the limit of 100000"))
        // Bodies held by all connections together are at most one largest body (1 848 576 bytes here): while one
        // upload of 1.5 MB is on its way, another of 1 MB waits for its turn (503, Retry-After), unread.
        let first = try #require(RawHTTPClient(port: server.port))
        first.send("POST /input HTTP/1.1\r\n\(host)Content-Length: 1500000\r\nExpect: 100-continue\r\n\r\n")
        #expect(first.readResponse()?.status == 100)  // admitted, its bytes counted
        first.send(Array(repeating: 0, count: 1000))
        let second = try #require(RawHTTPClient(port: server.port))
        second.send("POST /input HTTP/1.1\r\n\(host)Content-Length: 1000000\r\n\r\n")
        let busy = try #require(second.readResponse())
        #expect(busy.status == 503 && busy.headers["retry-after"] == "1")
        withExtendedLifetime(first) {}  // its socket, and so its upload, stay open until here
        #expect(stillServes(server))
    }

    @Test func idleAndSlowConnectionsAreClosedAndOnlySixtyFourAreHeld() throws {
        let server = try PreviewProcess(["--idle-timeout", "0.5"])
        defer { server.stop() }
        // 100 connections that send nothing: 64 are held, the rest answered 503 at once; all closed after the idle
        // time.
        let idle = (0..<100).compactMap { _ in RawHTTPClient(port: server.port) }
        #expect(idle.count == 100)
        let outcomes = idle.map { $0.readUntilClosed(seconds: 5) }
        #expect(outcomes.allSatisfy { $0.closed }, "a connection stayed open past the idle time")
        let refused = outcomes.filter { String(decoding: $0.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 503") }
        #expect(refused.count >= 36, "\(refused.count) of 100 refused over the cap")
        // A head that trickles in a byte at a time, each within the idle time: refused when the head's time is up.
        let slow = try #require(RawHTTPClient(port: server.port))
        var answered: (status: Int, headers: [String: String], body: [UInt8])?
        for byte in "GET / HTTP/1.1\r\nX-Slow: " + String(repeating: "z", count: 200) {
            guard slow.send(String(byte)) else { break }
            answered = slow.readResponse(seconds: 0.1)
            if answered != nil { break }
        }
        #expect(answered?.status == 408)
        #expect(stillServes(server))
    }

    @Test func runningOutOfFileDescriptorsPausesTheServerNeverEndsIt() throws {
        let server = try PreviewProcess(fileLimit: 40)
        defer { server.stop() }
        // More connections than the process may have files: the kernel completes them in the backlog, the server
        // cannot accept them all, and waits.
        let clients = (0..<60).compactMap { _ in RawHTTPClient(port: server.port) }
        #expect(clients.count == 60)
        // The sockets stay open until the server has paused: Swift may end an object's life after its last use, and
        // a client's deinit closes its socket.
        withExtendedLifetime(clients) {
            var paused = false
            for _ in 0..<100 where !paused {  // within 10 s
                Thread.sleep(forTimeInterval: 0.1)
                paused = server.standardError.contains("cannot accept a connection (too many open files)")
            }
            #expect(paused, "\(server.standardError)")
            #expect(server.process.isRunning)
        }
        var served = false
        for _ in 0..<50 where !served {  // within 5 s of the sockets closing
            served = stillServes(server)
            if !served { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(served && server.process.isRunning)
    }

    @Test func onlyItsOwnHostIsServedAndOnlyItsOwnPageChangesTheState() throws {
        let server = try PreviewProcess()
        defer { server.stop() }
        let port = server.port
        let coffee = try [UInt8](
            Data(contentsOf: URL(fileURLWithPath: Fixtures.path("photos/coffee.png"))))
        func request(_ head: String, body: [UInt8] = []) throws -> (
            status: Int, headers: [String: String], body: [UInt8]
        ) {
            let client = try #require(RawHTTPClient(port: port))
            client.send(head + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n")
            client.send(body)
            return try #require(client.readResponse())
        }
        // DNS rebinding: another name for 127.0.0.1, or the right address with another port.
        for host in ["attacker.example", "attacker.example:\(port)", "127.0.0.1:\(port + 1)", "127.0.0.2:\(port)"] {
            let response = try request("GET /input.png HTTP/1.1\r\nHost: \(host)\r\n")
            #expect(response.status == 421, "\(host)")
        }
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST:\(port)"] {
            #expect(try request("GET /state.json HTTP/1.1\r\nHost: \(host)\r\n").status == 200, "\(host)")
        }
        let own = "Host: 127.0.0.1:\(port)\r\n"
        // Another site's form or fetch: its own Origin, or none (a script that did not ask for the token).
        for origin in ["Origin: http://attacker.example\r\nContent-Type: text/plain\r\n", "Origin: null\r\n", ""] {
            let response = try request("POST /input HTTP/1.1\r\n\(own)\(origin)", body: coffee)
            #expect(response.status == 403 && RawHTTPClient.error(response.body).contains("Backdrop-Token"))
            #expect(try request("DELETE /vibrancy HTTP/1.1\r\n\(own)\(origin)").status == 403)
        }
        #expect(try request("GET /state.json HTTP/1.1\r\n\(own)").body.count > 0)
        let state = try JSONSerialization.jsonObject(with: Data(try request("GET /state.json HTTP/1.1\r\n\(own)").body))
        let summary = try #require(state as? [String: Any])
        #expect(summary["width"] as? Int == 1024, "a refused upload changed the picture")
        // The page's own origin, and a script's token.
        let token = try #require(summary["token"] as? String)
        #expect(token.count == 32)
        #expect(
            try request("POST /input HTTP/1.1\r\n\(own)Origin: http://127.0.0.1:\(port)\r\n", body: coffee).status
                == 200)
        #expect(try request("DELETE /vibrancy HTTP/1.1\r\n\(own)Backdrop-Token: \(token)\r\n").status == 200)
        #expect(
            try request("DELETE /vibrancy HTTP/1.1\r\n\(own)Backdrop-Token: \(token.uppercased())x\r\n").status == 403)
    }

    @Test func aRenderOverItsTimeIsCancelledAndAnswered503() throws {
        // A 4000×3000 picture rendered exactly takes far more than 20 ms on any machine this project runs on.
        let directory = try Fixtures.temporaryDirectory()
        let big = directory.appendingPathComponent("big.png").path
        var samples = [UInt8](repeating: 255, count: 4000 * 3000 * 4)
        for index in 0..<(4000 * 3000) {
            samples[index * 4] = UInt8(truncatingIfNeeded: index)
            samples[index * 4 + 1] = UInt8(truncatingIfNeeded: index >> 7)
        }
        try PNGEncoder(compression: .fast).write(RGBAImage(width: 4000, height: 3000, samples: samples), to: big)
        let server = try PreviewProcess([big, "--render-timeout", "0.02"])
        defer { server.stop() }
        let response = try #require(get(server, "/render.png?style=light&exact=1", seconds: 30))
        #expect(
            response.status == 503 && RawHTTPClient.error(response.body).contains("0.02 s limit (--render-timeout)"),
            "\(response.status) \(RawHTTPClient.error(response.body))")
        // A client that goes away (its connection reset: a client that only stops sending still gets its answer,
        // `aHalfClosedClientStillGetsItsAnswer`): its render is cancelled too. On a server with a limit the render
        // cannot reach first: the reset comes while the render runs.
        let patient = try PreviewProcess([big, "--render-timeout", "600"])
        defer { patient.stop() }
        var leaving = RawHTTPClient(port: patient.port)
        leaving?.send("GET /render.rgba?exact=1 HTTP/1.1\r\nHost: 127.0.0.1:\(patient.port)\r\n\r\n")
        var abort = linger(l_onoff: 1, l_linger: 0)
        setsockopt(try #require(leaving).socket, SOL_SOCKET, SO_LINGER, &abort, socklen_t(MemoryLayout<linger>.size))
        Thread.sleep(forTimeInterval: 0.1)  // the server has read the request
        leaving = nil  // closed with no lingering: a reset
        var logged = false
        for _ in 0..<100 where !logged {  // within 10 s
            Thread.sleep(forTimeInterval: 0.1)
            logged = patient.standardError.contains("a render was cancelled: its client closed the connection")
        }
        #expect(logged, "\(patient.standardError)")
        #expect(stillServes(server))
    }

    /// Issue 43: a client that sends its request and then shuts down its sending side (`shutdown(SHUT_WR)`, as
    /// `curl` or a script may) was answered 503 ("the client closed the connection"), its render cancelled; it still
    /// reads, and now gets the whole answer, after which the server closes.
    @Test func aHalfClosedClientStillGetsItsAnswer() throws {
        let server = try PreviewProcess()
        defer { server.stop() }
        for path in ["/render.png?style=light", "/state.json"] {
            let client = try #require(RawHTTPClient(port: server.port))
            client.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
            shutdown(client.socket, Int32(SHUT_WR))
            let response = try #require(client.readResponse(seconds: 30), "no answer to \(path)")
            #expect(
                response.status == 200, "\(path): \(response.status) \(RawHTTPClient.error(response.body))")
            #expect(response.body.count == Int(response.headers["content-length"] ?? "") && response.body.count > 0)
            if path.hasPrefix("/render.png") { #expect(response.body.starts(with: [0x89, 0x50, 0x4E, 0x47])) }
            #expect(client.readUntilClosed(seconds: 5) == ([], true), "the connection stayed open")
        }
        #expect(stillServes(server))
    }
}
