import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// The renderer's C kernels for x86-64-v3 (`backdrop_vector_kernels.h`) against the portable loops they stand in for:
/// the same command gives the same bytes with the kernels and with BACKDROP_VECTOR_KERNELS=off, over the cases that
/// reach every kernel and its edges (odd frame widths and heights for the blur's and the tint's last pixels, k = 4,
/// 6, 8 and 12 for the upscale's runs, pictures with and without transparency for the capture's strips, vibrant
/// content, 16-bit output, the tint-only path and exact mode, a system material's colour filters, Liquid Glass's
/// face; and the ImageEffects plan's box, colour and composite kernels).
@Suite("Vector kernels")
struct VectorKernelTests {
    /// Whether /proc/cpuinfo lists AVX2 and FMA: where the kernels must run.
    static var cpuHasAVX2AndFMA: Bool {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let flags = info.split(separator: "\n").first(where: { $0.hasPrefix("flags") })
        else { return false }
        let names = Set(flags.split(separator: " ").map(String.init))
        return names.contains("avx2") && names.contains("fma")
    }

    /// Without this, a CPU check that never says yes would leave the test below comparing the portable loops with
    /// themselves.
    @Test func theKernelsRunWhereTheCPUHasAVX2AndFMA() {
        #if arch(x86_64) && os(Linux)
            #expect(VectorKernels.available == Self.cpuHasAVX2AndFMA)
            #expect(VectorKernels.name == (Self.cpuHasAVX2AndFMA ? "x86-64-v3" : "portable"))
        #else
            #expect(!VectorKernels.available)
        #endif
    }

    static let cases: [[String]] = {
        let photo = Fixtures.path("photos/coffee.png")
        let transparent = Fixtures.path("photos/logo-alpha.png")
        let glyphs = Fixtures.path("photos/glyphs-alpha.png")
        return [
            [photo, "--style", "light", "--scale", "2"],  // k = 12
            [photo, "--style", "dark", "--scale", "2", "--frame", "13,7,571,383"],  // k = 8, odd sizes
            [photo, "--style", "extraLight", "--frame", "1,2,301,199"],  // k = 4, tint layer
            [
                photo, "--style", "custom", "--sigma", "9", "--saturation", "0.3", "--tint", "0.2,0.4,0.9",
                "--tint-alpha", "0.3", "--scale", "2",
            ],  // k = 6, a desaturating custom style
            [transparent, "--style", "light", "--scale", "2", "--frame", "3,5,487,491"],
            [photo, "--style", "light", "--scale", "2", "--vibrancy", glyphs, "--at", "61,33"],
            [photo, "--style", "dark", "--scale", "2", "--frame", "20,10,517,301", "--vibrancy", glyphs],
            [photo, "--style", "light", "--scale", "2", "--depth", "16"],
            [photo, "--style", "dark", "--path", "tint-only"],
            [photo, "--style", "light", "--exact", "--frame", "5,5,203,117"],
            // A system material's filters: 8-pixel blocks and the last pixels of a row (⌈487/4⌉ = 122 = 15·8 + 2),
            // transparent pixels (alpha 0 lanes), f = 2, 3 and 4 after the capture's ×1/4, and exact mode (f = 1).
            [transparent, "--style", "systemChromeMaterialDark", "--scale", "2", "--frame", "3,5,487,491"],
            [photo, "--style", "systemThinMaterialLight", "--scale", "2", "--frame", "13,7,571,383"],
            [photo, "--style", "systemThickMaterial", "--appearance", "dark", "--scale", "2"],
            [transparent, "--style", "systemUltraThinMaterialLight", "--exact", "--frame", "1,2,301,199"],
            // UIImage+ImageEffects: the box rows' three stretches (a 113-wide box), translucent pixels (the blend and
            // the unpremultiplication) and the last pixels of odd rows, a mask and a negative saturation, a frame
            // narrower and shorter than the box (every index clamped), one pixel wide, and no blur at all.
            [photo, "--algorithm", "image-effects", "--style", "light", "--scale", "2"],
            [transparent, "--algorithm", "image-effects", "--style", "dark", "--frame", "3,5,487,491"],
            [
                photo, "--algorithm", "image-effects", "--style", "tint", "--tint", "0.2,0.4,0.9", "--frame",
                "13,7,301,199", "--mask", maskMarker,
            ],
            [
                transparent, "--algorithm", "image-effects", "--style", "custom", "--sigma", "40", "--saturation",
                "-2.5", "--tint", "0.9,0.1,0.3", "--tint-alpha", "0.45", "--frame", "100,200,37,5",
            ],
            [photo, "--algorithm", "image-effects", "--style", "extraLight", "--frame", "10,10,1,300"],
            // The widest box of the 16-bit kernel (127) and the narrowest of the 32-bit one (129).
            [
                photo, "--algorithm", "image-effects", "--style", "custom", "--sigma", "67.3", "--saturation", "1.8",
                "--tint", "0.3,0.6,0.2", "--tint-alpha", "0.5", "--frame", "7,3,397,251",
            ],
            [
                transparent, "--algorithm", "image-effects", "--style", "custom", "--sigma", "68.4", "--saturation",
                "1.8", "--tint", "0.3,0.6,0.2", "--tint-alpha", "0.5", "--frame", "7,3,397,251",
            ],
            [
                transparent, "--algorithm", "image-effects", "--style", "custom", "--sigma", "0", "--saturation", "1",
                "--tint", "0.5,0.5,0.5", "--tint-alpha", "0.25",
            ],
            // Liquid Glass's face: its colour's kernel on the small image (8-pixel blocks and a row's last pixels) and
            // the rim's (the refraction band, the corners, the anti-aliased edge, the highlight), both shapes, a
            // tint, the dark appearance, clear glass, 16-bit samples (the rim in Swift),
            // a frame narrower than the refraction's reach (reads clamped to the frame), no middle at all (37 × 5),
            // and exact mode.
            [photo, "--style", "glass", "--scale", "2", "--frame", "13,7,571,383", "--corner-radius", "24"],
            [
                transparent, "--style", "glass", "--appearance", "dark", "--tint", "0.9,0.2,0.1", "--scale", "2",
                "--frame", "3,5,487,491", "--capsule",
            ],
            [photo, "--style", "clearGlass", "--scale", "2", "--tint", "0.2,0.5,1", "--corner-radius", "0"],
            [photo, "--style", "clearGlass", "--appearance", "dark", "--scale", "2", "--frame", "0,0,240,130"],
            [photo, "--style", "glass", "--depth", "16", "--corner-radius", "30", "--frame", "20,10,517,301"],
            [photo, "--style", "glass", "--frame", "100,100,37,5"],
            [transparent, "--style", "glass", "--appearance", "dark", "--exact", "--frame", "1,2,301,199"],
        ]
    }()

