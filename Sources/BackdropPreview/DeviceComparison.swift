import Backdrop
import Foundation

/// The side-by-side view (`GET /compare.json?…&devices=ID,ID|FILTER|all`, FILTER as ``DeviceSelection`` reads it): the same frame over the picture, or the same
/// scene, on several devices at once.
///
/// Contract: each device's picture is one ``RenderRequest``, the query's with `device` set to the device's id, so
/// its scale is the device's (unless the query gives `scale`) and its path the one the device draws (unless the
/// query gives `path`): Apple's iOS 7 policy, as `backdrop render --device` draws it (``EffectOptions``). That request
/// is what the device's picture URL carries (`query`) and what its copied command line prints (`command`), so the
/// command draws the device's picture byte for byte. Each device is priced on the path its picture is drawn on, so
/// picture and price never disagree. A device the view does not fit on is listed under `refused` with the reason in
/// points ("the view is 400 pt wide, the screen 320 pt"), as is one its request is refused on; an error common to
/// every device (a bad style, an unknown scene) is the answer's 400 instead. image-effects is drawn but not priced
/// (the cost model prices the system blur): its devices carry no estimate.
enum DeviceComparison {
    /// One device's picture and price.
    struct Shown: Encodable {
        let device: String
        let deviceName: String
        /// The picture's pixels per point.
        let scale: Double
        /// The device's screen and the view (the frame, or the scene's screen) in points.
        let screenPoints: [Double]
        let viewPoints: [Double]
        /// The device's request as a query (``PreviewQuery/text(of:)``) and as the command line that draws it.
        let query: String
        let command: String
        /// Why the path was chosen ("ipad-2: tint-only, as Apple's iOS 7 shipped it (seed B4); …").
        let note: String
        /// The price of an effect view, or of a scene (`backdrop estimate --format json`'s record).
        let estimate: EstimateRecord?
        let sceneEstimate: SceneRecord?
    }

    /// A device the view is not shown on, and why.
    struct Refused: Encodable {
        let device: String
        let deviceName: String
        let reason: String
    }

    struct Answer: Encodable {
        let shown: [Shown]
        let refused: [Refused]
    }

    /// The devices as both pages' config lists them: id, name and scale, and the title of the group its side-by-side
    /// checkbox goes under (``DeviceSelection/groups(_:)``), in the table's order.
    static func pageDevices() -> [[String: Any]] {
        DeviceSelection.groups(Device.all).flatMap { group in
            group.devices.map { ["id": $0.id, "name": $0.name, "scale": $0.scale, "group": group.title] }
        }
    }

    /// The answer to `query` (the page's query and `devices`) over the state's picture and uploads.
    static func answer(_ query: [String: String], state: PreviewState) throws(BackdropError) -> Answer {
        var query = query
        guard let ids = query.removeValue(forKey: "devices") else {
            throw BackdropError(.badOption, "give devices=ID,ID,…, devices=FILTER or devices=all")
        }
        if query["device"] != nil { throw BackdropError(.badOption, "the devices are devices=…, not device") }
        // A list of ids keeps its order; any other filter (iphone, 2017+, …) selects in the table's order.
        let terms = ids.split(separator: ",").map(String.init)
        var devices: [Device] = []
        if ids == "all" {
            devices = Device.all
        } else if terms.allSatisfy({ Device.named($0) != nil }) {
            for id in terms {
                let device = try Device.lookup(id)
                if !devices.contains(where: { $0.id == device.id }) { devices.append(device) }
            }
        } else {
            devices = try DeviceSelection.select([ids], spelling: "devices=")
        }
        guard !devices.isEmpty else { throw BackdropError(.badOption, "devices= names no device") }
        let (input, _, vibrancy) = state.snapshot()
        let files = PreviewQuery.files(state, vibrancy: vibrancy)
        let base = try PreviewQuery.request(query, hasVibrancy: vibrancy != nil)
        if let name = base.scene {
            // An unknown scene is the answer's error, not every device's.
            let scene = try files.scene(name)
            try SceneWork.Budget.standard.check(scene, run: .estimate, devices: devices.count)
        } else {
            _ = try base.prepare(files: files, spelling: .key)
        }
        let names = state.names()
        var shown: [Shown] = []
        var refused: [Refused] = []
        for device in devices {
            var request = base
            request.device = device.id
            do throws(BackdropError) {
                shown.append(try self.shown(request, on: device, input: input, files: files, names: names))
            } catch {
                refused.append(Refused(device: device.id, deviceName: device.name, reason: error.message))
            }
        }
        return Answer(shown: shown, refused: refused)
    }

