// Comparison benchmarks (issue 47): the mean SSIM and pixelmatch's rule on a 4000×3000 pair (12 megapixels), in
// process, decoding excluded. Run with `swift package benchmark --target Compare` in Benchmarks/. The whole-process
// figures (decoding included, `/usr/bin/time -v backdrop compare A B --min-ssim 0.9`) are in docs/golden-testing.md.
//
// The pair: the wallpaper tiled to 4000×3000, and the same with every 7th pixel's colour moved and a block
// repainted, so both measures do their whole work (no identical-pair shortcut).
import Backdrop
import Benchmark
import Foundation

let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures")

func tiled(_ source: RGBAImage<UInt8>, width: Int, height: Int) -> RGBAImage<UInt8> {
    var samples = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let from = ((y % source.height) * source.width + x % source.width) * 4, to = (y * width + x) * 4
            for c in 0..<4 { samples[to + c] = source.samples[from + c] }
        }
    }
    return RGBAImage(width: width, height: height, samples: samples)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResident],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(10),
        maxIterations: 20
    )
    guard
        let data = FileManager.default.contents(
            atPath: fixtures.appendingPathComponent("photos/wallpaper-2048x1536.png").path)
    else { fatalError("cannot read the wallpaper: Tests/Fixtures/photos must be in the checkout") }
    let expected = tiled(try! PNGDecoder().decode([UInt8](data), name: "wallpaper"), width: 4000, height: 3000)
    var samples = expected.samples
    for index in stride(from: 0, to: samples.count, by: 28) { samples[index] &+= 9 }
    for y in 1000..<1200 {
        for x in 2000..<2300 { samples[(y * 4000 + x) * 4 + 1] = 0 }
    }
    let actual = RGBAImage(width: 4000, height: 3000, samples: samples)
    Benchmark("SSIM 4000×3000") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(StructuralSimilarity.mean(expected, actual)) }
    }
    Benchmark("pixelmatch rule 4000×3000") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(PerceptualDifference.count(expected, actual, rule: PerceptualRule()))
        }
    }
    Benchmark("pixelmatch diff picture 4000×3000") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(PerceptualDifference.diffPicture(expected: expected, actual: actual, rule: PerceptualRule()))
        }
    }
}
