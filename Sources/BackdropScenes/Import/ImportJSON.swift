import BackdropImageIO
import Foundation

/// Reading a design file's JSON for an importer: the document as Foundation objects, and its numbers, each checked
/// finite and within ±``SceneImport/largestCoordinate``, with a one-line error naming the file, the node and the key.
struct ImportJSON {
    let source: String

    func fail(_ problem: String) -> BackdropError { BackdropError(.badInput, "\(source): \(problem)") }

    /// Refuses a layer at `place` that nests past a scene's depth or is past its layer count (``SceneParser``'s
    /// limits), before the layer is read.
    func checkTree(_ place: String, depth: Int, count: Int) throws(BackdropError) {
        guard depth <= SceneParser.maximumDepth else {
            throw fail("\(place) nests deeper than a scene's \(SceneParser.maximumDepth) levels")
        }
        guard count <= SceneParser.maximumLayerInstances else {
            throw fail("more than a scene's \(SceneParser.maximumLayerInstances) layers")
        }
    }

    /// The top-level object of `data`; `kind` names the format expected ("a Figma file") in the error.
    func document(_ data: Data, kind: String) throws(BackdropError) -> [String: Any] {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            throw fail("not \(kind): not valid JSON (\(JSONSyntax.describe(error, in: data)))")
        }
        guard let dictionary = object as? [String: Any] else { throw fail("not \(kind): expected a JSON object") }
        return dictionary
    }

    /// `object[key]` as a number (nil when absent); `place` names the node. Booleans and strings are refused.
    func number(
        _ object: [String: Any], _ key: String, _ place: String, largest: Double = SceneImport.largestCoordinate
    )
        throws(BackdropError) -> Double?
    {
        guard let value = object[key], !(value is NSNull) else { return nil }
        guard !SceneParser.Reader.isBoolean(value), let number = (value as? NSNumber)?.doubleValue else {
            throw fail("\(place): \(key) is not a number")
        }
        guard number.isFinite, abs(number) <= largest else {
            throw fail("\(place): \(key) \(number) is not a finite number within ±\(Int(largest))")
        }
        return number
    }

    /// `object[key]` as true or false (nil when absent).
    func bool(_ object: [String: Any], _ key: String, _ place: String) throws(BackdropError) -> Bool? {
        guard let value = object[key], !(value is NSNull) else { return nil }
        if SceneParser.Reader.isBoolean(value), let flag = value as? Bool { return flag }
        // Sketch writes some flags as 0 and 1.
        if let number = value as? NSNumber, number.doubleValue == 0 || number.doubleValue == 1 {
            return number.doubleValue == 1
        }
        throw fail("\(place): \(key) is not true or false")
    }

    /// A rectangle of four keys (`x`, `y`, `width`, `height`), the size not negative.
    func rect(_ value: Any?, _ place: String, what: String) throws(BackdropError) -> PointRect {
        guard let object = value as? [String: Any] else { throw fail("\(place): no \(what)") }
        var numbers: [Double] = []
        for key in ["x", "y", "width", "height"] {
            guard let number = try number(object, key, "\(place) \(what)") else {
                throw fail("\(place): \(what) has no \(key)")
            }
            numbers.append(number)
        }
        guard numbers[2] >= 0, numbers[3] >= 0 else { throw fail("\(place): \(what) has a negative size") }
        return PointRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    /// A colour of four channels in 0…1 (`r`, `g`, `b`, `a`; Figma's and Sketch's `red`… spellings), its alpha
    /// multiplied by `opacity`.
    func colour(_ value: Any?, _ place: String, opacity: Double = 1) throws(BackdropError) -> SceneColor? {
        guard let object = value as? [String: Any] else { return nil }
        var channels: [Double] = []
        for keys in [["r", "red"], ["g", "green"], ["b", "blue"], ["a", "alpha"]] {
            var found = try number(object, keys[0], place)
            if found == nil { found = try number(object, keys[1], place) }
            let channel = found ?? 1
            guard (0...1).contains(channel) else { throw fail("\(place): colour channel \(channel) is outside 0…1") }
            channels.append(channel)
        }
        channels[3] *= min(max(opacity, 0), 1)
        let bytes = channels.map { UInt8(($0 * 255).rounded()) }
        return SceneColor(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes[3])
    }

    /// A colour's alpha (`a` or `alpha`, 0…1; 1 when absent), as a shadow's opacity takes it.
    func alpha(_ value: Any?, _ place: String) throws(BackdropError) -> Double {
        guard let object = value as? [String: Any] else { return 1 }
        var found = try number(object, "a", place)
        if found == nil { found = try number(object, "alpha", place) }
        let alpha = found ?? 1
        guard (0...1).contains(alpha) else { throw fail("\(place): colour channel \(alpha) is outside 0…1") }
        return alpha
    }

    /// `sigma` if a scene can price it (a shadow's σ up to 1000 pt, a blur's up to 500 pt), else a one-line error:
    /// an input number beyond the scene's range is bad input, never clamped without a word.
    func within(_ sigma: Double, largest: Double, _ place: String, what: String) throws(BackdropError) -> Double {
        guard sigma <= largest else {
            throw fail("\(place): \(what) of σ \(ImportedBlur.format(sigma)) pt is beyond a scene's \(Int(largest)) pt")
        }
        return sigma
    }
}
