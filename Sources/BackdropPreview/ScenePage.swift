import Backdrop
import Foundation

/// The preview's scene mode (`/scenes`): a whole screen as `backdrop render --scene` draws it and as `backdrop
/// estimate --scene` prices it, side by side. Pick a built-in scene or upload a JSON one, a device and an overlay
/// (Instruments' colour debug options), the first frame or the steady one; the table prices the scene on every
/// device (fps, GPU %, offscreen passes, frame ms), the picked device's row marked; the side-by-side view shows the
/// scene on the devices ticked, each with its price and command (``DeviceComparison``). The state is the URL's query,
/// with the API's parameter names. Page/scenes.html, .css and .js with page.css and page.js, served as one document
/// (``PageFiles``); nothing fetched from the network.
enum ScenePage {
    /// The page as served, read once from its files, with the scenes, devices and overlays it offers written in.
    static let html = PageFiles.loaded(make)

    /// Reads the page from its files (``PageFiles/page(_:config:)``).
    static func make() throws(BackdropError) -> String {
        let config: [String: Any] = [
            "scenes": BuiltInScenes.names, "devices": DeviceComparison.pageDevices(),
            "overlays": SceneOverlay.allCases.map(\.rawValue),
        ]
        return try PageFiles.page("scenes", config: config)
    }
}
