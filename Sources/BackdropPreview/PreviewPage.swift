import Backdrop
import Foundation

/// The preview page: Page/preview.html, .css and .js with what it shares with the scenes page (page.css, page.js),
/// served as one document (``PageFiles``); nothing fetched from the network and no build step.
///
/// The picture shows the effect inside a frame drawn over it; dragging the frame moves it, dragging its corner
/// resizes it, and uploaded vibrant content is a second box dragged the same way. The controls set the style
/// (built-ins, or custom σ, saturation, tint, tint alpha), scale, fast/exact, the path, and the device, which sets
/// the scale to the device's and leaves the path to its decision, as `render --device` does. A panel shows the
/// device's estimate for a view of the frame's size (total, verdict, fps) and every device's, with the devices the
/// view does not fit on and why; the timeline spans the picture's column. The picture is fitted to the window at
/// its own resolution (past 1:1 only when asked). The side-by-side view shows the frame on the devices ticked, each
/// as that device draws it (``DeviceComparison``).
///
/// The state is the page's URL query, with the API's parameter names, so a link reproduces a preview (uploads
/// stay on the server); every picture's URL carries the state it shows and the uploads' revision (`rev`), and an
/// answer to an older state than the newest is dropped. Rendering is latest-wins: one request in flight, the newest state next, so dragging never
/// queues more than the server answers. Each update's time, from the first change it answers to the frame in
/// which its picture is shown, is kept in `window.previewTimings` (and the last in `data-last-ms` on the body)
/// for the browser test that measures it.
enum PreviewPage {
    /// The page as served, read once from its files, with the devices and styles it offers written in.
    static let html = PageFiles.loaded(make)

    /// Reads the page from its files (``PageFiles/page(_:config:)``).
    static func make() throws(BackdropError) -> String {
        let devices = DeviceComparison.pageDevices()
        // An approximated style is labelled so in the picker ("glass (approximation)").
        let labels = Dictionary(
            uniqueKeysWithValues: StyleCatalogue.all.filter { $0.evidence == .approximation }.map {
                ($0.name, "\($0.name) (approximation)")
            })
        let config: [String: Any] = [
            "devices": devices, "styles": StyleCatalogue.names, "styleLabels": labels,
            "vibrancyLevels": VibrancyLevel.allCases.map(\.rawValue),
        ]
        return try PageFiles.page("preview", config: config)
    }
}