    /// The glass renders' SHA-256 as `backdrop render PHOTO ARGUMENTS -o out.png` writes them, the kernels and the
    /// portable loops alike, on 1 and 2 threads. (Re-recorded when 8-bit files at `--compression default` moved to
    /// the own PNG encoder, issue 49: their bytes, not their pixels.) Re-recorded when the face's colour moved before the upscale
    /// (``GlassFaceColour``, and glass's k a multiple of 4): against the bytes recorded before (main at 414d360, the
    /// face per output pixel) these differ by at most 2 levels (PSNR 55–85 dB over the whole picture), but for the
    /// colour of fully transparent pixels (alpha 0) at the rim of the exact-mode render of `logo-alpha.png` (up to 24
    /// levels, 43 pixels): docs/styles.md, "Speed on the CPU". Re-recorded again when the rim's refraction moved
    /// onto the blurred small image too (`GlassRefraction`): against the bytes before (lead4 at 03400fe) at most 7
    /// levels where alpha > 0 (PSNR 57–89 dB; one render unchanged), but along the diagonal of the square corners of
    /// the `--corner-radius 0` render (up to 38: the normal's 90° turn, a hard line before, now smoothed over a
    /// small pixel) and the colour of alpha-0 pixels of the exact-mode render (up to 24). The three renders of
    /// regular glass at scale 1 re-recorded when its k went from 1 to 2 (``RenderPlan/glassDownscaleFactor(sigmaPixels:)``):
    /// against the bytes before (main at 95ea033) at most 4 levels (PSNR 66–90 dB); the other seven unchanged.
    static let glassRecorded: [(arguments: [String], sha256: String)] = [
        (
            [
                "coffee.png", "--style", "glass", "--tint", "0.9,0.2,0.1", "--corner-radius", "24", "--frame",
                "13,7,571,383",
            ],
            "3579f8e3c708327f748e502c67aa0952e40e4687d45d84aaa20d451f17782b62"
        ),
        (
            [
                "logo-alpha.png", "--style", "glass", "--appearance", "dark", "--scale", "2", "--frame", "3,5,487,491",
                "--capsule",
            ],
            "5137f09a4cc272c48a3a6c698339ad7c88e9f57880e000b4b3a3c3c2192a9904"
        ),
        (
            [
                "coffee.png", "--style", "glass", "--appearance", "dark", "--depth", "16", "--corner-radius", "30",
                "--frame", "20,10,517,301",
            ],
            "26c8de31ee7371054898d674aa5238b745d9f4cf5a077ad7c699bde13713fc08"
        ),
        (
            ["coffee.png", "--style", "clearGlass", "--scale", "2"],
            "1139fb73ad9d70c07ce56ff3be5687c45abcf42f3a55913e6bdb5bc5e57d959e"
        ),
        (
            [
                "coffee.png", "--style", "clearGlass", "--appearance", "dark", "--tint", "0.9,0.2,0.1",
                "--corner-radius", "24", "--frame", "13,7,571,383",
            ],
            "12db1db717a88d9c08c3c0715f574845f58bb470d88ce4423adb29d1d726d5f7"
        ),
        (
            ["coffee.png", "--style", "glass", "--scale", "3", "--corner-radius", "0"],
            "6f2d4ecd4205f8aed465ba00ce72aac8016f9abb7a090ff1f834ca21482e1f01"
        ),
        (
            ["coffee.png", "--style", "glass", "--frame", "10,10,1,300", "--corner-radius", "2"],
            "8fc25a72260173b163ab68a0301131a919ceac472f8dfecdef49c75992eabe7c"
        ),
        (
            ["coffee.png", "--style", "glass", "--scale", "0.05", "--frame", "10,10,61,47", "--corner-radius", "3"],
            "c2e83612e995851a51c2248288a1244375687c8d4f92c191eb5be48c4cf25dad"
        ),
        (
            [
                "astronaut.png", "--style", "clearGlass", "--tint", "0.2,0.5,1", "--frame", "7,9,250,90",
                "--corner-radius", "1000",
            ],
            "89f9ab3cf4221cd87a22a5971d2a6a7e9482cda3ce5c9007b17b45d691382c1d"
        ),
        (
            [
                "logo-alpha.png", "--style", "glass", "--appearance", "dark", "--exact", "--frame", "1,2,301,199",
                "--corner-radius", "12",
            ],
            "a7c931ee427e28468508c4206fbc72e380d443f21d3ee87689ff5d8bc455252b"
        ),
    ]

