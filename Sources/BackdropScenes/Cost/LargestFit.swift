import BackdropImageIO
import Foundation

/// What still fits in a frame: the largest value of one property of a scene's layer (a shadow's radius, a repeated
/// layer's count, a frame's width or height) that keeps a device at a frame rate, with the range the model's
/// ``PredictionInterval`` gives it.
///
/// Contract: the values searched are whole multiples of the property's ``Property/step`` from its least to its
/// greatest; the answer `largest` is one the estimate says fits (its steady frame, or a static scene's first, at
/// least `fps` frames a second) while `largest + step` does not, found by bisection, which assumes that a larger
/// value never costs less (true of each property here: more pixels or more layers). `nil` when even the least
/// value does not fit; the greatest when every value fits. The range's ends are the same search with every frame
/// time at the interval's high end (the cautious answer) and at its low end.
public struct LargestFit: Sendable, Equatable, Codable {
    /// A property the search can change.
    public enum Property: String, Sendable, CaseIterable, Codable {
        case shadowRadius = "shadow.radius"
        case repeatCount = "repeat.count"
        case frameWidth = "frame.width"
        case frameHeight = "frame.height"

        /// The unit it is in.
        public var unit: String { self == .repeatCount ? "copies" : "pt" }
        /// The search's step.
        public var step: Double { self == .repeatCount ? 1 : 0.5 }
        /// The least value searched.
        public var least: Double { self == .repeatCount ? 1 : 0 }
    }

    public let device: String
    /// "LAYER.PROPERTY", as asked.
    public let find: String
    public let unit: String
    public let fps: Double
    /// The largest value that fits, nil when none does.
    public let largest: Double?
    /// The cautious and the hopeful answer: the interval's high end, then its low end (nil where none fits).
    public let largestRange: [Double?]
    /// The value the scene gives the property now.
    public let current: Double
    /// The greatest value searched.
    public let greatest: Double
    /// The frame's time at the least value searched, ms, and its range ([low, high]): what the frame costs when no
    /// value fits.
    public let leastMs: Double
    public let leastMsRange: [Double]
    /// The least value searched.
    public let least: Double

    enum CodingKeys: String, CodingKey {
        case device, find, unit, fps, largest, largestRange, current, greatest, least, leastMs, leastMsRange
    }

