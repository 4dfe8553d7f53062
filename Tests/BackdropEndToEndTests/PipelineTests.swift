import Backdrop
import BackdropTestSupport
import Foundation
import Testing

@Suite("The pass plan")
struct RenderPlanTests {
    let size = PixelSize(width: 2048, height: 1536)

    @Test func theFastBlurPlanRunsTheGPUPassesInOrder() throws {
        let plan = try RenderPlan(effect: Effect(style: .light, scale: 2), imageSize: size)
        #expect(
            plan.passes.map(\.kind) == [.capture, .downscale, .horizontalBlur, .verticalBlur, .upscaleTint, .composite])
        #expect(plan.downscaleFactor == 12)  // σ = 60 px, ⌊60 / 5⌋
        let small = PixelSize(width: 171, height: 128)  // ⌈2048/12⌉ × ⌈1536/12⌉
        #expect(plan.passes[1].outputSize == small)
        #expect(plan.passes[1].texelsPerPixel == 144)
        #expect(plan.passes[2].inputSize == small && plan.passes[3].outputSize == small)
        #expect(plan.passes[2].texelsPerPixel == plan.blurKernel!.taps)
        #expect(plan.passes[4].outputSize == size && plan.passes[4].texelsPerPixel == 4)
        // Offscreen: the capture and the three passes on the small texture (the blur's four gaps, seed F3).
        #expect(plan.passes.filter(\.offscreen).count == 4)
        #expect(plan.passes.filter(\.isGPURenderPass).count == 5)  // seed F2: five passes
    }

    @Test func exactModeBlursAtFullResolutionWithoutResampling() throws {
        let plan = try RenderPlan(effect: Effect(style: .light, scale: 2, quality: .exact), imageSize: size)
        #expect(plan.passes.map(\.kind) == [.capture, .horizontalBlur, .verticalBlur, .upscaleTint, .composite])
        #expect(plan.downscaleFactor == 1)
        #expect(plan.blurKernel?.sigma == 60 && plan.blurKernel?.radius == 240)
    }

    @Test func theTintOnlyPlanDrawsTheTintOverTheContentOnScreen() throws {
        let plan = try RenderPlan(effect: Effect(style: .dark, path: .tintOnly), imageSize: size)
        #expect(plan.passes.map(\.kind) == [.capture, .tintOnly, .composite])
        #expect(plan.passes.allSatisfy { !$0.offscreen })
        #expect(plan.passes[1].blends)
    }

    @Test func kKeepsAtLeastFiveSmallPixelsPerSigma() {
        for sigma in stride(from: 0.5, through: 200, by: 0.5) {
            let k = RenderPlan.downscaleFactor(sigmaPixels: sigma)
            #expect(k >= 1)
            #expect(k == 1 || sigma / Double(k) >= RenderPlan.samplesPerSigma)
            #expect(sigma / Double(k + 1) < RenderPlan.samplesPerSigma)  // and k is the largest such
        }
    }

    /// Glass's k: a multiple of 4 from σ = 15 px on, and below it the largest of 1 and 2 that keeps 3.75 small
    /// pixels per σ, the least the multiples of 4 keep; regular and clear glass at scales 1 to 3 by name.
    @Test func glassKKeepsAtLeast3Point75SmallPixelsPerSigma() {
        for sigma in stride(from: 0.5, through: 200, by: 0.5) {
            let k = RenderPlan.glassDownscaleFactor(sigmaPixels: sigma)
            #expect(k == 1 || sigma / Double(k) >= 3.75, "σ \(sigma): k \(k)")
            #expect(sigma < 15 ? k <= 2 : k % 4 == 0, "σ \(sigma): k \(k)")
        }
        #expect(RenderPlan.glassDownscaleFactor(sigmaPixels: 7) == 1)
        // Regular glass (σ 8 pt) at scales 1, 2 and 3; clear glass (16 pt) at 1 and 2.
        #expect([8.0, 16, 24, 16, 32].map { RenderPlan.glassDownscaleFactor(sigmaPixels: $0) } == [2, 4, 4, 4, 8])
    }

    /// Regular glass at scale 1 blurs at half size (k = 2), and stays within a few levels of the exact render.
    @Test func glassAtScaleOneIsCloseToExact() throws {
        let photo = try Fixtures.image("photos/coffee.png")
        let style = try StyleChoice(name: "glass").resolve()
        let plan = try RenderPlan(
            effect: Effect(style: style), imageSize: PixelSize(width: photo.width, height: photo.height))
        #expect(plan.downscaleFactor == 2)
        let fast = try Renderer().render(photo, effect: Effect(style: style))
        let exact = try Renderer().render(photo, effect: Effect(style: style, quality: .exact))
        let difference = ImageDifference(fast, exact)
        #expect(
            difference.psnr >= 55 && difference.maxDifference <= 8,
            "\(difference.psnr) dB, max \(difference.maxDifference)")
    }

    @Test func theVariancesOfDownscaleBlurAndUpscaleAddUpToSigmaSquared() {
        for sigma in [10.0, 20, 40, 60, 123.4] {
            let k = RenderPlan.downscaleFactor(sigmaPixels: sigma)
            let small = RenderPlan.smallImageSigma(sigmaPixels: sigma, factor: k)
            let total =
                DownscalePass.addedVariance(factor: k) + pow(Double(k) * small, 2)
                + UpscaleTintPass.addedVariance(factor: k)
            #expect(abs(total - sigma * sigma) < 1e-9)
        }
    }

    @Test func bilinearUpscaleVarianceMatchesItsClosedForms() {
        // k odd: (k² − 1)/6; k even: k²/6 + 1/12 (mean of t(1 − t) over the phases).
        for k in 1...16 {
            let expected = k % 2 == 1 ? Double(k * k - 1) / 6 : Double(k * k) / 6 + 1.0 / 12
            #expect(abs(UpscaleTintPass.addedVariance(factor: k) - expected) < 1e-12)
        }
    }

    @Test func aFrameWhollyOutsideThePictureIsRefusedAndOnePartlyOutsideClipped() throws {
        let partly = try RenderPlan(
            effect: Effect(style: .light, frame: PixelRect(x: 2000, y: 0, width: 100, height: 10)), imageSize: size)
        #expect(partly.frame == PixelRect(x: 2000, y: 0, width: 48, height: 10))
        do {
            _ = try RenderPlan(
                effect: Effect(style: .light, frame: PixelRect(x: -10, y: 0, width: 10, height: 10)), imageSize: size)
            Issue.record("a frame wholly outside the picture was planned")
        } catch {
            #expect(error.kind == .badOption)
            #expect(error.message == "the frame -10,0,10,10 (x,y,w,h) lies wholly outside the 2048×1536 picture")
        }
    }

    @Test func gaussianKernelsAreNormalisedSymmetricAndCutAtFourSigma() {
        for sigma in [0.4, 1, 4.97, 20, 60] {
            let kernel = GaussianKernel(sigma: sigma)
            #expect(kernel.radius == Int((4 * sigma).rounded(.up)))
            #expect(abs(kernel.weights.reduce(0, +) - 1) < 1e-5)
            #expect(kernel.weights == kernel.weights.reversed())
        }
        #expect(GaussianKernel(sigma: 0).weights == [1])
    }
}

