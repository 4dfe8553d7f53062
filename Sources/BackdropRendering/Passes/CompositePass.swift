import BackdropImageIO
import CVectorKernels

/// The last step, and the only full-resolution pass of the fast path: the effect's rows are upscaled along the
/// row, the vibrancy filter (if any) is applied, and the result is quantised into the output picture inside the
/// frame; outside it the output is the input, bit for bit.
///
/// - Input: ``OutputRows`` (straight colour and alpha at output scale, at 1/k of the frame's width, already
///   interpolated vertically), the source picture, and the vibrant content if the plan has vibrancy.
/// - Output: a picture of the source's size, straight RGBA at `Sample`'s depth.
/// - Maths: each value v = clamp(C/A, 0, 1) for colour (0 where A = 0) and A for alpha becomes v·max + 2⁻¹²
///   rounded to nearest: the reference renders round ties up, and the + 2⁻¹² level moves the maths' exact ties
///   (the light tint over a channel that saturation clamps to 0 is exactly 0.3 · 255 = 76.5), and values that
///   float32 noise (≈ 10⁻⁵ level) has put just below them, above the tie, as in the float64 references.
///   The scale and the + 2⁻¹² are applied before the upscale (`outputScaled(_:maximum:)`): they are affine,
///   and the bilinear weights are convex, so each output value is then one rounding of its interpolated value.
///   Outside the frame an 8-bit sample v becomes v (8-bit) or v·257 (16-bit).
/// - Arithmetic (`CompositeArithmetic`): for 8-bit output with an upscale (k > 1, the fast path) the rows of the
///   effect come quantised to 1/128 of a level and interpolated vertically (`OutputRows/fixedPointRow`), and the
///   rest is 16-bit integer arithmetic (``FixedPoint``): sixteen lanes to a vector instead of eight, about 20
///   instructions per eight pixels instead of 25, and 50 instead of 62 with vibrancy. A sample within a unit or two
///   (1/128 of a level each) of a rounding boundary can round the other way from `Float`: 0.2–0.35 % of the samples
///   of the test renders, never by more than one level (`FixedPointTests`). 16-bit output, and 8-bit output
///   without an upscale (exact mode, the tint-only fallback), stay in `Float`: one rounding, as close to the maths
///   as the output can be.
/// - Interpolation happens on straight colour, not premultiplied: after the tint every pixel's alpha is at least
///   the tint's, and in a 2×2 footprint of the blurred, small image alpha hardly varies, so the two agree to
///   within the fast path's measured PSNR; it saves a divide per output pixel.
/// - Work: 1 texel read per pixel written. Not a GPU pass of its own: on the GPU the previous pass draws into
///   the framebuffer.
public struct CompositePass: Sendable {
    /// The view's frame in pixels of the source picture.
    public let frame: PixelRect
    /// The pass as data: sizes, taps, blending, offscreen.
    public let descriptor: PassDescriptor
    /// Which input rows an output row reads (decides whether the input is stored).
    public var inputAccess: RowAccess { .sameRow }

    /// The composite of a frame-sized effect into a picture of `imageSize`.
    public init(frame: PixelRect, imageSize: PixelSize) {
        self.frame = frame
        descriptor = PassDescriptor(
            name: "composite", kind: .composite, inputSize: frame.size, outputSize: frame.size,
            texelsPerPixel: 1, blends: false, offscreen: false, isGPURenderPass: false)
    }

    /// 2⁻¹²: added at output scale so that the maths' exact ties round up.
    public static let roundingOffset: Float = 1.0 / 4096

    /// A premultiplied pixel at output scale: (clamp(C/A, 0, 1), clamp(A, 0, 1))·maximum + ``roundingOffset``.
    /// A pixel with A = 0 has C = 0 (premultiplied), so dividing by max(A, tiny) gives 0 without a branch.
    @inline(__always) public static func outputScaled(_ p: SIMD4<Float>, maximum: Float) -> SIMD4<Float> {
        outputScaled(SIMD8(lowHalf: p, highHalf: p), maximum: maximum).lowHalf
    }

