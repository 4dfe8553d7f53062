// Fuzzes the preview server's request reading: any bytes, through the head limiter and NIO's HTTP/1.1 parser as a
// connection reads them, must give a request or a refusal with a 4xx/5xx status and a one-line message; a request's
// head is then checked as the server checks it, and its query gives preview options or a one-line BackdropError.
// Never a crash.
import Backdrop
import FuzzDriver
import NIOCore
import NIOEmbedded
import NIOHTTP1

@testable import BackdropPreview

/// What the head limiter and the parser make of the bytes: the first head, or the first refusal.
final class FirstRequest: ChannelInboundHandler, HTTPFraming {
    typealias InboundIn = HTTPServerRequestPart
    var head: HTTPRequestHead?
    var refusal: HTTPRefusal?
    private var nextBodyLength: Int?

    func bytesArrived(_ count: Int) {}
    func takeBodyLength() -> Int? {
        defer { nextBodyLength = nil }
        return nextBodyLength
    }
    func refuseFromFraming(_ refusal: HTTPRefusal) { self.refusal = self.refusal ?? refusal }
    var isDiscardingInput: Bool { refusal != nil }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else { return }
        self.head = self.head ?? head
        nextBodyLength = head.headers["content-length"].first.flatMap { Int($0) }.map { min($0, 1 << 20) } ?? 0
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let parser = error as? HTTPParserError { refuseFromFraming(HTTPRequest.refusal(parser)) }
    }
}

@_cdecl("FuzzHTTP_main")
public func fuzzHTTPMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        let limits = HTTPLimits(maxPixels: 1_000_000)
        let first = FirstRequest()
        let channel = EmbeddedChannel()
        try! channel.pipeline.syncOperations.addHandlers(
            HTTPHeadLimiter(limits: limits, connection: first), ByteToMessageHandler(HTTPRequestDecoder()), first)
        _ = try? channel.writeInbound(channel.allocator.buffer(bytes: bytes))
        _ = try? channel.finish()
        if let refusal = first.refusal {
            precondition((400...599).contains(refusal.status) && !refusal.message.contains("\n"))
            return 0
        }
        guard let head = first.head else { return 0 }
        do throws(HTTPRefusal) {
            let request = try HTTPRequest(head, limits: limits)
            _ = try HTTPHead.contentLength(request)
            _ = RequestOrigin(listenAddress: "127.0.0.1", port: 8080).isOwnHost(request.headers["host"] ?? "")
            do throws(BackdropError) {
                _ = try PreviewQuery.request(request.query, hasVibrancy: false).validate(spelling: .key)
            } catch {
                precondition(!error.message.contains("\n"), "an error must be one line")
            }
        } catch {
            precondition((400...599).contains(error.status) && !error.message.contains("\n"))
        }
        return 0
    }
}