@Suite("Rendering properties")
struct RenderingPropertyTests {
    let source = noiseImage(width: 203, height: 151, alpha: true)
    let frame = PixelRect(x: 17, y: 9, width: 171, height: 131)

    func render(_ effect: Effect, _ parallelism: Parallelism) throws -> RGBAImage<UInt8> {
        try Renderer(parallelism: parallelism).render(source, effect: effect)
    }

    @Test(arguments: [Effect.Quality.fast, .exact])
    func outputIsByteIdenticalForEveryThreadCountAndScheduler(_ quality: Effect.Quality) throws {
        for path in Effect.Path.allCases {
            let effect = Effect(style: .extraLight, frame: frame, scale: 1, quality: quality, path: path)
            let serial = try render(effect, .serial)
            for scheduler in Scheduler.allCases {
                for threads in [1, 2, 3, 8] {
                    let parallel = try render(effect, Parallelism(scheduler: scheduler, threads: threads))
                    #expect(parallel == serial, "\(path) \(scheduler) × \(threads) differs from one thread")
                }
            }
            #expect(try render(effect, .serial) == serial, "a second run differs")
        }
    }

    @Test(arguments: BlurStyle.builtIn)
    func aFlatPictureComesOutAsTheStyleFormulaGivesForItsColor(_ style: BlurStyle) throws {
        let color: SIMD4<UInt8> = [200, 60, 30, 255]
        let flat = RGBAImage<UInt8>(width: 96, height: 64, fill: (color.x, color.y, color.z, color.w))
        // A Gaussian of a constant is the constant, so only saturation and tint act (computed here in Double).
        let c = SIMD3<Double>(Double(color.x), Double(color.y), Double(color.z)) / 255
        let luma = 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z
        let saturated = (c * style.saturation + SIMD3(repeating: (1 - style.saturation) * luma))
            .clamped(lowerBound: .zero, upperBound: .one)
        let tinted = style.tintColor * style.tintAlpha + saturated * (1 - style.tintAlpha)
        let expected = (tinted * 255).rounded(.toNearestOrAwayFromZero)
        for quality in Effect.Quality.allCases {
            let out = try Renderer().render(flat, effect: Effect(style: style, scale: 2, quality: quality))
            for y in 0..<out.height {
                for x in 0..<out.width {
                    let p = out[x, y]
                    let delta = SIMD3<Double>(Double(p.x), Double(p.y), Double(p.z)) - expected
                    let d = max(abs(delta.x), abs(delta.y), abs(delta.z))
                    if d > 1 || p.w != 255 {
                        Issue.record("\(style.name) \(quality): pixel \(x),\(y) is \(p), expected \(expected)")
                        return
                    }
                }
            }
        }
    }

