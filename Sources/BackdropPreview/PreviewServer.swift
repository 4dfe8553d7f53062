import Backdrop
import Foundation

/// `backdrop preview`: a local web server with the preview page and the HTTP API it uses (``PreviewRoutes``), on
/// the bounded SwiftNIO server of ``HTTPServer`` with the limits of ``HTTPLimits`` and the checks of ``RequestOrigin``.
public struct PreviewServer: Sendable {
    /// Where to listen.
    public let host: String
    public let port: UInt16
    /// Uploads with more pixels than this are refused before decoding.
    public let maxPixels: Int
    /// How long a render may run before it is cancelled and answered 503.
    public let renderSeconds: Double
    /// How long a connection may stay silent before it is closed.
    public let idleSeconds: Double
    let state: PreviewState

    /// A server previewing `input`, read from the file `inputName` (default: the built-in demo picture). Throws
    /// when the page's files (``PageFiles``) cannot be read, before it listens.
    public init(
        input: RGBAImage<UInt8>?, inputName: String? = nil, host: String, port: UInt16, maxPixels: Int,
        renderSeconds: Double = 15, idleSeconds: Double = 10
    ) throws(BackdropError) {
        self.host = host
        self.port = port
        self.maxPixels = maxPixels
        self.renderSeconds = renderSeconds
        self.idleSeconds = idleSeconds
        try PageFiles.check()
        state = try PreviewState(input: input ?? DemoImage.make(), name: input == nil ? nil : inputName)
    }

    /// Serves on the calling thread until Ctrl-C (SIGINT) or SIGTERM; calls `ready` with the address once it
    /// listens. Throws at once when it cannot listen (an address in use, a host that is not an IPv4 address).
    public func serveUntilStopped(ready: (String) -> Void) throws(BackdropError) {
        var limits = HTTPLimits(maxPixels: maxPixels)
        limits.idleSeconds = idleSeconds
        limits.headSeconds = idleSeconds
        limits.renderSeconds = renderSeconds
        try HTTPServer.serveUntilStopped(host: host, port: port, limits: limits, ready: ready) { port in
            routes(origin: RequestOrigin(listenAddress: host, port: port), limits: limits)
        }
    }

    private func routes(origin: RequestOrigin, limits: HTTPLimits) -> PreviewRoutes {
        PreviewRoutes(
            state: state, origin: origin, maxPixels: maxPixels, renderSeconds: limits.renderSeconds,
            renders: RenderQueue(log: { line in
                FileHandle.standardError.write(Data("backdrop-preview: \(line)\n".utf8))
            }))
    }
}
