import Foundation

/// What a long single-file command is doing, on standard error when it is a terminal: one line, rewritten as each
/// stage starts (with the seconds spent so far) and cleared at the end, so that an 8000×6000 exact render does not
/// sit silent for a minute. Nothing is written when standard error is not a terminal (logs and pipes stay as they
/// were), and the command's own output is unchanged either way.
struct StageStatus: Sendable {
    /// Whether the line is shown.
    let onTerminal: Bool
    let start = ContinuousClock.now

    /// A status for this process's standard error.
    static func forStandardError() -> StageStatus { StageStatus(onTerminal: isatty(STDERR_FILENO) == 1) }

    /// Shows `stage` ("decoding in.png", "rendering 8000×6000, exact", …) in place of the previous one.
    func enter(_ stage: String) {
        guard onTerminal else { return }
        let seconds =
            Double((ContinuousClock.now - start).components.attoseconds) / 1e18
            + Double((ContinuousClock.now - start).components.seconds)
        let line = String(format: "backdrop: %@ … (%.1f s)", stage, seconds)
        FileHandle.standardError.write(Data("\r\(line.escapingControlCharacters)\u{1B}[K".utf8))
    }

    /// Removes the line (before the command prints its result or an error).
    func clear() {
        guard onTerminal else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
