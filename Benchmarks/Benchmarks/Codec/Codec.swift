// PNG benchmarks: decoding and encoding apart, in process, on the pictures a render command reads and
// writes. Run with `swift package benchmark --target Codec` in Benchmarks/.
//
// Decoding: the fast path (8-bit RGB and RGBA: chunks and filters in CLibPNG/backdrop_fastpng.c, inflate by
// libdeflate, or ISA-L on a second thread from 4 MiB of rows on; also forced to one thread and to two) beside
// libpng on the same bytes, for the wallpaper (RGB, every row Paeth-filtered) and the coffee (RGB); libpng alone for
// a 16-bit and a palette picture, which only it reads. Encoding: each compression on the wallpaper's render (opaque:
// written as RGB) and on the 16-bit render; the own encoder of `default` and `fast` for 8-bit pictures also on one and on two threads.
// Then the stages apart (PNGCodecStages, the same C functions): for decoding the IDAT gathering, inflate, unfilter and the expansion to RGBA8 (the working
// format), on the wallpaper and the coffee; for encoding the packing and "up" filter, and deflate at each level,
// on the wallpaper's 8-bit and 16-bit renders. libpng's own stages (16-bit, palette) are inside libpng, one call.
@_spi(CodecStages) import Backdrop
import Benchmark
import Foundation

let fixturesFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures")

func bytes(_ relative: String) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: fixturesFolder.appendingPathComponent(relative).path) else {
        fatalError("cannot read Tests/Fixtures/\(relative)")
    }
    return [UInt8](data)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResident],
        timeUnits: .microseconds,
        warmupIterations: 1,
        maxDuration: .seconds(4),
        maxIterations: 100
    )
    let decoder = PNGDecoder()
    for name in ["wallpaper-2048x1536", "coffee"] {
        let file = bytes("photos/\(name).png")
        Benchmark("decode \(name): fast path") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try decoder.decodeCommonCase(file, name: name, as: UInt8.self))
            }
        }
        Benchmark("decode \(name): libpng") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try decoder.decodeWithLibPNG(file, name: name, as: UInt8.self))
            }
        }
    }
    for (label, relative) in [
        ("16-bit", "png/pngsuite/basn6a16.png"), ("palette", "png/pngsuite/basn3p08.png"),
    ] {
        let file = bytes(relative)
        Benchmark("decode \(label) (libpng)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try decoder.decode(file, name: label)) }
        }
    }

    let source = try! decoder.decode(bytes("photos/wallpaper-2048x1536.png"), name: "wallpaper")
    let plan = try! RenderPlan(effect: Effect(style: .light, scale: 2), imageSize: source.size)
    let rendered = Renderer().render(source, plan: plan, as: UInt8.self)
    let rendered16 = Renderer().render(source, plan: plan, as: UInt16.self)
    for compression in PNGEncoder.Compression.allCases where compression != .small {
        let encoder = PNGEncoder(compression: compression)
        Benchmark("encode wallpaper render, 8-bit: \(compression.rawValue)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try encoder.encode(rendered)) }
        }
        Benchmark("encode wallpaper render, 16-bit: \(compression.rawValue)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try encoder.encode(rendered16)) }
        }
    }

    // The 8-bit encoder of `default` and `fast` (CLibPNG/backdrop_png_fast_encoder.c) on one and two threads: filter
    // and compress.
    for threads in [1, 2] {
        Benchmark("encode wallpaper render, 8-bit: own encoder on \(threads) thread\(threads == 1 ? "" : "s")") {
            benchmark in
            for _ in benchmark.scaledIterations { blackHole(PNGCodecStages.encodeOwn(rendered, threads: threads)) }
        }
    }

    for name in ["wallpaper-2048x1536", "coffee"] {
        let file = bytes("photos/\(name).png")
        let (width, height, channels) = PNGCodecStages.header(file)
        let idat = PNGCodecStages.idat(file)
        let inflated = PNGCodecStages.inflate(idat, width: width, height: height, channels: channels)
        var unfiltered = inflated
        PNGCodecStages.unfilter(&unfiltered, width: width, height: height, channels: channels)
        for threads: Int32 in [1, 2] {
            Benchmark("decode \(name): fast path on \(threads) thread\(threads == 1 ? "" : "s")") { benchmark in
                for _ in benchmark.scaledIterations { blackHole(PNGCodecStages.decode(file, threads: threads)) }
            }
        }
        Benchmark("decode \(name), stage: gather IDAT (chunks, CRCs)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(PNGCodecStages.idat(file)) }
        }
        Benchmark("decode \(name), stage: inflate") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(PNGCodecStages.inflate(idat, width: width, height: height, channels: channels))
            }
        }
        Benchmark("decode \(name), stage: unfilter") { benchmark in
            for _ in benchmark.scaledIterations {
                var raw = inflated
                PNGCodecStages.unfilter(&raw, width: width, height: height, channels: channels)
                blackHole(raw)
            }
        }
        Benchmark("decode \(name), stage: expand to RGBA8") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(PNGCodecStages.expand(unfiltered, width: width, height: height, channels: channels))
            }
        }
    }
    for (label, image) in [("8-bit", rendered), ("16-bit", nil)] {
        let filtered = image.map { PNGCodecStages.filter($0) } ?? PNGCodecStages.filter(rendered16)
        Benchmark("encode wallpaper render, \(label), stage: pack and filter") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(image.map { PNGCodecStages.filter($0) } ?? PNGCodecStages.filter(rendered16))
            }
        }
        for compression in PNGEncoder.Compression.allCases where compression != .small {
            Benchmark("encode wallpaper render, \(label), stage: deflate \(compression.rawValue)") { benchmark in
                for _ in benchmark.scaledIterations {
                    blackHole(PNGCodecStages.deflate(filtered, compression: compression))
                }
            }
        }
    }
}
