import BackdropImageIO

/// How a front end reads the files a ``RenderRequest`` names: pictures (`vibrancy`, `mask`) and scenes. The command
/// line reads paths as given, a golden manifest inside its folder, the preview from what was uploaded to it.
public struct RequestFiles: Sendable {
    /// The picture a field names: (the name, the field's key) → the decoded picture.
    public var picture: @Sendable (String, RenderRequest.CodingKeys) throws(BackdropError) -> RGBAImage<UInt8>
    /// The scene `scene` names.
    public var scene: @Sendable (String) throws(BackdropError) -> Scene

    public init(
        picture: @escaping @Sendable (String, RenderRequest.CodingKeys) throws(BackdropError) -> RGBAImage<UInt8>,
        scene: @escaping @Sendable (String) throws(BackdropError) -> Scene
    ) {
        self.picture = picture
        self.scene = scene
    }

    /// Paths as given, decoded by `decoder`; built-in scenes by name, other scenes as files.
    public static func paths(decoder: ImageDecoder = ImageDecoder()) -> RequestFiles {
        RequestFiles(
            picture: { path, _ throws(BackdropError) in try decoder.decodeFile(path) },
            scene: { name throws(BackdropError) in try BuiltInScenes.load(name) })
    }
}
