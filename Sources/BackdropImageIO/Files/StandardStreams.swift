import Foundation

/// `-` as a file name: an input named `-` is read from standard input, an output named `-` is written to standard
/// output (``InputFile/bytes(of:limit:what:recorded:)`` and ``AtomicFile/write(_:to:)`` send `-` here).
///
/// Contract:
/// - Reading takes what standard input holds until its end, in chunks of 64 KiB, growing the buffer only as bytes
///   arrive: at most `limit` bytes, and never more than ``maximumInputBytes`` whatever the limit; one byte more is
///   an error before it is kept. Standard input that is a terminal (it would wait for typing), that is empty, or
///   that fails is a one-line `.badInput` error: "-: cannot read WHAT (REASON)". A picture read this way is then
///   checked against `--max-pixels` from its header before its pixels are allocated, as a file is.
/// - Writing puts the bytes, and nothing else, on standard output in order, retrying short writes. Standard output
///   that is a terminal is refused before a byte is written (a PNG is binary), as `.output` "-: …".
public enum StandardStreams {
    /// The most standard input may bring: 1 GiB, well above the largest PNG of a 100-megapixel picture.
    public static let maximumInputBytes = 1 << 30

    /// The name that stands for standard input or output.
    public static let name = "-"

    /// The whole of standard input, within `limit` bytes (and ``maximumInputBytes``).
    static func readInput(limit: Int, what: String) throws(BackdropError) -> [UInt8] {
        func failure(_ reason: String) -> BackdropError {
            BackdropError(.badInput, "-: cannot read \(what) (\(reason))")
        }
        if isatty(STDIN_FILENO) != 0 { throw failure("standard input is a terminal: pipe the file in") }
        let cap = min(limit, maximumInputBytes)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure(String(cString: strerror(errno)))
            }
            if n == 0 { break }
            guard bytes.count + n <= cap else { throw failure("standard input is larger than \(cap) bytes") }
            bytes.append(contentsOf: chunk[0..<n])
        }
        if bytes.isEmpty { throw failure("standard input is empty") }
        return bytes
    }

    /// Writes `bytes` to standard output, whole.
    static func writeOutput(_ bytes: UnsafeRawBufferPointer) throws(BackdropError) {
        func failure(_ reason: String) -> BackdropError { BackdropError(.output, "-: \(reason)") }
        if isatty(STDOUT_FILENO) != 0 {
            throw failure("standard output is a terminal: redirect it to a file or a pipe to receive the PNG")
        }
        var written = 0
        while written < bytes.count {
            let n = write(STDOUT_FILENO, bytes.baseAddress! + written, bytes.count - written)
            if n < 0 {
                if errno == EINTR { continue }
                throw failure("cannot write to standard output (\(String(cString: strerror(errno))))")
            }
            written += n
        }
    }
}