    /// Every key written, `largest` as null where no value fits.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(device, forKey: .device)
        try container.encode(find, forKey: .find)
        try container.encode(unit, forKey: .unit)
        try container.encode(fps, forKey: .fps)
        try container.encode(largest, forKey: .largest)
        try container.encode(largestRange, forKey: .largestRange)
        try container.encode(current, forKey: .current)
        try container.encode(greatest, forKey: .greatest)
        try container.encode(least, forKey: .least)
        try container.encode(leastMs, forKey: .leastMs)
        try container.encode(leastMsRange, forKey: .leastMsRange)
    }

    /// Parses "LAYER.PROPERTY" (the layer's name may contain dots: the property is the known suffix).
    public static func parse(_ text: String) throws(BackdropError) -> (layer: String, property: Property) {
        for property in Property.allCases where text.hasSuffix("." + property.rawValue) {
            let layer = String(text.dropLast(property.rawValue.count + 1))
            if !layer.isEmpty { return (layer, property) }
        }
        throw BackdropError(
            .badInput,
            "'\(text)': expected LAYER.PROPERTY, PROPERTY one of \(Property.allCases.map(\.rawValue).joined(separator: ", "))"
        )
    }

    /// The search for `text` ("card.shadow.radius") in `scene` on `device` at `fps` (1–60).
    public init(
        _ text: String, in scene: Scene, device: Device, fps: Double = 60, estimator: Estimator = Estimator(),
        path: Estimator.PathChoice = .auto
    ) throws(BackdropError) {
        guard fps.isFinite, fps >= 1, fps <= 60 else {
            throw BackdropError(.badOption, "--fps \(fps) is out of range (1…60)")
        }
        let (layerName, property) = try Self.parse(text)
        let current = try Self.value(of: property, layer: layerName, in: scene, find: text)
        let points = device.screenPoints
        let greatest: Double
        switch property {
        case .shadowRadius: greatest = 200
        case .frameWidth: greatest = max(points.width, points.height)
        case .frameHeight: greatest = max(points.width, points.height)
        case .repeatCount:
            // As many copies as the scene work budget allows.
            let one = SceneWork(try Self.setting(property, to: 1, layer: layerName, in: scene))
            let two = SceneWork(try Self.setting(property, to: 2, layer: layerName, in: scene))
            let perCopy = max(two.passesPerFrame - one.passesPerFrame, 1)
            let room = (SceneWork.Budget.standard.passesPerFrame - one.passesPerFrame) / perCopy + 1
            greatest = Double(max(1, min(room, 10_000)))
        }
        let budgetMs = 1000 / fps
        func frameMs(_ value: Double) throws(BackdropError) -> Double {
            let changed = try Self.setting(property, to: value, layer: layerName, in: scene)
            return try estimator.estimate(scene: changed, device: device, path: path).tableFrame.totalMs
        }
        var memo: [Double: Double] = [:]
        func cached(_ value: Double) throws(BackdropError) -> Double {
            if let ms = memo[value] { return ms }
            let ms = try frameMs(value)
            memo[value] = ms
            return ms
        }
        func search(factor: Double) throws(BackdropError) -> Double? {
            let fits = { (value: Double) throws(BackdropError) -> Bool in try cached(value) * factor <= budgetMs + 1e-9
            }
            let step = property.step
            var low = (property.least / step).rounded(.up), high = (greatest / step).rounded(.down)
            guard try fits(low * step) else { return nil }
            if try fits(high * step) { return high * step }
            while high - low > 1 {  // fits(low), not fits(high)
                let middle = ((low + high) / 2).rounded(.down)
                if try fits(middle * step) { low = middle } else { high = middle }
            }
            return low * step
        }
        // The device's own interval: an extrapolated device's is wider (``Device/predictionInterval``).
        let interval = device.predictionInterval
        self.device = device.id
        find = text
        unit = property.unit
        self.fps = fps
        largest = try search(factor: 1)
        largestRange = [try search(factor: exp(interval.highLog)), try search(factor: exp(interval.lowLog))]
        self.current = current
        self.greatest = greatest
        least = (property.least / property.step).rounded(.up) * property.step
        leastMs = try cached(least)
        leastMsRange = [leastMs * exp(interval.lowLog), leastMs * exp(interval.highLog)]
    }

    /// The property's value in `scene` now; an error naming the layer and key where the layer lacks it.
    static func value(of property: Property, layer name: String, in scene: Scene, find: String) throws(BackdropError)
        -> Double
    {
        guard let layer = Self.layer(named: name, in: scene.layers) else {
            throw BackdropError(.badInput, "\(find): the scene has no layer '\(name)'")
        }
        switch property {
        case .shadowRadius:
            guard let shadow = layer.shadow else {
                throw BackdropError(.badInput, "\(find): layer '\(name)' has no shadow")
            }
            return shadow.radius
        case .repeatCount:
            guard let repeats = layer.repeats else {
                throw BackdropError(.badInput, "\(find): layer '\(name)' has no repeat")
            }
            return Double(repeats.count)
        case .frameWidth, .frameHeight:
            if let layout = layer.layout, (property == .frameWidth ? layout.width : layout.height) == nil {
                throw BackdropError(
                    .badInput,
                    "\(find): layer '\(name)''s frame gives no \(property == .frameWidth ? "width" : "height") (it follows its edges)"
                )
            }
            return property == .frameWidth ? layer.frame.width : layer.frame.height
        }
    }

    /// `scene` with the property of every layer named `name` set to `value`.
    public static func setting(_ property: Property, to value: Double, layer name: String, in scene: Scene)
        throws(BackdropError) -> Scene
    {
        var scene = scene
        scene.layers = Self.setting(property, to: value, layer: name, in: scene.layers)
        return scene
    }

    static func setting(_ property: Property, to value: Double, layer name: String, in layers: [SceneLayer])
        -> [SceneLayer]
    {
        layers.map { layer in
            var layer = layer
            if layer.name == name {
                switch property {
                case .shadowRadius: layer.shadow?.radius = value
                case .repeatCount: layer.repeats?.count = Int(value)
                case .frameWidth:
                    layer.frame.width = value
                    if layer.layout?.width != nil { layer.layout?.width = .points(value) }
                case .frameHeight:
                    layer.frame.height = value
                    if layer.layout?.height != nil { layer.layout?.height = .points(value) }
                }
            }
            layer.sublayers = setting(property, to: value, layer: name, in: layer.sublayers)
            if var effect = layer.effect {
                effect.vibrancy = setting(property, to: value, layer: name, in: effect.vibrancy)
                layer.effect = effect
            }
            return layer
        }
    }

    /// The first layer named `name`, depth first.
    static func layer(named name: String, in layers: [SceneLayer]) -> SceneLayer? {
        for layer in layers {
            if layer.name == name { return layer }
            if let found = self.layer(named: name, in: layer.sublayers + (layer.effect?.vibrancy ?? [])) {
                return found
            }
        }
        return nil
    }
}
