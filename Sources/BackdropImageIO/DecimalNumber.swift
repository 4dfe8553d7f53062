/// A number as people write it in a scene, a query or an option's list: optional sign, decimal digits with an
/// optional fraction, an optional exponent (`12`, `-0.5`, `.5`, `1e-3`), and nothing else. Swift's `Double(_:)` also
/// reads hexadecimal (`0x10` is 16), `nan`, `inf` and `infinity`: none is a number a user meant here (issue 70 item 8:
/// `"0x10%"` was read as a 16 % frame). Surrounding spaces are not allowed; callers trim where their format does.
public enum DecimalNumber {
    /// The finite value `text` spells, or nil when it is not written as above or does not fit in a `Double`.
    public static func parse<Text: StringProtocol>(_ text: Text) -> Double? {
        var digitsBeforeExponent = 0
        var index = text.utf8.startIndex
        let bytes = text.utf8
        func take(_ accept: (UInt8) -> Bool) -> Bool {
            guard index < bytes.endIndex, accept(bytes[index]) else { return false }
            index = bytes.index(after: index)
            return true
        }
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        _ = take { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }
        while take(isDigit) { digitsBeforeExponent += 1 }
        if take({ $0 == UInt8(ascii: ".") }) {
            while take(isDigit) { digitsBeforeExponent += 1 }
        }
        guard digitsBeforeExponent > 0 else { return nil }
        if take({ $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            _ = take { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }
            var exponentDigits = 0
            while take(isDigit) { exponentDigits += 1 }
            guard exponentDigits > 0 else { return nil }
        }
        guard index == bytes.endIndex, let value = Double(String(text)), value.isFinite else { return nil }
        return value
    }
}