    /// Two pixels (lanes 0–3 and 4–7) at output scale, each as `outputScaled(_:maximum:)-(SIMD4<Float>)`.
    @inline(__always) public static func outputScaled(_ p: SIMD8<Float>, maximum: Float) -> SIMD8<Float> {
        let alphas = SIMD8(p[3], p[3], p[3], 1, p[7], p[7], p[7], 1)
        let divisor = SampleConversion.limited(
            alphas, from: SIMD8(repeating: .leastNormalMagnitude),
            upTo: SIMD8(repeating: .greatestFiniteMagnitude))
        let straight = SampleConversion.limited(p / divisor, from: .zero, upTo: .one)
        return straight * maximum + roundingOffset
    }

    /// The vibrant content and the passes that place and blend it.
    public typealias VibrancyInput = (
        content: VibrantContentPass, filter: VibrancyFilterPass, picture: RGBAImage<UInt8>
    )

    /// Runs the pass over every row of the output, in row bands.
    public func run<Sample: PixelSample>(
        effect: OutputRows, vibrancy: VibrancyInput?, source: RGBAImage<UInt8>,
        parallelism: Parallelism, as: Sample.Type
    ) -> RGBAImage<Sample> {
        run(effect: effect, vibrancy: vibrancy, source: source, parallelism: parallelism, as: Sample.self, then: nil)
    }

    /// A row's last step after the composite wrote it, on the same thread, while it is in cache: `finish(y, row)`
    /// for frame row y, `row` the output row's sample at the frame's first column (Liquid Glass's face).
    typealias RowFinish = @Sendable (_ y: Int, _ row: UnsafeMutableRawPointer) -> Void

    /// ``run(effect:vibrancy:source:parallelism:as:)`` with `finish` called on each frame row once it is written.
    func run<Sample: PixelSample>(
        effect: OutputRows, vibrancy: VibrancyInput?, source: RGBAImage<UInt8>,
        parallelism: Parallelism, as: Sample.Type, then finish: RowFinish?
    ) -> RGBAImage<Sample> {
        let width = source.width, height = source.height
        let count = width * height * 4
        let samples = [Sample](unsafeUninitializedCapacity: count) { buffer, initialized in
            source.samples.withUnsafeBufferPointer { input in
                (vibrancy?.picture.samples ?? []).withUnsafeBufferPointer { content in
                    // The row loops are chosen once here, by depth, so that they are specialised for a concrete
                    // sample type even when this generic function is called from another module.
                    let output = UnsafeMutableRawPointer(buffer.baseAddress!)
                    let rows = RowsToWrite(
                        frame: frame, width: width, height: height, effect: effect,
                        vibrancy: vibrancy.map { ($0.content, $0.filter) },
                        source: SendablePointer(UnsafeMutablePointer(mutating: input.baseAddress!)),
                        content: content.baseAddress.map { SendablePointer(UnsafeMutablePointer(mutating: $0)) },
                        finish: finish)
                    // 8-bit output with an upscale in fixed point; the rest in Float (see the arithmetic above).
                    if Sample.bitDepth == 8 && effect.fixedPointRow != nil {
                        rows.write(
                            into: SendablePointer(output.assumingMemoryBound(to: UInt8.self)),
                            FixedPointArithmetic.self, parallelism: parallelism)
                    } else if Sample.bitDepth == 8 {
                        rows.write(
                            into: SendablePointer(output.assumingMemoryBound(to: UInt8.self)),
                            FloatArithmetic<UInt8>.self, parallelism: parallelism)
                    } else {
                        rows.write(
                            into: SendablePointer(output.assumingMemoryBound(to: UInt16.self)),
                            FloatArithmetic<UInt16>.self, parallelism: parallelism)
                    }
                }
            }
            initialized = count
        }
        return RGBAImage(width: width, height: height, samples: samples)
    }

