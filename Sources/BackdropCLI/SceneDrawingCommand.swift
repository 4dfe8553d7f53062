import ArgumentParser
import Backdrop
import Foundation

extension SceneOverlay: ExpressibleByArgument {}

extension RenderCommand {
    /// `render --scene`: the scene's picture on --device, with --show's overlay, written atomically to -o.
    func drawScene() throws {
        guard let scene, let output else {
            throw BackdropError(.badOption, "--scene needs -o PATH (and --device ID)")
        }
        let conflicting: [(String, Bool)] = [
            ("an input PNG", !inputs.isEmpty), ("--output-dir", outputDir != nil), ("--frame", frame != nil),
            ("--vibrancy", vibrancy != nil), ("--at", at != nil), ("--style", styleOptions.isGiven),
            ("--scale", scale != nil), ("--exact", exact), ("--tint-only", tintOnly), ("--time", timingRuns != nil),
            ("--depth", depth != 8),
        ]
        if let (name, _) = conflicting.first(where: \.1) {
            throw BackdropError(.badOption, "--scene draws the scene's own layers and effect views: leave out \(name)")
        }
        guard let device else { throw BackdropError(.badOption, "--scene needs --device ID (see 'backdrop devices')") }
        let target = try Device.lookup(device)
        let loaded = try BuiltInScenes.load(scene)
        try SceneWork.Budget.standard.check(loaded, run: .picture)
        let parallelism = try threadOptions.resolve()
        let estimator = Estimator()
        let chosen = estimator.path(path, on: target)
        let status = StageStatus.forStandardError()
        defer { status.clear() }
        status.enter("drawing \(loaded.name) on \(target.id)")
        let drawer = ScenePicture(device: target, parallelism: parallelism, maxImagePixels: maxPixels)
        let offset = scrollOffset ?? 0
        guard offset.isFinite, abs(offset) <= 1e6 else {
            throw BackdropError(.badOption, "--scroll-offset \(offset) is out of range (±1000000 points)")
        }
        let (result, drawing) = try drawer.draw(loaded, path: { _ in chosen }, steady: steady, scrollOffset: offset)
        var picture =
            show.map {
                $0.applied(to: result.image, drawing: drawing, imageSizes: result.imageSizes, parallelism: parallelism)
            } ?? result.image
        let size = "\(picture.width)×\(picture.height)"
        status.enter("encoding \(output)")
        try PNGEncoder(compression: compression).write(destroying: &picture, to: output)
        status.clear()
        print(
            "wrote \(output) (\(size), \(loaded.name) on \(target.id), \(drawing.layers.count) layers, effect views \(chosen.rawValue)\(show.map { ", --show \($0.rawValue)" } ?? ""))"
        )
    }
}
