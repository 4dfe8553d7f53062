/// The last step: the effect's rows go into the output picture inside the frame; outside it the output is the
/// input, bit for bit.
///
/// - Input: frame-sized premultiplied rows, and the source picture.
/// - Output: a picture of the source's size, straight RGBA at `Sample`'s depth.
/// - Maths: straight colour = C / A (0 where A = 0); each value clamped to [0, 1], scaled to the sample's
///   maximum and rounded to nearest, ties up: ⌊v·max + ½⌋, as the reference renders round.
///   Outside the frame an 8-bit sample v becomes v (8-bit) or v·257 (16-bit).
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
        descriptor = PassDescriptor(name: "composite", kind: .composite, inputSize: frame.size, outputSize: frame.size,
                                    texelsPerPixel: 1, blends: false, offscreen: false, isGPURenderPass: false)
    }

    /// Runs the pass over every row of the output, in row bands.
    public func run<Sample: PixelSample>(effect: Stage, source: RGBAImage<UInt8>, parallelism: Parallelism,
                                         as: Sample.Type) -> RGBAImage<Sample> {
        let width = source.width, height = source.height
        let count = width * height * 4
        let samples = [Sample](unsafeUninitializedCapacity: count) { buffer, initialized in
            source.samples.withUnsafeBufferPointer { input in
                // The row loops are chosen once here, by depth, so that they are specialised for a concrete sample
                // type even when this generic function is called from another module.
                let output = UnsafeMutableRawPointer(buffer.baseAddress!)
                if Sample.bitDepth == 8 {
                    writeRows(effect: effect, source: input.baseAddress!, width: width, height: height,
                              into: output.assumingMemoryBound(to: UInt8.self), parallelism: parallelism)
                } else {
                    writeRows(effect: effect, source: input.baseAddress!, width: width, height: height,
                              into: output.assumingMemoryBound(to: UInt16.self), parallelism: parallelism)
                }
            }
            initialized = count
        }
        return RGBAImage(width: width, height: height, samples: samples)
    }

    /// Every output row: a copy of the source outside the frame, the effect's quantised row inside it.
    @inline(__always) func writeRows<Sample: PixelSample>(effect: Stage, source: UnsafePointer<UInt8>, width: Int, height: Int,
                                                          into output: UnsafeMutablePointer<Sample>, parallelism: Parallelism) {
        let frame = frame
        let output = SendablePointer(output), source = SendablePointer(UnsafeMutablePointer(mutating: source))
        parallelism.forEachBand(of: height, minimumBandSize: 16) { band in
            withScratchRow(frame.width) { effectRow in
                for y in band {
                    let rowStart = y * width * 4
                    let out = output.pointer + rowStart, src = source.pointer + rowStart
                    guard y >= frame.y && y < frame.maxY else {
                        Self.widen(src, into: out, count: width * 4)
                        continue
                    }
                    Self.widen(src, into: out, count: frame.x * 4)
                    Self.widen(src + frame.maxX * 4, into: out + frame.maxX * 4, count: (width - frame.maxX) * 4)
                    effect.readRow(y - frame.y, into: effectRow)
                    Self.quantize(effectRow, count: frame.width, into: out + frame.x * 4)
                }
            }
        }
    }

    /// Copies 8-bit samples, widening them exactly to `Sample`.
    @inline(__always) static func widen<Sample: PixelSample>(_ source: UnsafeMutablePointer<UInt8>,
                                                             into out: UnsafeMutablePointer<Sample>, count: Int) {
        if Sample.bitDepth == 8 {
            UnsafeMutableRawPointer(out).copyMemory(from: source, byteCount: count)
        } else {
            for i in 0..<count { out[i] = Sample(widening8: source[i]) }
        }
    }

    /// Premultiplied floats → straight samples: ⌊clamp(C/A, 0, 1)·max + ½⌋ (ties, within float noise, up).
    /// A pixel with A = 0 has C = 0 (premultiplied), so dividing by max(A, tiny) gives 0 without a branch.
    @inline(__always) static func quantize<Sample: PixelSample>(_ pixels: UnsafeMutablePointer<SIMD4<Float>>, count: Int,
                                                                into out: UnsafeMutablePointer<Sample>) {
        let maximum = SIMD4<Float>(repeating: Sample.maximumValue)
        for x in 0..<count {
            let p = pixels[x]
            let a = max(p.w, .leastNormalMagnitude)
            let straight = p / SIMD4(a, a, a, 1)
            // + 2⁻¹² level: a value that float32 noise (≈ 10⁻⁵ level) has put just below an exact tie of the maths
            // still rounds up, as the exact (float64) references do.
            let v = SampleConversion.roundedHalfUp(straight.limited(to: .zero, .one) * maximum + 1.0 / 4096)
            if Sample.bitDepth == 8 {
                UnsafeMutableRawPointer(out + 4 * x).storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: v), as: SIMD4<UInt8>.self)
            } else {
                UnsafeMutableRawPointer(out + 4 * x).storeBytes(of: SIMD4<UInt16>(truncatingIfNeeded: v), as: SIMD4<UInt16>.self)
            }
        }
    }
}

/// A pointer handed to row bands that write disjoint rows.
struct SendablePointer<T>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<T>
    init(_ pointer: UnsafeMutablePointer<T>) { self.pointer = pointer }
}