    @Test func glassDrawsTheBytesRecordedBeforeItsKernels() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (arguments, sha256) in Self.glassRecorded {
            let input = Fixtures.path("photos/" + arguments[0])
            for threads in ["1", "2"] {
                for (name, environment) in [("kernels", [:]), ("portable", ["BACKDROP_VECTOR_KERNELS": "off"])] {
                    let output = directory.appendingPathComponent("\(name).png").path
                    let result = try runCLI(
                        ["render", input, "-o", output, "--threads", threads] + arguments.dropFirst(),
                        environment: environment)
                    try #require(result.status == 0, "\(arguments): \(result.standardError)")
                    #expect(
                        try OutputBytesTests.digest(file: output) == sha256, "\(name), \(threads) threads: \(arguments)"
                    )
                }
            }
        }
    }

    /// Stands for a mask of the frame's size (301 × 199, translucent noise) the test writes.
    static let maskMarker = "<mask 301x199>"

    @Test(arguments: cases)
    func theKernelsAndThePortableLoopsWriteTheSameBytes(_ arguments: [String]) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mask = directory.appendingPathComponent("mask.png").path
        try PNGEncoder().write(noiseImage(width: 301, height: 199, seed: 11, alpha: true), to: mask)
        let arguments = arguments.map { $0 == Self.maskMarker ? mask : $0 }
        var outputs: [Data] = []
        for (name, environment) in [("kernels", [:]), ("portable", ["BACKDROP_VECTOR_KERNELS": "off"])] {
            let output = directory.appendingPathComponent("\(name).png").path
            let result = try runCLI(["render"] + arguments + ["-o", output], environment: environment)
            try #require(result.status == 0, "\(arguments): \(result.standardError)")
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: output)))
        }
        // A Bool and the first differing byte: Swift Testing would diff two PNGs' bytes element by element.
        let same = outputs[0] == outputs[1]
        let firstDifference =
            zip(outputs[0], outputs[1]).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(outputs[0].count, outputs[1].count)
        #expect(same, "\(arguments.dropFirst()): the PNGs differ from byte \(firstDifference)")
    }
}
