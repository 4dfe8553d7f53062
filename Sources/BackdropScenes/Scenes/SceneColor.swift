/// A layer's colour in a scene file: `"#RRGGBB"` (opaque) or `"#RRGGBBAA"`, straight (not premultiplied) sRGB
/// bytes, as a designer writes them.
public struct SceneColor: Sendable, Equatable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// The colour `text` spells, or nil when it is not `#` and six or eight hexadecimal digits.
    public init?(hex text: String) {
        let digits = Array(text.utf8)
        guard digits.first == UInt8(ascii: "#"), digits.count == 7 || digits.count == 9 else { return nil }
        var bytes: [UInt8] = []
        var index = 1
        while index < digits.count {
            guard let high = digits[index].hexadecimalDigitValue, let low = digits[index + 1].hexadecimalDigitValue
            else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self.init(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes.count == 4 ? bytes[3] : 255)
    }

    /// "#RRGGBB", or "#RRGGBBAA" when not opaque.
    public var description: String {
        let bytes = alpha == 255 ? [red, green, blue] : [red, green, blue, alpha]
        return "#" + bytes.map { byte in String(byte, radix: 16, uppercase: true).leftPadded(to: 2) }.joined()
    }

    /// The defaults a layer without `color` draws in: sensible greys, light for fills and dark for glyphs.
    public static let defaultFill = SceneColor(red: 0xD8, green: 0xD8, blue: 0xD8)
    public static let defaultText = SceneColor(red: 0x33, green: 0x33, blue: 0x33)
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