    /// Saturation clamps the blue of an orange to 0, so the light tint makes it exactly 0.3 · 255 = 76.5: a tie,
    /// which rounds up to 77 as in the reference renders (rounding ties to even would give 76 in large areas).
    @Test func exactTiesRoundUpLikeTheReferences() throws {
        let orange = RGBAImage<UInt8>(width: 40, height: 30, fill: (200, 60, 30, 255))
        for quality in Effect.Quality.allCases {
            let out = try Renderer().render(orange, effect: Effect(style: .light, quality: quality))
            let blues = Set(stride(from: 2, to: out.samples.count, by: 4).map { out.samples[$0] })
            #expect(blues == [77], "\(quality): blue values \(blues.sorted())")
        }
    }

    @Test func theTintOnlyFallbackIsSourceOverAtTheFallbackOpacity() throws {
        let out = try Renderer().render(source, effect: Effect(style: .light, frame: frame, path: .tintOnly))
        for (x, y) in [(17, 9), (100, 100), (187, 139)] {
            let p = source[x, y], q = out[x, y]
            let a = Double(p.w) / 255, f = BlurStyle.light.fallbackAlpha
            let alpha = f + a * (1 - f)
            #expect(abs(Double(q.w) - (alpha * 255).rounded()) <= 1)
            for channel in 0..<3 {
                let premultiplied = 1.0 * f + Double(p[channel]) / 255 * a * (1 - f)
                #expect(abs(Double(q[channel]) - (premultiplied / alpha * 255).rounded()) <= 1)
            }
        }
    }

    @Test func sixteenBitOutputAgreesWithEightBitAndKeepsTheOutsideExact() throws {
        let effect = Effect(style: .dark, frame: frame)
        let plan = try RenderPlan(effect: effect, imageSize: source.size)
        let narrow = Renderer().render(source, plan: plan, as: UInt8.self)
        let wide = Renderer().render(source, plan: plan, as: UInt16.self)
        for y in 0..<source.height {
            for x in 0..<source.width {
                let inside = x >= frame.x && x < frame.maxX && y >= frame.y && y < frame.maxY
                for channel in 0..<4 {
                    let w = wide[x, y][channel], n = narrow[x, y][channel]
                    if inside {
                        #expect(abs(Int(UInt8(reducing16: w)) - Int(n)) <= 1)
                    } else {
                        #expect(w == UInt16(widening8: source[x, y][channel]))
                    }
                }
            }
        }
    }

    @Test func transparentPixelsDoNotDarkenTheBlur() throws {
        // Opaque white beside fully transparent black: premultiplied filtering must not bleed black into white.
        var image = RGBAImage<UInt8>(width: 64, height: 8, fill: (0, 0, 0, 0))
        for y in 0..<8 { for x in 0..<32 { image[x, y] = [255, 255, 255, 255] } }
        let clear = BlurStyle(
            name: "clear", sigmaPoints: 4, saturation: 1, tintColor: .zero, tintAlpha: 0,
            fallbackAlpha: 0, vibrancyBlend: .plusDarker)
        let out = try Renderer().render(image, effect: Effect(style: clear, quality: .exact))
        for x in 0..<64 where out[x, 4].w > 0 {
            #expect(out[x, 4].x == 255, "pixel \(x) is \(out[x, 4])")
        }
    }
}

