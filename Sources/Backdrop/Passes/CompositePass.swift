/// The last step: the effect's rows go into the output picture inside the frame; outside it the output is the
/// input, bit for bit.
///
/// - Input: frame-sized premultiplied rows, and the source picture.
/// - Output: a picture of the source's size, straight RGBA at `Sample`'s depth.
/// - Maths: straight colour = C / A (0 where A = 0); each value clamped to [0, 1] and rounded to nearest:
///   ⌊v · max + ½⌋. Outside the frame an 8-bit sample v becomes v (8-bit) or v·257 (16-bit).
/// - Work: 1 texel read per pixel written. Not a GPU pass of its own: on the GPU the previous pass draws into
///   the framebuffer.
public struct CompositePass: Sendable {
    public let frame: PixelRect
    public let descriptor: PassDescriptor
    public var inputAccess: RowAccess { .sameRow }

    public init(frame: PixelRect, imageSize: PixelSize) {
        self.frame = frame
        descriptor = PassDescriptor(name: "composite", kind: .composite, inputSize: frame.size, outputSize: frame.size,
                                    texelsPerPixel: 1, blends: false, offscreen: false, isGPURenderPass: false)
    }

    /// Runs the pass over every row of the output, in row bands.
    public func run<Sample: PixelSample>(effect: Stage, source: RGBAImage<UInt8>, parallelism: Parallelism,
                                         as: Sample.Type) -> RGBAImage<Sample> {
        let width = source.width, height = source.height, frame = frame
        let count = width * height * 4
        let samples = [Sample](unsafeUninitializedCapacity: count) { buffer, initialized in
            let output = SendablePointer(buffer.baseAddress!)
            source.samples.withUnsafeBufferPointer { input in
                let input = SendablePointer(UnsafeMutablePointer(mutating: input.baseAddress!))
                parallelism.forEachBand(of: height, minimumBandSize: 16) { band in
                    withScratchRow(frame.width) { effectRow in
                        for y in band {
                            let rowStart = y * width * 4
                            let out = output.pointer + rowStart, src = input.pointer + rowStart
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
            initialized = count
        }
        return RGBAImage(width: width, height: height, samples: samples)
    }

    /// Copies 8-bit samples, widening them exactly to `Sample`.
    @inline(__always) static func widen<Sample: PixelSample>(_ source: UnsafeMutablePointer<UInt8>,
                                                             into out: UnsafeMutablePointer<Sample>, count: Int) {
        if Sample.self == UInt8.self {
            UnsafeMutableRawPointer(out).copyMemory(from: source, byteCount: count)
        } else {
            for i in 0..<count { out[i] = Sample(widening8: source[i]) }
        }
    }

    /// Premultiplied floats → straight samples, rounded to nearest.
    @inline(__always) static func quantize<Sample: PixelSample>(_ pixels: UnsafeMutablePointer<SIMD4<Float>>, count: Int,
                                                                into out: UnsafeMutablePointer<Sample>) {
        let maximum = SIMD4<Float>(repeating: Sample.maximumValue)
        for x in 0..<count {
            let p = pixels[x]
            let straight = p.w > 0 ? p / SIMD4(p.w, p.w, p.w, 1) : .zero
            let scaled = straight.clamped(lowerBound: .zero, upperBound: .one) * maximum + 0.5
            let v = SIMD4<Int32>(scaled, rounding: .down)
            out[4 * x] = Sample(truncatingIfNeeded: v.x)
            out[4 * x + 1] = Sample(truncatingIfNeeded: v.y)
            out[4 * x + 2] = Sample(truncatingIfNeeded: v.z)
            out[4 * x + 3] = Sample(truncatingIfNeeded: v.w)
        }
    }
}

/// A pointer handed to row bands that write disjoint rows.
struct SendablePointer<T>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<T>
    init(_ pointer: UnsafeMutablePointer<T>) { self.pointer = pointer }
}