    /// ``run(effect:vibrancy:source:parallelism:as:)`` at 8 bits drawn over `picture`, the source, in its own buffer:
    /// the same bytes, one picture-sized buffer fewer. Only for a plan whose effect rows no longer read the source
    /// (they come from a stored stage: the fast path's capture and downscale ran first); outside the frame the source
    /// is the output already.
    public func run(
        effect: OutputRows, vibrancy: VibrancyInput?, over picture: inout RGBAImage<UInt8>, parallelism: Parallelism
    ) {
        let width = picture.width, height = picture.height
        (vibrancy?.picture.samples ?? []).withUnsafeBufferPointer { content in
            picture.samples.withUnsafeMutableBufferPointer { buffer in
                let pixels = SendablePointer(buffer.baseAddress!)
                let rows = RowsToWrite(
                    frame: frame, width: width, height: height, effect: effect,
                    vibrancy: vibrancy.map { ($0.content, $0.filter) }, source: pixels,
                    content: content.baseAddress.map { SendablePointer(UnsafeMutablePointer(mutating: $0)) })
                if effect.fixedPointRow != nil {
                    rows.write(into: pixels, FixedPointArithmetic.self, parallelism: parallelism)
                } else {
                    rows.write(into: pixels, FloatArithmetic<UInt8>.self, parallelism: parallelism)
                }
            }
        }
    }
}

/// The composite's row loop (its schedule): bands of output rows on all threads.
private struct RowsToWrite: Sendable {
    let frame: PixelRect
    let width: Int
    let height: Int
    let effect: OutputRows
    let vibrancy: (content: VibrantContentPass, filter: VibrancyFilterPass)?
    let source: SendablePointer<UInt8>
    let content: SendablePointer<UInt8>?
    /// Called on each frame row once it is written (``CompositePass/RowFinish``).
    var finish: CompositePass.RowFinish? = nil

    /// Every output row: a copy of the source outside the frame, the effect's quantised row inside it, computed in
    /// `A` (`A.Sample` is `Sample`).
    @inline(__always) func write<A: CompositeArithmetic>(
        into output: SendablePointer<A.Sample>, _: A.Type,
        parallelism: Parallelism
    ) {
        parallelism.forEachBand(of: height, minimumBandSize: Parallelism.minimumRowsPerBand) { band in
            // Scratch: the effect's row (1/k of the frame's width), as floats and in A's arithmetic (padded to a
            // group of four pixels).
            withScratchRow(2 &* effect.width &+ 4) { effectRow in
                let scratch = UnsafeMutableRawPointer(effectRow + effect.width)
                for y in band {
                    let rowStart = y * width * 4
                    let out = output.pointer + rowStart, src = UnsafePointer(source.pointer) + rowStart
                    guard y >= frame.y && y < frame.maxY else {
                        widen(src, into: out, count: width * 4)
                        continue
                    }
                    widen(src, into: out, count: frame.x * 4)
                    widen(src + frame.maxX * 4, into: out + frame.maxX * 4, count: (width - frame.maxX) * 4)
                    writeEffect(
                        row: y - frame.y, A.row(y - frame.y, of: effect, effectRow, scratch: scratch),
                        into: out + frame.x * 4, A.self)
                    finish?(y - frame.y, UnsafeMutableRawPointer(out + frame.x * 4))
                }
            }
        }
    }

