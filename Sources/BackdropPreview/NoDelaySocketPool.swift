import FlyingSocks

#if canImport(Glibc)
    import Glibc
#endif

/// FlyingFox's socket pool with Nagle's algorithm turned off on every socket it waits for (TCP_NODELAY; accepted
/// connections inherit it from the listening socket on Linux, and are set again when they first wait).
///
/// Why: a response is written as a header and then a body; with Nagle on, the body's last partial segment waits
/// for the client's delayed acknowledgement of what went before, which added about 40 ms to one live-view update in
/// ten on this machine.
struct NoDelaySocketPool: AsyncSocketPool {
    let base: any AsyncSocketPool

    func prepare() async throws { try await base.prepare() }

    func run() async throws { try await base.run() }

    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        var on: Int32 = 1
        _ = setsockopt(
            socket.file.rawValue, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        try await base.suspendSocket(socket, untilReadyFor: events)
    }
}