@Suite("Fused passes")
struct FusedPassTests {
    /// A picture that takes every path of the fused capture: strips of 32 pixels that are opaque over every block
    /// of rows (the top left), strips that are not, opaque and translucent groups of four inside those, and
    /// translucent pixels in the groups and in the columns past the last group. Outside the opaque top left,
    /// every seventh row and every eleventh pixel of the odd rows are translucent.
    static func mixedAlphaPicture(width: Int, height: Int) -> RGBAImage<UInt8> {
        let opaque = noiseImage(width: width, height: height),
            alphas = noiseImage(width: width, height: height, seed: 7)
        var samples = opaque.samples
        for y in 0..<height {
            for x in 0..<width where (x >= 40 || y >= 30) && (y % 7 == 3 || (y % 2 == 1 && x % 11 == 0)) {
                samples[(y * width + x) * 4 + 3] = alphas.samples[(y * width + x) * 4]
            }
        }
        return RGBAImage(width: width, height: height, samples: samples)
    }

    /// The fused capture and downscale (integer box sums, 16-bit for k ≤ 16, an opaque fast path) compute what the
    /// two passes compute on their own in float, for every k the plans use and past 16, on a frame whose sides k
    /// does not divide (the last column and row repeat). Float sums of k² terms differ from exact ones by at most
    /// k²·2⁻²⁴ of the mean; a lost or doubled column would differ by 1/k.
    @Test(arguments: [1, 2, 3, 4, 5, 8, 12, 16, 17, 24])
    func theFusedCaptureAndDownscaleComputeThePassesOnTheirOwn(factor k: Int) {
        let source = Self.mixedAlphaPicture(width: 83, height: 61)
        let frame = PixelRect(x: 3, y: 2, width: 77, height: 57)
        let capture = CapturePass(frame: frame, imageSize: source.size, offscreen: true)
        let downscale = DownscalePass(factor: k, inputSize: frame.size)
        let fused = CaptureDownscale(capture: capture, downscale: downscale).run(source: source, parallelism: .serial)
        let separate = downscale.rows(
            reading: .computed(size: frame.size, row: capture.rows(source: source)),
            parallelism: .serial)
        let size = downscale.descriptor.outputSize
        #expect(fused.size == size)
        let tolerance = Float(k * k) / Float(1 << 24) + 1e-7
        var expected = [SIMD4<Float>](repeating: .zero, count: size.width)
        for y in 0..<size.height {
            expected.withUnsafeMutableBufferPointer { separate(y, $0.baseAddress!) }
            for x in 0..<size.width {
                let d = fused.row(y)[x] - expected[x]
                let largest = max(abs(d.x), abs(d.y), abs(d.z), abs(d.w))
                #expect(
                    largest <= tolerance, "k = \(k), small pixel \(x),\(y): \(fused.row(y)[x]) against \(expected[x])")
            }
        }
    }
}

extension FusedPassTests {
    /// A material's filters and their f × f box, fed by the capture as it makes each small row
    /// (`CaptureDownscale.run(source:filteredBy:parallelism:)`, the fast path's schedule), give the floats they give
    /// over the stored small image, bit for bit: on a picture with translucent pixels, a frame whose sides neither
    /// k nor f divides, for f = 2 and 3, on one thread and on all.
    @Test(arguments: [2, 3])
    func theFiltersOverTheCaptureAsItIsMadeGiveTheirFloatsOverTheStoredCapture(box f: Int) {
        let source = Self.mixedAlphaPicture(width: 203, height: 131)
        let frame = PixelRect(x: 5, y: 3, width: 197, height: 127)
        let capture = CapturePass(frame: frame, imageSize: source.size, offscreen: true)
        let fused = CaptureDownscale(capture: capture, downscale: DownscalePass(factor: 4, inputSize: frame.size))
        let small = fused.run(source: source, parallelism: .serial)
        let recipe = MaterialRecipe.all[0]
        let filters = MaterialFilterPass(recipe: recipe, size: small.size, factor: f)
        let rows = filters.rows(reading: .stored(small), parallelism: .serial)
        for parallelism in [Parallelism.serial, Parallelism()] {
            let inline = fused.run(source: source, filteredBy: filters, parallelism: parallelism)
            #expect(inline.size == filters.descriptor.outputSize)
            var expected = [SIMD4<Float>](repeating: .zero, count: inline.width)
            for y in 0..<inline.height {
                expected.withUnsafeMutableBufferPointer { rows(y, $0.baseAddress!) }
                for x in 0..<inline.width where inline.row(y)[x] != expected[x] {
                    Issue.record("f = \(f), pixel \(x),\(y): \(inline.row(y)[x]) against \(expected[x])")
                }
            }
        }
    }
}

