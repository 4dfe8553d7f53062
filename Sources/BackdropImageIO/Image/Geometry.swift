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

    /// The largest magnitude of a coordinate or a size that Backdrop takes from outside (an option, a query, a
    /// manifest, a scene): 2³¹, just above PNG's largest dimension (2³¹ − 1). Every number that becomes pixel
    /// geometry is checked against it where it is read, so that any sum or product of two such numbers stays far
    /// inside `Int` and no rectangle arithmetic can trap on overflow, whatever the input.
    public static let coordinateLimit = 1 << 31

    /// Parses "x,y,w,h" (integers; spaces allowed). Returns nil when malformed or when a value lies beyond
    /// ±``coordinateLimit``.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3] else {
            return nil
        }
        self.init(x: x, y: y, width: w, height: h)
        guard isWithinLimits else { return nil }
    }

    /// Parses "x,y,w,h" given as `what` (an option or field name); the error names it and the text.
    public static func parsed(_ text: String, as what: String) throws(BackdropError) -> PixelRect {
        guard let rect = PixelRect(parsing: text) else {
            throw BackdropError(
                .badOption,
                "\(what) '\(text)' is not x,y,w,h (four whole numbers, each within ±\(coordinateLimit))")
        }
        return rect
    }

    /// The rectangle x, y, w, h read from outside as `what`, checked: every value within ±``coordinateLimit``.
    public static func checked(x: Int, y: Int, width: Int, height: Int, as what: String) throws(BackdropError)
        -> PixelRect
    {
        let rect = PixelRect(x: x, y: y, width: width, height: height)
        guard rect.isWithinLimits else {
            throw BackdropError(.badOption, "\(what) \(rect) has a value beyond ±\(coordinateLimit)")
        }
        return rect
    }

    /// Whether x, y, width and height all lie within ±``coordinateLimit``.
    public var isWithinLimits: Bool {
        [x, y, width, height].allSatisfy { $0.magnitude <= UInt(Self.coordinateLimit) }
    }

    /// A pixel coordinate computed in floating point (points × scale), rounded to the nearest whole number; nil
    /// when it is not finite or lies beyond ±``coordinateLimit`` (converting such a value to `Int` would trap).
    public static func coordinate(_ value: Double) -> Int? {
        let rounded = value.rounded()
        guard rounded.isFinite, rounded.magnitude <= Double(coordinateLimit) else { return nil }
        return Int(rounded)
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
        isWithinLimits && x >= 0 && y >= 0 && width > 0 && height > 0 && maxX <= size.width && maxY <= size.height
    }

    /// "x,y,w,h", the form `init(parsing:)` reads.
    public var description: String { "\(x),\(y),\(width),\(height)" }
}

extension PixelRect {
    /// The part inside `other`; zero size when they do not overlap.
    package func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        return PixelRect(
            x: x0, y: y0, width: max(0, min(maxX, other.maxX) - x0), height: max(0, min(maxY, other.maxY) - y0))
    }
}
