/// How wide a line of SVG text is drawn, estimated without a font: the sum of each character's advance, in ems, times
/// the font size. The charts lay their labels out with it, so that no two labels overlap.
///
/// Contract: an upper bound for the fonts the charts name and the ones a browser falls back to: each advance is the
/// larger of Helvetica's (Adobe's published metrics; Arial's and Liberation Sans' are the same) and DejaVu Sans'
/// (the sans-serif of most Linux systems), rounded up to the next 0.02 em. Characters outside the table count as
/// 1 em. Precision: within a few percent above the drawn width for those fonts; a narrower font only leaves more space.
package enum TextWidth {
    /// Width in pixels of `text` at `fontSize` pixels.
    package static func of(_ text: String, fontSize: Double) -> Double {
        text.unicodeScalars.reduce(0) { $0 + advance($1) } * fontSize
    }

    /// One character's advance in ems.
    static func advance(_ c: Unicode.Scalar) -> Double {
        switch c {
        case "i", "j", "l", "'", "|": return 0.30
        case " ", ".", ",", ":", ";", "!", "·": return 0.34
        case "f", "t", "/", "\\": return 0.42
        case "r", "(", ")", "[", "]", "-", "{", "}": return 0.42
        case "I": return 0.32
        case "m": return 1.0
        case "w": return 0.84
        case "M": return 0.88
        case "W": return 1.0
        case "%", "×", "≤", "≥", "→", "±": return 0.96
        case "–", "—": return 1.0
        case "a"..."z": return 0.66
        case "0"..."9": return 0.66
        case "A"..."Z": return 0.80
        default: return 1.0
        }
    }
}