    /// One frame row of the effect (`effectRow`, in A's arithmetic): upscaled along the row, with the vibrancy
    /// filter applied where the content is, and quantised into `out` (the frame's first sample in the output
    /// row). Values go from the interpolation to the output four or eight pixels at a time, in registers.
    @inline(__always) func writeEffect<A: CompositeArithmetic>(
        row y: Int, _ effectRow: UnsafePointer<A.Pixel>,
        into out: UnsafeMutablePointer<A.Sample>, _: A.Type
    ) {
        guard let vibrancy, let content, y >= vibrancy.filter.clipInFrame.y && y < vibrancy.filter.clipInFrame.maxY
        else {
            forEachGroup(
                of: effectRow, A.self, pairsWithin: 0..<frame.width,
                pair: { x, first, second in A.store(first, second, to: out + 4 &* x) },
                { x, values, count in A.store(values, count: count, to: out + 4 &* x) },
                run: fixedPointRunKernel(effectRow, out, A.self))
            return
        }
        // A row that crosses the content: the filter blends the content's pixels over the values in registers.
        let filter = vibrancy.filter, clip = filter.clipInFrame, constants = A.constants(filter)
        let contentRow = UnsafePointer(content.pointer) + vibrancy.content.sampleOffset(ofRow: y - clip.y)
        forEachGroup(
            of: effectRow, A.self, pairsWithin: clip.x..<clip.maxX,
            pair: { x, first, second in
                // Eight pixels wholly inside the clip (the caller checked the run once).
                let bytes = UnsafeRawPointer(contentRow + 4 &* (x &- clip.x))
                A.store(
                    A.blend(bytes, over: first, constants), A.blend(bytes + 16, over: second, constants),
                    to: out + 4 &* x)
            },
            { x, values, count in
                A.store(
                    filter.apply(content: contentRow, columns: x, count: count, over: values, constants, A.self),
                    count: count, to: out + 4 &* x)
            },
            run: fixedPointRunKernel(
                effectRow, out, A.self,
                vibrancy: (content: contentRow - 4 &* clip.x, constants: filter.fixedPointLanes())))
    }

    /// On CPUs with AVX2, the 8-bit composite's uniform runs in the C twin of `pair`
    /// (`bd_fixed_point_upscale_run_v3`): the same values and stores. Nil in `Float` arithmetic or elsewhere.
    /// With `vibrancy`, the content (indexed by frame column) blended as `pair` blends it.
    @inline(__always) func fixedPointRunKernel<A: CompositeArithmetic>(
        _ effectRow: UnsafePointer<A.Pixel>, _ out: UnsafeMutablePointer<A.Sample>, _: A.Type,
        vibrancy: (content: UnsafePointer<UInt8>, constants: VibrancyFilterPass.FixedPointLanes)? = nil
    ) -> ((BilinearTaps, BilinearTaps.UniformRun) -> Void)? {
        guard A.self == FixedPointArithmetic.self && VectorKernels.available else { return nil }
        return { columns, run in
            var constants = vibrancy.map { [$0.constants.shift, $0.constants.lower, $0.constants.upper] } ?? []
            constants.withUnsafeMutableBytes { constants in
                columns.fixedPointWeights.withUnsafeBufferPointer { weights in
                    bd_fixed_point_upscale_run_v3(
                        UnsafeRawPointer(effectRow + run.lower).assumingMemoryBound(to: Int16.self),
                        run.count, run.factor,
                        UnsafeRawPointer(weights.baseAddress! + run.weights).assumingMemoryBound(to: Int16.self),
                        UnsafeMutableRawPointer(out + 4 &* run.start).assumingMemoryBound(to: UInt8.self),
                        vibrancy.map { $0.content + 4 &* run.start },
                        constants.baseAddress?.assumingMemoryBound(to: Int16.self))
                }
            }
        }
    }

