import BackdropRendering
import BackdropScenes
import Foundation

/// A published measurement the cost model must reproduce (`docs/seed-figures.md`), as the full-screen
/// effect on one device.
public struct SeedFigure: Sendable {
    /// The seed's id, e.g. "B1".
    public let id: String
    /// The device measured.
    public let deviceID: String
    /// The style measured.
    public let style: BlurStyle
    /// Whether vibrant content covered the screen.
    public let vibrancy: Bool
    /// The path measured (B1 and B2 measure the blur on a device that ships tint-only).
    public let path: Effect.Path
    /// The figure, ms (the middle of a range the talk gave as "about" or "26–27").
    public let ms: Double
    /// The range the prediction must land in: ±10 % of the figure, or the talk's own range widened by 10 %.
    public let accepted: ClosedRange<Double>
    /// Whether the fit uses it (false only for V3's reading).
    public let usedInFit: Bool

    /// The device.
    public var device: Device { Device.named(deviceID)! }

    /// The blur and vibrancy figures the model is fitted to and checked against (`CostModelFit.swift`).
    public static let all: [SeedFigure] = [
        SeedFigure("B1", "ipad-3", .extraLight, vibrancy: false, .blur, ms: 18.15),
        SeedFigure("B2", "ipad-3", .light, vibrancy: false, .blur, ms: 14.5),
        SeedFigure("B2", "ipad-3", .dark, vibrancy: false, .blur, ms: 14.5),
        SeedFigure("V4", "ipad-3", .light, vibrancy: true, .tintOnly, ms: 26.5, talkRange: 26...27),
        SeedFigure("V5", "ipad-air", .extraLight, vibrancy: true, .blur, ms: 17.48),
        SeedFigure("V5", "ipad-air", .light, vibrancy: true, .blur, ms: 14),
        SeedFigure("V5", "ipad-air", .dark, vibrancy: true, .blur, ms: 14),
    ]

    /// V3's "base cost from before, 4.59 ms", read as the iPad Air's full-screen light blur without vibrancy.
    /// The talk does not say which device and style it is, so it is not fitted to; docs/cost-model.md
    /// reports the model's prediction beside it.
    public static let v3Reading = SeedFigure(
        "V3", "ipad-air", .light, vibrancy: false, .blur, ms: 4.59, usedInFit: false)

    /// A figure; `accepted` is ±10 % of `ms`, or of the talk's own range when it gave one.
    init(
        _ id: String, _ deviceID: String, _ style: BlurStyle, vibrancy: Bool, _ path: Effect.Path, ms: Double,
        talkRange: ClosedRange<Double>? = nil, usedInFit: Bool = true
    ) {
        self.id = id
        self.deviceID = deviceID
        self.style = style
        self.vibrancy = vibrancy
        self.path = path
        self.ms = ms
        let range = talkRange ?? ms...ms
        accepted = range.lowerBound * 0.9...range.upperBound * 1.1
        self.usedInFit = usedInFit
    }

    /// The figure the talk measured for exactly `estimate` (the full-screen effect on that device, style,
    /// vibrancy and path; V3 as we read it), or nil.
    public static func measuring(_ estimate: Estimate) -> SeedFigure? {
        guard estimate.view == estimate.device.screen else { return nil }
        return (all + [v3Reading]).first {
            $0.deviceID == estimate.device.id && $0.style == estimate.style && $0.vibrancy == estimate.vibrancy
                && $0.path == estimate.path
        }
    }

    /// "B2 14.50 (-6.4 %)": the figure, and the error of `predictedMs` against it.
    public func comparison(with predictedMs: Double) -> String {
        String(format: "%@ %.2f (%+.1f %%)", id, ms, (predictedMs - ms) / ms * 100)
    }

    /// The frame's GPU passes: the full-screen effect view on the figure's path.
    public var passes: [GPUPass] {
        try! Estimator.effectViewPasses(style: style, vibrancy: vibrancy, view: device.screen, path: path, on: device)
    }

    /// The model's prediction of this figure, ms.
    public func predictedMs(by model: CostModel) -> Double {
        model.frame(of: passes, on: device).totalMs
    }
}
