import Backdrop

/// The options of a scene request (`/scene.png`, `/scene.json`), with `backdrop render --scene`'s and `backdrop
/// estimate --scene`'s option names: `scene` (a built-in scene's name, or `uploaded` for the scene last posted to
/// `/scene`), `device` (an id; `all` for `/scene.json`), `show` (an overlay), `steady=1` and `path`. Unknown names
/// and bad values are one-line errors naming them.
struct SceneRequest: Sendable {
    /// What `scene=uploaded` names.
    static let uploaded = "uploaded"

    var scene: String
    var deviceID: String
    var show: SceneOverlay?
    var steady: Bool
    var path: Estimator.PathChoice

    static let names: Set<String> = ["scene", "device", "show", "steady", "path"]

    init(query: [String: String]) throws(BackdropError) {
        if let unknown = query.keys.sorted().first(where: { !Self.names.contains($0) }) {
            throw BackdropError(.badOption, "unknown parameter '\(unknown)'")
        }
        guard let scene = query["scene"] else { throw BackdropError(.badOption, "give scene=NAME") }
        guard scene == Self.uploaded || BuiltInScenes.named(scene) != nil else {
            throw BackdropError(
                .badOption,
                "unknown scene '\(scene)' (built in: \(BuiltInScenes.names.joined(separator: ", ")); or \(Self.uploaded))"
            )
        }
        guard let deviceID = query["device"] else { throw BackdropError(.badOption, "give device=ID") }
        self.scene = scene
        self.deviceID = deviceID
        show = try query["show"].map { text throws(BackdropError) in
            guard let overlay = SceneOverlay(rawValue: text) else {
                throw BackdropError(
                    .badOption,
                    "unknown show '\(text)' (known: \(SceneOverlay.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return overlay
        }
        switch query["steady"] {
        case nil, "0", "false": steady = false
        case "1", "true": steady = true
        case let text?: throw BackdropError(.badOption, "steady '\(text)' is not 1 or 0")
        }
        let pathText = query["path"] ?? "auto"
        guard let path = Estimator.PathChoice(rawValue: pathText) else {
            throw BackdropError(.badOption, "unknown path '\(pathText)'")
        }
        self.path = path
    }

    /// The devices asked for: one, or every device for `all`.
    func devices(allowingAll: Bool) throws(BackdropError) -> [Device] {
        if deviceID == "all" {
            guard allowingAll else { throw BackdropError(.badOption, "device=all is for /scene.json") }
            return Device.all
        }
        return [try Device.lookup(deviceID)]
    }
}