@Suite("Image comparison")
struct ImageDifferenceTests {
    @Test func identicalPicturesHaveInfinitePSNR() {
        let image = noiseImage(width: 10, height: 10)
        let difference = ImageDifference(image, image)
        #expect(difference.psnr == .infinity && difference.isIdentical && difference.differingPixels == 0)
    }

    @Test func oneLevelEverywhereIs48Point13DB() {
        let a = RGBAImage<UInt8>(width: 4, height: 4, fill: (10, 10, 10, 10))
        let b = RGBAImage<UInt8>(width: 4, height: 4, fill: (11, 11, 11, 11))
        let difference = ImageDifference(a, b)
        #expect(abs(difference.psnr - 20 * log10(255.0)) < 1e-9)  // MSE 1
        #expect(difference.maxDifference == 1 && difference.differingPixels == 16)
    }

    @Test func colorOfPixelsTransparentInBothIsIgnored() {
        let a = RGBAImage<UInt8>(width: 2, height: 2, fill: (0, 0, 0, 0))
        let b = RGBAImage<UInt8>(width: 2, height: 2, fill: (255, 9, 3, 0))
        #expect(ImageDifference(a, b).isIdentical)
    }
}

@Suite("Edge cases")
struct EdgeCaseTests {
    /// Frames smaller than the downscale factor, one-pixel strips and one-pixel pictures all render, and keep the
    /// outside of the frame.
    @Test(arguments: [
        (1, 1, PixelRect(x: 0, y: 0, width: 1, height: 1)),
        (50, 40, PixelRect(x: 10, y: 10, width: 3, height: 2)),
        (300, 7, PixelRect(x: 0, y: 3, width: 300, height: 1)),
        (7, 300, PixelRect(x: 6, y: 0, width: 1, height: 300)),
    ])
    func tinyFramesRenderAndKeepTheOutside(width: Int, height: Int, frame: PixelRect) throws {
        let source = noiseImage(width: width, height: height, alpha: true)
        for quality in Effect.Quality.allCases {
            for path in Effect.Path.allCases {
                let effect = Effect(style: .light, frame: frame, scale: 3, quality: quality, path: path)
                let out = try Renderer().render(source, effect: effect)
                #expect(out.size == source.size)
                for y in 0..<height {
                    for x in 0..<width where !(x >= frame.x && x < frame.maxX && y >= frame.y && y < frame.maxY) {
                        #expect(out[x, y] == source[x, y])
                    }
                }
            }
        }
    }

    @Test func aFullyTransparentPictureStaysTransparentUnderAClearStyle() throws {
        let clear = BlurStyle(
            name: "clear", sigmaPoints: 10, saturation: 1.8, tintColor: .one, tintAlpha: 0,
            fallbackAlpha: 0, vibrancyBlend: .plusDarker)
        let empty = RGBAImage<UInt8>(width: 64, height: 48, fill: (0, 0, 0, 0))
        #expect(try Renderer().render(empty, effect: Effect(style: clear)) == empty)
    }

    @Test func renderedPNGFilesAreByteIdenticalForEveryThreadCount() throws {
        let directory = try Fixtures.temporaryDirectory()
        let photo = Fixtures.path("photos/astronaut.png")
        var files: [Data] = []
        for (threads, scheduler) in [("1", "openmp"), ("2", "openmp"), ("8", "dispatch")] {
            let output = directory.appendingPathComponent("out-\(threads)-\(scheduler).png").path
            let result = try runCLI([
                "render", photo, "-o", output, "--style", "extraLight", "--scale", "2",
                "--threads", threads, "--scheduler", scheduler,
            ])
            #expect(result.status == 0, "\(result.standardError)")
            files.append(try Data(contentsOf: URL(fileURLWithPath: output)))
        }
        #expect(Set(files).count == 1)
    }
}
