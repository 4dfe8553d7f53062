// Render benchmarks: the fullscreen iPad retina case (wallpaper-2048x1536.png at scale 2, the whole picture is
// the frame), in-process, decode and encode excluded. Run with `swift package benchmark` in Benchmarks/.
//
// Every style × {fast, exact} × {OpenMP, Dispatch}, plus a baseline measured in the same run: a plain copy of
// the input's bytes to an output buffer, the least any full-frame effect must cost (one read, one write).
// Vibrancy: extraLight fast with fullscreen vibrant content (2048×1536, generated here, alpha never 0 so that
// every pixel goes through the filter) beside the same effect without it, so the cost of passes 6–7 shows.
// Scenes: `backdrop render --scene`'s picture of two built-in scenes on the iPad Air, whose screen is the
// wallpaper's 2048×1536, beside "light fast openMP" of the same run: the cost of drawing a screen against that of
// rendering a picture of its size.
// UIImage+ImageEffects: `--algorithm image-effects` in each of its three styles, OpenMP, beside the same
// baseline: three d × d box passes over the whole frame, so several times the fast path's work.
// Materials: each iOS 13 system material (fixed light and dark variants) and iOS 26's glass in both appearances, fast,
// OpenMP, beside "light fast openMP".
import Backdrop
import Benchmark
import Foundation

let fixturesFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures")

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResident],
        timeUnits: .microseconds,
        warmupIterations: 2,
        maxDuration: .seconds(4),
        maxIterations: 200
    )
    let path = fixturesFolder.appendingPathComponent("photos/wallpaper-2048x1536.png").path
    let source: RGBAImage<UInt8>
    do {
        source = try PNGDecoder().decodeFile(path)
    } catch {
        fatalError("cannot load the benchmark picture: \(error)")
    }

    Benchmark("baseline: copy 2048×1536 RGBA8") { benchmark in
        for _ in benchmark.scaledIterations {
            var copy = [UInt8](repeating: 0, count: source.samples.count)
            copy.withUnsafeMutableBytes { out in
                source.samples.withUnsafeBytes { out.copyMemory(from: $0) }
            }
            blackHole(copy)
        }
    }

    let content = fullscreenVibrantContent(size: source.size)
    for vibrancy in [false, true] {
        let effect = Effect(
            style: .extraLight, scale: 2,
            vibrancy: vibrancy ? Vibrancy(x: 0, y: 0, contentSize: content.size) : nil)
        let plan = try! RenderPlan(effect: effect, imageSize: source.size)
        Benchmark("vibrancy: extraLight fast \(vibrancy ? "with" : "without") fullscreen content") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(
                    Renderer().render(source, plan: plan, vibrantContent: vibrancy ? content : nil, as: UInt8.self))
            }
        }
    }

    let air = Device.named("ipad-air")!
    for name in ["control-center", "navbar-tabbar-blur"] {
        let scene = BuiltInScenes.named(name)!
        let drawer = ScenePicture(device: air)
        Benchmark("scene \(name) on ipad-air (2048×1536): draw") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try drawer.draw(scene, path: .blur)) }
        }
    }

    for style in [ImageEffectsStyle.light, .extraLight, .dark] {
        let plan = try! ImageEffectsPlan(style: style, scale: 2, frame: nil, imageSize: source.size)
        Benchmark("image-effects \(style.name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try Renderer().render(source, imageEffects: plan)) }
        }
    }

    // Every system material (its fixed light and dark variants) and both glasses in each appearance, fast, OpenMP:
    // the speed of each beside "light fast openMP" of the same run (issue 46 asks within 2× of light).
    for entry in StyleCatalogue.all where entry.light.glass != nil || (entry.light.material != nil && !entry.isAdaptive)
    {
        let variants = entry.isAdaptive ? [("light", entry.light), ("dark", entry.dark)] : [("", entry.light)]
        for (appearance, style) in variants {
            let plan = try! RenderPlan(effect: Effect(style: style, scale: 2), imageSize: source.size)
            Benchmark("material \(entry.name)\(appearance.isEmpty ? "" : " " + appearance) fast openMP") { benchmark in
                for _ in benchmark.scaledIterations { blackHole(Renderer().render(source, plan: plan, as: UInt8.self)) }
            }
        }
    }

    for style in BlurStyle.builtIn {
        for quality in Effect.Quality.allCases {
            for scheduler in Scheduler.allCases {
                let effect = Effect(style: style, scale: 2, quality: quality)
                let plan = try! RenderPlan(effect: effect, imageSize: source.size)
                let renderer = Renderer(parallelism: Parallelism(scheduler: scheduler))
                let configuration = Benchmark.Configuration(maxDuration: .seconds(quality == .exact ? 8 : 4))
                Benchmark("\(style.name) \(quality.rawValue) \(scheduler.rawValue)", configuration: configuration) {
                    benchmark in
                    for _ in benchmark.scaledIterations {
                        blackHole(renderer.render(source, plan: plan, as: UInt8.self))
                    }
                }
            }
        }
    }
}

/// Grey glyph-like content covering the whole picture: diagonal bands of grey, alpha 1…255 (never 0).
func fullscreenVibrantContent(size: PixelSize) -> RGBAImage<UInt8> {
    var samples = [UInt8](repeating: 0, count: size.area * 4)
    for y in 0..<size.height {
        for x in 0..<size.width {
            let index = (y * size.width + x) * 4
            let grey = UInt8(truncatingIfNeeded: 64 + (x + y) % 128)
            samples[index] = grey; samples[index + 1] = grey; samples[index + 2] = grey
            samples[index + 3] = UInt8(1 + (x * 7 + y * 13) % 255)
        }
    }
    return RGBAImage(width: size.width, height: size.height, samples: samples)
}
