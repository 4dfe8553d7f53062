import Foundation
import NIOCore

/// The connections a server serves, at most ``HTTPLimits/connections`` at once, and who gives way when one more
/// arrives.
///
/// Policy: a new connection is served while fewer than the cap are open. At the cap it takes the place of the
/// connection that has waited longest for its client (no request yet, or a head or a body still arriving), provided
/// that one has waited at least ``HTTPLimits/evictableSeconds``: that connection is closed. Only when every open
/// connection is making or writing an answer, or has waited less than that, is the new one answered 503. So clients
/// that open connections and trickle bytes into them (a "slowloris") hold the server's places only until ordinary
/// requests arrive, while a burst of new connections never closes one whose request is on its way.
///
/// Used on the server's one event loop (the connections' handlers live there); the count is also read elsewhere,
/// under the lock.
final class HTTPConnections: @unchecked Sendable {
    private let lock = NSLock()
    private var open: [ObjectIdentifier: HTTPConnectionHandler] = [:]
    let limits: HTTPLimits

    init(limits: HTTPLimits) { self.limits = limits }

    /// How many are open.
    var count: Int { lock.withLock { open.count } }

    /// Serves `connection` when there is room, or when the longest-waiting connection can be evicted for it (then
    /// closed, on the event loop); false when neither: the caller answers 503.
    func admit(_ connection: HTTPConnectionHandler) -> Bool {
        let evicted: HTTPConnectionHandler? = lock.withLock {
            var victim: HTTPConnectionHandler?
            if open.count >= limits.connections {
                let latest = NIODeadline.now() - HTTPConnectionHandler.amount(limits.evictableSeconds)
                victim =
                    open.values
                    .compactMap { handler in handler.waitingForClientSince.map { (handler, $0) } }
                    .filter { $0.1 <= latest }
                    .min { $0.1 < $1.1 }?.0
                guard let victim else { return nil }
                open[ObjectIdentifier(victim)] = nil
            }
            open[ObjectIdentifier(connection)] = connection
            return victim ?? connection
        }
        guard let evicted else { return false }
        if evicted !== connection { evicted.evict() }
        return true
    }

    /// The connection `id` (its handler's `ObjectIdentifier`) has closed.
    func remove(_ id: ObjectIdentifier) {
        lock.withLock { _ = open.removeValue(forKey: id) }
    }
}
