import BackdropScenes

/// The checks the cost model must pass beyond the figures it is fitted to (`docs/cost-model.md`,
/// "Beyond the two measured devices"), computed the way the tests and `backdrop estimate --model` read them.
public enum ModelChecks {
    /// A plain full-screen opaque image on `device`: the layer seed figure O4 speaks of.
    public static func fullScreenImage(on device: Device) -> Scene {
        let points = device.screenPoints
        var layer = SceneLayer(name: "image", frame: PointRect(x: 0, y: 0, width: points.width, height: points.height))
        layer.content = .image
        layer.opaque = true
        return Scene(name: "full-screen image", layers: [layer])
    }

    /// O4: how many times `device` can draw a plain full-screen textured layer in one 60 Hz frame (at least 2.5).
    public static func fillsPerFrame(on device: Device, estimator: Estimator) -> Double {
        let frame = try! estimator.estimate(scene: fullScreenImage(on: device), device: device).frame
        return FrameTimeline.budgetMs / frame.totalMs
    }

    /// The tint-only fallback on `device`: the full-screen light style without vibrancy.
    public static func fallback(on device: Device, estimator: Estimator) -> Estimate {
        try! estimator.estimate(device: device, style: .light, vibrancy: false, path: .tintOnly)
    }

    /// The devices on which iOS 7 shipped the tint-only fallback (seed B4).
    public static var fallbackDevices: [Device] { Device.all.filter { $0.iOS7Blur == .tintOnly } }
}
