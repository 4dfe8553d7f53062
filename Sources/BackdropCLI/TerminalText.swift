import Backdrop

/// Every line a command prints to standard output goes through here (this module's `print` shadows the standard
/// library's): each line's control characters and bidirectional controls are written as escapes
/// (`String.escapingControlCharacters`), so a name that came from outside (a file, a case, a scene or a layer) can
/// neither forge a line, move the cursor, nor reorder what the terminal shows. Line breaks between lines are kept.
/// JSON goes through ``printJSON(_:)`` instead, whose escapes stay valid JSON.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let text = items.map { "\($0)" }.joined(separator: separator)
    Swift.print(text.escapingControlCharactersByLine, terminator: terminator)
}

/// Prints JSON text: the encoder has escaped its control characters; the bidirectional controls it leaves as they
/// are become `\uXXXX` escapes, which JSON readers decode to the same strings.
func printJSON(_ text: String, terminator: String = "\n") {
    var escaped = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        if String.bidiControls.contains(scalar.value) {
            escaped.append(contentsOf: String(format: "\\u%04X", scalar.value).unicodeScalars)
        } else {
            escaped.append(scalar)
        }
    }
    Swift.print(String(escaped), terminator: terminator)
}

extension String {
    /// `escapingControlCharacters` applied to each line, the line breaks kept.
    var escapingControlCharactersByLine: String {
        split(separator: "\n", omittingEmptySubsequences: false).map { String($0).escapingControlCharacters }
            .joined(separator: "\n")
    }
}
