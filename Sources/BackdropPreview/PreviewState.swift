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

    init(input: RGBAImage<UInt8>, name: String?) throws(BackdropError) {
        self.input = input
        inputPNG = try PNGEncoder(compression: .fast).encode(input)
        inputName = name
    }

    func setInput(_ image: RGBAImage<UInt8>) throws(BackdropError) {
        let png = try PNGEncoder(compression: .fast).encode(image)
        lock.withLock {
            input = image
            inputPNG = png
            inputName = nil
        }
    }

    func setVibrancy(_ image: RGBAImage<UInt8>?) { lock.withLock { vibrancy = image } }

    func setScene(_ scene: Scene) { lock.withLock { self.scene = scene } }

    /// The uploaded scene, or nil.
    func uploadedScene() -> Scene? { lock.withLock { scene } }

    func snapshot() -> (input: RGBAImage<UInt8>, png: [UInt8], vibrancy: RGBAImage<UInt8>?) {
        lock.withLock { (input, inputPNG, vibrancy) }
    }

    /// What the page needs to know of the state, as JSON: sizes, the input's name, and the token that lets a
    /// script change the state (``RequestOrigin``).
    func summary(token: String) -> [UInt8] {
        let summary: [String: Any] = lock.withLock {
            var summary: [String: Any] = [
                "width": input.width, "height": input.height, "inputName": inputName ?? "demo-input.png",
                "token": token,
            ]
            if let vibrancy { summary["vibrancy"] = ["width": vibrancy.width, "height": vibrancy.height] }
            return summary
        }
        return [UInt8](
            (try? JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys])) ?? Data("{}".utf8))
    }
}
