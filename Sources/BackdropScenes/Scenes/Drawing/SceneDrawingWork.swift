import BackdropImageIO

/// The pixel work of drawing a scene's picture, charged command by command against one limit before each command
/// is drawn, so that a small scene file cannot keep a core busy for minutes (``ScenePicture``).
///
/// Contract: a command is charged the pixels it can touch on the canvas it is drawn on (its shape inside its clip
/// and the canvas), times a weight for the work a pixel costs: 1 for a fill or text, 2 for an image, 8 for a shadow
/// (its region) plus 2 × its kernel's taps per cell of its reduced grid, 2 for a group (made and composited), and
/// 16 for an effect view (its passes) plus its vibrant content's commands. ``charge(_:on:)`` throws `.badInput`
/// before the command that would take the total over the limit, so the work done before the refusal is within it.
/// The charge depends only on the drawing and the canvas, never on time or threads.
public struct SceneDrawingWork: Sendable {
    /// The limit of the CLI and the preview: about 12 s of drawing on a 2-core x86-64 machine busy with
    /// other builds (a fill over the largest screen, 2048×1536, took 45 ms: 15 ns a unit; a shadowed one 200 ms),
    /// some 250 times that screen's pixels. The built-in scenes charge a small part of it (each draws in 0.1 s).
    public static let standardLimit = 800_000_000

    /// The limit this drawing is held to.
    public let limit: Int
    /// The work charged so far.
    public private(set) var total = 0

    public init(limit: Int) { self.limit = limit }

    /// Charges `command`, drawn on a canvas over `bounds`; throws `.badInput` when the total would pass ``limit``.
    public mutating func charge(_ command: SceneDrawing.Command, on bounds: PixelRect) throws(BackdropError) {
        total = total.addingSaturating(Self.cost(of: command, on: bounds))
        guard total <= limit else {
            throw BackdropError(
                .badInput,
                "drawing the scene would touch over \(limit) pixel units, more than one picture may: draw fewer or smaller layers, shadows or effect views"
            )
        }
    }

    /// What `command` costs on a canvas over `bounds`.
    static func cost(of command: SceneDrawing.Command, on bounds: PixelRect) -> Int {
        switch command {
        case .fill(let shape, _, _, let clip), .text(let shape, _, _, let clip):
            return pixels(of: shape.intersection(clip), on: bounds)
        case .image(let shape, _, _, _, let clip):
            return pixels(of: shape.intersection(clip), on: bounds).multipliedSaturating(by: 2)
        case .shadow(let shape, let rule, _, let clip):
            let margin = Double(rule.reachPixels + rule.downsample)
            let grown = SceneDrawing.Shape(
                x: shape.x - margin, y: shape.y - margin, width: shape.width + 2 * margin,
                height: shape.height + 2 * margin)
            let region = pixels(of: grown.intersection(clip), on: bounds)
            let cells = region / (rule.downsample * rule.downsample) + 1
            return region.multipliedSaturating(by: 8).addingSaturating(
                cells.multipliedSaturating(by: 2 * rule.reducedKernel.weights.count))
        case .beginGroup(let group):
            let inside = group.intersection(bounds)
            return (max(inside.width, 0) * max(inside.height, 0)).multipliedSaturating(by: 2)
        case .endGroup:
            return 0
        case .effect(let frame, _, _, let vibrancyFrame, let vibrancy):
            let inside = frame.intersection(bounds)
            var cost = (max(inside.width, 0) * max(inside.height, 0)).multipliedSaturating(by: 16)
            if let vibrancyFrame {
                for command in vibrancy { cost = cost.addingSaturating(Self.cost(of: command, on: vibrancyFrame)) }
            }
            return cost
        }
    }

    /// The pixels of `bounds` whose rows and columns `shape`'s bounding box reaches (as the canvas touches them).
    static func pixels(of shape: SceneDrawing.Shape, on bounds: PixelRect) -> Int {
        func span(_ low: Double, _ high: Double, _ start: Int, _ length: Int) -> Int {
            guard low.isFinite, high.isFinite else { return 0 }
            let first = max(start, Int(max(min(low.rounded(.down), 1e9), -1e9)))
            let last = min(start + length, Int(max(min(high.rounded(.up), 1e9), -1e9)))
            return max(last - first, 0)
        }
        return span(shape.x, shape.x + shape.width, bounds.x, bounds.width)
            * span(shape.y, shape.y + shape.height, bounds.y, bounds.height)
    }
}
