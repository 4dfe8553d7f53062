import BackdropScenes

extension EvidenceCoverage {
    /// The case studies' envelope, computed from their scenes and planned frames: what ``EvidenceCoverage/envelope``
    /// stores.
    public static func computedEnvelope() -> Envelope {
        var radius = 0.0, layers = 0, pixels = 0
        for row in CaseStudy.all {
            let scene = BuiltInScenes.named(row.sceneName)!
            radius = max(radius, largestShadowRadius(scene.layers))
            layers = max(layers, SceneWork(scene).layerInstances)
            pixels = max(pixels, offscreenPixels(row.passes))
        }
        return Envelope(shadowRadius: radius, layerInstances: layers, offscreenPixels: pixels)
    }
}
