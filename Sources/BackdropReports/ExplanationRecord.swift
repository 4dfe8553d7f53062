import BackdropImageIO
import BackdropScenes

/// `backdrop estimate --scene … --explain` as plain data, for JSON: per device, the frame, what bounds it, and each
/// layer that causes offscreen passes there, with the usual fix and what the fix would save (``SceneAdvice``).
/// Every figure is a prediction of the cost model.
public struct ExplanationRecord: Codable, Sendable, Equatable {
    /// One layer that causes offscreen passes.
    public struct Item: Codable, Sendable, Equatable {
        public let layer: String
        /// What makes it go offscreen, with the seed id ("shadow without a path (O5)").
        public let cause: String
        public let fix: String
        /// Its offscreen passes in one frame.
        public let offscreenPasses: Int
        /// The frame with the fix, and what the fix saves, ms.
        public let fixedTotalMs: Double
        public let savedMs: Double
    }

    public let device: String
    public let deviceName: String
    public let scene: String
    /// The device's screen in pixels.
    public let screen: PixelSize
    public let totalMs: Double
    public let fps: Double
    /// 0–100.
    public let gpuPercent: Double
    public let offscreenPasses: Int
    /// What bounds the frame: fill, alu, memory or idle (``FrameTimeline/bound``).
    public let bound: String
    /// Empty when no layer goes offscreen on this device.
    public let items: [Item]

    /// The record of `advice` for `estimate` (the same scene and device).
    public init(_ advice: SceneAdvice, for estimate: SceneEstimate) {
        device = estimate.device.id
        deviceName = estimate.device.name
        scene = estimate.scene.name
        screen = estimate.device.screen
        totalMs = estimate.frame.totalMs
        fps = estimate.frame.fps
        gpuPercent = estimate.frame.gpuPercent
        offscreenPasses = estimate.frame.offscreenPasses
        bound = estimate.frame.bound.rawValue
        items = advice.items.map {
            Item(
                layer: $0.layer, cause: $0.cause, fix: $0.fix, offscreenPasses: $0.offscreenPasses,
                fixedTotalMs: $0.fixedTotalMs, savedMs: $0.savedMs)
        }
    }
}
