import Backdrop
import Foundation

/// What the preview shows: the picture (and its PNG, served as `/input.png`), its name, and the vibrant content.
/// Shared by the connection threads; each read takes a consistent snapshot.
final class PreviewState: @unchecked Sendable {
    private let lock = NSLock()
    private var input: RGBAImage<UInt8>
    private var inputPNG: [UInt8]
    /// The input's file name, for the command line the page copies (nil: the demo picture, `backdrop demo`'s).
    private var inputName: String?
    private var vibrancy: RGBAImage<UInt8>?
    /// The scene last posted to `/scene` (`scene=uploaded`).
    private var scene: Scene?
    /// The uploaded vibrant content's and scene's file names, when the page gave them.
    private var vibrancyName: String?
    private var sceneName: String?
    /// How many uploads changed the state: the pages put it in every picture's URL (`rev`), so that a picture of
    /// other uploads is never taken from the browser's cache.
    private var revision = 0

    init(input: RGBAImage<UInt8>, name: String?) throws(BackdropError) {
        self.input = input
        inputPNG = try PNGEncoder(compression: .fast).encode(input)
        inputName = name
    }

    func setInput(_ image: RGBAImage<UInt8>, name: String?) throws(BackdropError) {
        let png = try PNGEncoder(compression: .fast).encode(image)
        lock.withLock {
            input = image
            inputPNG = png
            inputName = name
            revision += 1
        }
    }

    func setVibrancy(_ image: RGBAImage<UInt8>?, name: String?) {
        lock.withLock {
            (vibrancy, vibrancyName) = (image, name)
            revision += 1
        }
    }

    func setScene(_ scene: Scene, name: String?) {
        lock.withLock {
            (self.scene, sceneName) = (scene, name)
            revision += 1
        }
    }

    /// The file names the copied command line uses: the input's, the vibrant content's and the uploaded scene's
    /// (placeholders in capitals when unknown).
    func names() -> (input: String, vibrancy: String, scene: String) {
        lock.withLock { (inputName ?? "demo-input.png", vibrancyName ?? "CONTENT.png", sceneName ?? "SCENE.json") }
    }

    /// A `Backdrop-Name` header's file name: percent-decoded, its last path component, printable; nil otherwise.
    static func fileName(_ header: String) -> String? {
        let name = PathComponents.lastComponent(of: header.removingPercentEncoding ?? header)
        guard !name.isEmpty, name.count <= 255,
            !name.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 32 } == true })
        else { return nil }
        return name
    }

    /// The uploaded scene, or nil.
    func uploadedScene() -> Scene? { lock.withLock { scene } }

    func snapshot() -> (input: RGBAImage<UInt8>, png: [UInt8], vibrancy: RGBAImage<UInt8>?) {
        lock.withLock { (input, inputPNG, vibrancy) }
    }

    /// What the page needs to know of the state, as JSON: sizes, the input's name, the uploads' `revision`, and the
    /// token that lets a script change the state (``RequestOrigin``).
    func summary(token: String) -> [UInt8] {
        let summary: [String: Any] = lock.withLock {
            var summary: [String: Any] = [
                "width": input.width, "height": input.height, "inputName": inputName ?? "demo-input.png",
                "token": token, "revision": revision,
            ]
            if let vibrancy { summary["vibrancy"] = ["width": vibrancy.width, "height": vibrancy.height] }
            return summary
        }
        return [UInt8](
            (try? JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys])) ?? Data("{}".utf8))
    }
}
