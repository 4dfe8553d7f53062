// Fuzzes the preview server's request parsing: any bytes, read as a request head, must give a request or a refusal
// with a 4xx/5xx status and a one-line message; a request's query then gives preview options or a one-line
// BackdropError. Never a crash.
import Backdrop
import FuzzDriver

@testable import BackdropPreview

@_cdecl("FuzzHTTP_main")
public func fuzzHTTPMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        let limits = HTTPLimits(maxPixels: 1_000_000)
        do throws(HTTPRefusal) {
            let request = try HTTPHead.parse(bytes[...].prefix(limits.headBytes), limits: limits)
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