    /// One device's picture and price; an error saying why the view cannot be shown on it.
    private static func shown(
        _ request: RenderRequest, on device: Device, input: RGBAImage<UInt8>, files: RequestFiles,
        names: (input: String, vibrancy: String, scene: String)
    ) throws(BackdropError) -> Shown {
        let prepared = try request.prepare(files: files, spelling: .key)
        var printed = request
        printed.input = request.input.map { _ in names.input }
        printed.vibrancy = request.vibrancy.map { _ in names.vibrancy }
        if printed.scene == PreviewQuery.uploaded { printed.scene = names.scene }
        let command = printed.shellCommand(output: request.scene == nil ? "out.png" : "screen.png")
        let screen = [device.screenPoints.width, device.screenPoints.height]
        let estimator = Estimator()
        func shown(scale: Double, view: [Double], estimate: EstimateRecord?, scene: SceneRecord?) -> Shown {
            Shown(
                device: device.id, deviceName: device.name, scale: scale, screenPoints: screen, viewPoints: view,
                query: PreviewQuery.text(of: request), command: command,
                note: String(prepared.note.drop(while: { $0 == ";" || $0 == " " })), estimate: estimate,
                sceneEstimate: scene)
        }
        switch prepared.work {
        case .effect(let effect, _, _):
            let frame = try RenderPlan.frame(effect.frame, in: input.size)
            let view = try points(of: frame, scale: effect.scale, on: device)
            let estimate = try estimator.estimate(
                device: device, style: effect.style, vibrancy: effect.vibrancy != nil,
                viewPoints: (view[0], view[1]), path: effect.path == .tintOnly ? .tintOnly : .blur,
                accessibility: prepared.accessibility)
            return shown(scale: effect.scale, view: view, estimate: EstimateRecord(estimate), scene: nil)
        case .imageEffects(_, let scale, let frame, _):
            let frame = try RenderPlan.frame(frame, in: input.size)
            return shown(scale: scale, view: try points(of: frame, scale: scale, on: device), estimate: nil, scene: nil)
        case .scene(let scene, _, let path, _, _, _):
            let estimate = try estimator.estimate(
                scene: scene, device: device, path: path,
                accessibility: prepared.accessibility)
            return shown(scale: device.scale, view: screen, estimate: nil, scene: SceneRecord(estimate))
        }
    }

    /// The frame in points at `scale`; an error naming the side that does not fit on the device's screen, both in
    /// points (the comparison is `Estimator.viewPixels`': the view in the device's pixels against its screen's).
    static func points(of frame: PixelRect, scale: Double, on device: Device) throws(BackdropError) -> [Double] {
        let view = [Double(frame.width) / scale, Double(frame.height) / scale]
        let screen = device.screenPoints
        func words(_ value: Double) -> String { String(format: "%g", value) }
        for (side, index, limit, pixels) in [
            ("wide", 0, screen.width, device.screen.width), ("tall", 1, screen.height, device.screen.height),
        ] where (PixelRect.coordinate(view[index] * device.scale) ?? Int.max) > pixels {
            throw BackdropError(
                .badOption, "the view is \(words(view[index])) pt \(side), the screen \(words(limit)) pt")
        }
        return view
    }
}
