/// Every failure Backdrop reports to a user: one line that names the file or option and the problem.
public struct BackdropError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure, for exit codes and tests.
    public enum Kind: String, Sendable, Equatable {
        /// The input could not be read or decoded (missing, corrupt, truncated, not a PNG, too large).
        case badInput
        /// An option's value does not make sense (unknown style, frame outside the image, …).
        case badOption
        /// The output could not be written.
        case output
        /// The work was stopped by a ``RenderCancellation`` before it finished.
        case cancelled
    }

    /// What kind of failure.
    public let kind: Kind
    /// The whole message, one line.
    public let message: String

    /// An error of `kind` with a one-line `message`. Control characters (a newline inside a file name or an
    /// option's value, found by Fuzz/FuzzOptions) are written as escapes, so the message stays one line.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message.escapingControlCharacters
    }

    /// The message.
    public var description: String { message }
}

extension String {
    /// The text with every control character (a newline, an escape sequence, a NUL) and every bidirectional
    /// control (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069: they reorder what a terminal shows) written
    /// as its escape (`\n`, `\u{1B}`, `\0`, `\u{202E}`): what a terminal line, a table cell or an XML text may show
    /// of a name that came from outside (a file name, a scene's, a layer's or a case's name) without the name moving
    /// the cursor, reordering the line or breaking the document.
    public var escapingControlCharacters: String {
        func escaped(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.generalCategory == .control || Self.bidiControls.contains(scalar.value)
        }
        guard unicodeScalars.contains(where: escaped) else { return self }
        var line = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if escaped(scalar) {
                line.append(contentsOf: scalar.escaped(asASCII: true).unicodeScalars)
            } else {
                line.append(scalar)
            }
        }
        return String(line)
    }

    /// The bidirectional formatting characters (Unicode's Bidi_Control property): they reorder what a terminal shows.
    public static let bidiControls: Set<UInt32> = [
        0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
    ]

    /// The text of a NUL-terminated C message buffer (as filled by the C targets).
    init(cMessage buffer: [CChar]) {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        self.init(decoding: bytes, as: UTF8.self)
    }
}
