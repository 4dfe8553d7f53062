import Backdrop
import Foundation

extension HTTPServer {
    /// Listens on `host:port` with `limits`, serving what `makeHandler` (given the port) makes, on the calling thread
    /// until Ctrl-C (SIGINT) or SIGTERM; calls `ready` with the address once it listens. Throws at once when it
    /// cannot listen (an address in use, a host that is not an IPv4 address).
    ///
    /// The two signals are blocked first, so that every thread started from here on inherits the block, and this
    /// thread takes them with `sigwait`: nothing runs inside a signal handler, and a parent that started the process
    /// with them blocked (a test runner does) can still stop it.
    static func serveUntilStopped(
        host: String, port: UInt16, limits: HTTPLimits, ready: (String) -> Void,
        makeHandler: (UInt16) -> any HTTPHandler
    ) throws(BackdropError) {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let server: HTTPServer
        do throws(BackdropListenError) {
            server = try HTTPServer(host: host, port: port, limits: limits, makeHandler: makeHandler)
        } catch {
            switch error {
            case .notIPv4:
                throw BackdropError(.badOption, "--host '\(host)' is not an IPv4 address, e.g. 127.0.0.1 or 0.0.0.0")
            case .system(let message):
                throw BackdropError(.output, "cannot listen on \(host):\(port): \(message)")
            }
        }
        ready("http://\(host):\(server.port)/")
        var received: Int32 = 0
        withExtendedLifetime(server) { _ = sigwait(&signals, &received) }
    }
}
