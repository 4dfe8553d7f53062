import Backdrop
import Foundation

/// The preview's queries, read as ``RenderRequest``s with the CLI's option names without their dashes (`style`,
/// `frame=x,y,w,h`, `exact=1`, `scene`, `show`, …): the same checks and the same words as `backdrop render`, and
/// the command the page copies is printed from the same request (``RenderRequest/shellCommand(output:)``).
/// Files are the server's own: a query names none (`input`, `vibrancy`, `mask` are unknown parameters; `depth` too,
/// the page being 8-bit); the uploaded picture and vibrant content stand in for them. `color-space keep` is refused:
/// uploads are converted to sRGB once, when they arrive.
enum PreviewQuery {
    /// What `scene=uploaded` names: the scene last posted to `/scene`.
    static let uploaded = "uploaded"

    /// The keys no query gives.
    static let serverOwned: Set<RenderRequest.CodingKeys> = [.input, .vibrancy, .mask, .depth]

    /// The request `query` makes: a scene when it names `scene`, otherwise the effect over the uploaded picture,
    /// with the vibrant content when there is some and the algorithm draws it (the system blur's).
    static func request(_ query: [String: String], hasVibrancy: Bool) throws(BackdropError) -> RenderRequest {
        var request = try RenderRequest(
            query: query, accepting: Set(RenderRequest.CodingKeys.allCases).subtracting(serverOwned))
        guard request.scene == nil else { return request }
        if request.colorSpace == ColorSpaceChoice.keep.rawValue {
            // The upload is decoded once, converted to sRGB, and the page shows sRGB pictures.
            throw BackdropError(.badOption, RequestFiles.keepRefusal)
        }
        request.input = "input"
        if hasVibrancy, request.algorithm != RenderRequest.Algorithm.imageEffects.rawValue {
            request.vibrancy = "vibrancy"
        }
        return request
    }

    /// The files a request reads: the vibrant content uploaded, and built-in scenes or the one uploaded.
    static func files(_ state: PreviewState, vibrancy: RGBAImage<UInt8>?) -> RequestFiles {
        RequestFiles(
            picture: { _, _ throws(BackdropError) in
                guard let vibrancy else { throw BackdropError(.badOption, "no vibrant content uploaded") }
                return vibrancy
            },
            scene: { name throws(BackdropError) in
                if let builtIn = BuiltInScenes.named(name) { return builtIn }
                guard name == uploaded else {
                    throw BackdropError(
                        .badOption,
                        "unknown scene '\(name)' (built in: \(BuiltInScenes.names.joined(separator: ", ")); or \(uploaded))"
                    )
                }
                guard let scene = state.uploadedScene() else {
                    throw BackdropError(.badOption, "no scene uploaded yet: POST one to /scene")
                }
                return scene
            })
    }

    /// The query that spells `request` (the inverse of ``request(_:hasVibrancy:)``): each given field but the
    /// server's own files, in ``RenderRequest/CodingKeys`` order, a flag as `1`, percent-encoded. What a picture's URL
    /// carries on the side-by-side view, one request per device.
    static func text(of request: RenderRequest) -> String {
        let data = (try? JSONEncoder().encode(request)) ?? Data()
        let fields = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        var components = URLComponents()
        components.queryItems = RenderRequest.CodingKeys.allCases.compactMap { key in
            guard !serverOwned.contains(key), let value = fields[key.rawValue] else { return nil }
            if let flag = value as? Bool, ["steady", "exact", "tint-only"].contains(key.rawValue) {
                return flag ? URLQueryItem(name: key.rawValue, value: "1") : nil
            }
            return URLQueryItem(name: key.rawValue, value: "\(value)")
        }
        // URLComponents leaves `+` as it is, which a query reads as a space.
        return (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
    }

    /// A positive whole number, `display-width` (``FrameView``), when the query gives one.
    static func displayWidth(_ text: String?) throws(BackdropError) -> Int? {
        guard let text else { return nil }
        guard let width = Int(text), width > 0 else {
            throw BackdropError(.badOption, "display-width '\(text)' is not a positive whole number")
        }
        return width
    }
}
