import BackdropImageIO

/// How a front end reads the files a ``RenderRequest`` names: pictures (`vibrancy`, `mask`) and scenes. The command
/// line reads paths as given, a golden manifest inside its folder, the preview from what was uploaded to it.
public struct RequestFiles: Sendable {
    /// The picture a field names: (the name, the field's key) → the decoded picture.
    public var picture: @Sendable (String, RenderRequest.CodingKeys) throws(BackdropError) -> RGBAImage<UInt8>
    /// The scene `scene` names.
    public var scene: @Sendable (String) throws(BackdropError) -> Scene
    /// The input a name gives decoded in its own colour space, with that space (`color-space keep`); nil when the
    /// front end has no such reading (``input(keepingColorSpace:)`` then refuses).
    public var keptInput:
        (@Sendable (String) throws(BackdropError) -> (image: RGBAImage<UInt8>, space: PictureColorSpace))?

    public init(
        picture: @escaping @Sendable (String, RenderRequest.CodingKeys) throws(BackdropError) -> RGBAImage<UInt8>,
        scene: @escaping @Sendable (String) throws(BackdropError) -> Scene,
        keptInput: (@Sendable (String) throws(BackdropError) -> (image: RGBAImage<UInt8>, space: PictureColorSpace))? =
            nil
    ) {
        self.picture = picture
        self.scene = scene
        self.keptInput = keptInput
    }

    /// The one refusal of `color-space keep` where pictures arrive converted (the preview's uploads; files read
    /// without ``keptInput``).
    public static let keepRefusal =
        "color-space keep needs the picture's own file ('backdrop render'): here pictures are read converted to sRGB"

    /// The input `name` names, unconverted, with its colour space; an error when this front end cannot read one so.
    public func input(keepingColorSpace name: String) throws(BackdropError) -> (
        image: RGBAImage<UInt8>, space: PictureColorSpace
    ) {
        guard let keptInput else {
            throw BackdropError(.badOption, Self.keepRefusal)
        }
        return try keptInput(name)
    }

    /// Paths as given, decoded by `decoder`; built-in scenes by name, other scenes as files.
    public static func paths(decoder: ImageDecoder = ImageDecoder()) -> RequestFiles {
        RequestFiles(
            picture: { path, _ throws(BackdropError) in try decoder.decodeFile(path) },
            scene: { name throws(BackdropError) in try BuiltInScenes.load(name) },
            keptInput: { path throws(BackdropError) in try decoder.decodeFile(path, choice: .keep) })
    }
}
