/// What the preview server accepts from a client, and for how long it waits: every number that bounds the memory,
/// the threads and the time one client can take. A request over a limit is answered with the status named here
/// and `{"error": "…"}`, and its connection is closed; the server goes on.
///
/// Reading is linear in the bytes received: ``HTTPHeadLimiter`` looks at each byte of a head once, however it is
/// split, and NIO's parser (llhttp) is incremental too.
struct HTTPLimits: Sendable {
    /// The request line (`GET /render.png?… HTTP/1.1`): longer is a 414 as soon as that many bytes arrived without
    /// its end. The page's longest query is under 300 bytes.
    var requestLineBytes = 8 * 1024
    /// The whole head, request line and header fields: more is a 431.
    var headBytes = 32 * 1024
    /// Header fields in one request: more is a 431.
    var headerFields = 100
    /// A body (an uploaded PNG): a `Content-Length` over it is a 413 before a byte of the body is read. The PNG's
    /// own size is checked too, against the pixel limit, as soon as its header has arrived
    /// (``PreviewRoutes``).
    var bodyBytes: Int
    /// Connections served at once; one more takes the place of the one that has waited longest for its client, or
    /// is answered 503 and closed (``HTTPConnections``), so idle sockets can hold only these.
    var connections = 64
    /// How long a connection must have waited for its client (no request yet, or a head or a body arriving) before a
    /// new connection may take its place at the cap: long enough that a request already on its way is read first.
    var evictableSeconds = 1.0
    /// Threads that make answers, off the event loop: more requests than these wait their turn. A render holds its
    /// thread while it waits for the one render thread (``RenderQueue``), at most the render time.
    var answeringThreads = 16
    /// How long a connection may stay silent: before a request starts, and between any two reads within one; and
    /// how long a client may read nothing of its answer. Then it is closed (a 408 when a request had started).
    var idleSeconds = 10.0
    /// How long a request's head may take to arrive from its first byte, however steadily it trickles in
    /// (a slow-headers client, "slowloris"): then a 408. The preview sets it to the idle time.
    var headSeconds = 10.0
    /// How long a body may take to arrive in all: then a 408.
    var bodySeconds = 60.0
    /// How long a render may run: then it is cancelled and answered 503 (``RenderQueue``).
    var renderSeconds = 15.0
    /// Answer bodies held over all connections while their clients read them: one RGBA8 picture of the pixel
    /// limit (4 bytes a pixel), at least 64 MiB and at most 2 GiB. A slow reader holds its one answer until it is
    /// read; an answer that would take the total over this is dropped as soon as it is made and answered 503 with
    /// `Retry-After: 1`, unless no other answer is held (any one answer is sent whole). Answers are made one render
    /// at a time, so however many clients read slowly the server holds at most this plus the answers being made;
    /// each answer is handed to the socket a 64 KiB chunk at a time, as the client reads it.
    var responseBytes: Int

    /// The limits for a server whose uploads may have `maxPixels` pixels: the body limit is what a PNG of that many
    /// 16-bit RGBA pixels, stored uncompressed, takes (8 bytes a pixel and 1 MiB of chunks), at most 1 GiB.
    init(maxPixels: Int) {
        let (bytes, overflow) = maxPixels.multipliedReportingOverflow(by: 8)
        bodyBytes = overflow ? Self.largestBody : min(bytes + 1 << 20, Self.largestBody)
        let (picture, tooMany) = maxPixels.multipliedReportingOverflow(by: 4)
        responseBytes = tooMany ? 1 << 31 : min(max(picture, 64 << 20), 1 << 31)
    }

    /// The largest body any server accepts, whatever its pixel limit.
    static let largestBody = 1 << 30
}
