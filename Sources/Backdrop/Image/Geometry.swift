import Foundation

/// A size in pixels.
public struct PixelSize: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// A size of `width` × `height` pixels.
    public init(width: Int, height: Int) { self.width = width; self.height = height }
    /// width × height.
    public var area: Int { width * height }
    /// "W×H".
    public var description: String { "\(width)×\(height)" }
}

/// An axis-aligned rectangle in pixels: origin at the top-left, x to the right, y down.
public struct PixelRect: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// The rectangle at (x, y) of the given size.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The rectangle covering a whole picture of `size`.
    public init(covering size: PixelSize) { self.init(x: 0, y: 0, width: size.width, height: size.height) }

    /// Parses "x,y,w,h" (integers; spaces allowed). Returns nil when malformed.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3] else {
            return nil
        }
        self.init(x: x, y: y, width: w, height: h)
    }

    /// Parses "x,y,w,h" given as `what` (an option or field name); the error names it and the text.
    public static func parsed(_ text: String, as what: String) throws(BackdropError) -> PixelRect {
        guard let rect = PixelRect(parsing: text) else {
            throw BackdropError(.badOption, "\(what) '\(text)' is not x,y,w,h (four whole numbers)")
        }
        return rect
    }

    /// Width × height.
    public var size: PixelSize { PixelSize(width: width, height: height) }
    /// One past the right edge.
    public var maxX: Int { x + width }
    /// One past the bottom edge.
    public var maxY: Int { y + height }
    /// True when it covers no pixel.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// True when every pixel of the rectangle lies inside a picture of `size`.
    public func fits(in size: PixelSize) -> Bool {
        x >= 0 && y >= 0 && width > 0 && height > 0 && maxX <= size.width && maxY <= size.height
    }

    /// "x,y,w,h", the form `init(parsing:)` reads.
    public var description: String { "\(x),\(y),\(width),\(height)" }
}