    /// The effect's values for every frame column of a row, handed to `body` four pixels at a time
    /// (`body(x, values of x ..< x + 4, 4)`) or, at the end of a run, one (`body(x, values in lanes 0–3, 1)`):
    /// interpolated along the row when k > 1, the row itself when k = 1. When k is a multiple of 4 and the
    /// interior run of alike segments (``BilinearTaps/uniformRun``) lies within the frame columns `pairsWithin`,
    /// the run goes to `pair` eight pixels at a time instead (`pair(x, values of x ..< x + 4, of x + 4 ..< x + 8)`),
    /// or, when given, to `run`, which stores what `pair` would.
    @inline(__always) func forEachGroup<A: CompositeArithmetic>(
        of effectRow: UnsafePointer<A.Pixel>, _: A.Type,
        pairsWithin: Range<Int>,
        pair: (Int, A.Group, A.Group) -> Void,
        _ body: (Int, A.Group, Int) -> Void,
        run runKernel: ((BilinearTaps, BilinearTaps.UniformRun) -> Void)? = nil
    ) {
        guard let columns = effect.columns else {
            return Self.forEachGroup(of: effectRow, count: frame.width, A.self, body)
        }
        columns.segments.withUnsafeBufferPointer { segments in
            func interpolate(_ segments: Slice<UnsafeBufferPointer<BilinearTaps.Segment>>) {
                for segment in segments {
                    columns.interpolate(
                        effectRow, segment, A.self, group: { x, v in body(x, v, 4) },
                        single: { x, v in body(x, v, 1) })
                }
            }
            // The edges segment by segment; the alike segments between them as one run.
            guard let run = columns.uniformRun else { return interpolate(segments[...]) }
            interpolate(segments[..<run.first])
            if pairsWithin.lowerBound <= run.start && run.start + run.count * run.factor <= pairsWithin.upperBound,
                let runKernel
            {
                runKernel(columns, run)
            } else if pairsWithin.lowerBound <= run.start
                && run.start + run.count * run.factor <= pairsWithin.upperBound
            {
                // The common k as constants, so that the loop over a segment's groups unrolls away.
                func pairs<Groups: GroupsPerSegment>(_ groups: Groups.Type) {
                    columns.interpolate(effectRow, run, A.self, groups, pair: pair, group: { x, v in body(x, v, 4) })
                }
                switch run.groupsPerSegment {
                case 1: pairs(OneGroupPerSegment.self)
                case 2: pairs(TwoGroupsPerSegment.self)
                case 3: pairs(ThreeGroupsPerSegment.self)
                default: pairs(RunGroupsPerSegment.self)
                }
            } else {
                columns.interpolate(effectRow, run, A.self, group: { x, v in body(x, v, 4) })
            }
            interpolate(segments[(run.first + run.count)...])
        }
    }

    /// The first `count` values of `row`, handed to `body` as ``forEachGroup(of:_:pairsWithin:pair:_:)`` hands them.
    @inline(__always) static func forEachGroup<A: CompositeArithmetic>(
        of row: UnsafePointer<A.Pixel>, count: Int,
        _: A.Type, _ body: (Int, A.Group, Int) -> Void
    ) {
        var x = 0
        while x &+ 4 <= count {
            body(x, UnsafeRawPointer(row + x).loadUnaligned(as: A.Group.self), 4)
            x &+= 4
        }
        while x < count {
            // The pixel in the group's first lanes, the rest zero; the pointer lives only inside the closure.
            var single = A.Group()
            withUnsafeMutableBytes(of: &single) { $0.storeBytes(of: row[x], as: A.Pixel.self) }
            body(x, single, 1)
            x &+= 1
        }
    }

    /// Copies 8-bit samples, widening them exactly to `Sample`.
    @inline(__always) func widen<Sample: PixelSample>(
        _ source: UnsafePointer<UInt8>,
        into out: UnsafeMutablePointer<Sample>, count: Int
    ) {
        if Sample.bitDepth == 8 {
            // Drawing over the source (`run(effect:vibrancy:over:parallelism:)`): the pixel is already there.
            guard UnsafeRawPointer(out) != UnsafeRawPointer(source) else { return }
            UnsafeMutableRawPointer(out).copyMemory(from: source, byteCount: count)
        } else {
            for i in 0..<count { out[i] = Sample(widening8: source[i]) }
        }
    }
}
