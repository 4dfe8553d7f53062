import BackdropImageIO
import CVectorKernels

/// `UIImage+ImageEffects`' last steps, inside the frame: the crop, the effect over it, the tint over all,
/// unpremultiplied into the output.
///
/// - Inputs: the frame of the straight source (premultiplied again as it is read, ⌊(c · a + 127) / 255⌋); the effect
///   (premultiplied; nil: no blur); the mask (the frame's size; nil: none). Output: the frame of the output picture.
/// - Maths: the effect drawn source-over the crop through the mask's coverage (⌊(luminance × alpha + 127) / 255⌋,
///   luminance (54 R + 183 G + 19 B + 128) >> 8), source-over being ⌊src + (dst · (255 − src.a) + 127) / 255⌋;
///   then the tint filled source-over every pixel (``TintFill8``, transparent pixels included); then each colour
///   unpremultiplied, ⌊(c · 255 + ⌊a/2⌋) / a⌋ clamped to 255 (0 where a = 0).
/// - Precision: integers, the same bytes with the vector kernel (`bd_image_effects_composite_row_v3`, which computes
///   the tint on ``TintFill8/lines`` and applies the saturation matrix as it reads the effect) or with the portable
///   loop (``TintFill8/table``; the saturation then a pass of its own).
struct ImageEffectsCompositePass: ImageEffectsPass {
    /// The tint, as a table and as lines.
    let tint: TintFill8
    /// The saturation matrix's nine entries (``SaturationPass/entries``, inputs R, G, B each a row of outputs); nil
    /// when the saturation is 1.
    let saturationEntries: [Int32]?
    /// Whether an effect is drawn over the crop (the plan blurs).
    let blurred: Bool
    /// The tint alpha, for the name.
    let tintAlpha: Double

    init(style: ImageEffectsStyle, saturation: SaturationPass?, blurred: Bool) {
        tint = TintFill8(style: style)
        saturationEntries = saturation.map { $0.entries.flatMap { $0 } }
        self.blurred = blurred
        tintAlpha = style.tintAlpha
    }

    /// Whether the vector kernel draws the rows: where it runs and the tint has lines (every tint seen has).
    var usesKernel: Bool { VectorKernels.available && tint.lines != nil }
    /// Whether this pass applies the saturation matrix itself (its kernel does), so that no pass of its own runs.
    var fusesSaturation: Bool { usesKernel }

    var name: String {
        (blurred ? "effect over the crop, " : "") + "tint \(tintAlpha) over it, unpremultiply into the frame"
    }
    var minimumRowsPerBand: Int { Parallelism.minimumRowsPerBand }

    /// `inputs`: the source's frame, the effect (nil: none), the mask (nil: none).
    func write(_ band: Range<Int>, of output: ByteRows, reading inputs: [ByteRows?]) {
        let source = inputs[0]!, effect = inputs[1], mask = inputs[2], width = output.width
        if usesKernel {
            let lines = tint.lines ?? []
            for y in band {
                bd_image_effects_composite_row_v3(
                    source.row(y), effect?.row(y), saturationEntries, mask?.row(y), lines, width, output.row(y))
            }
            return
        }
        tint.table.withUnsafeBufferPointer { table in
            for y in band {
                let sourceRow = source.row(y), outRow = output.row(y)
                let effectRow = effect?.row(y), maskRow = mask?.row(y)
                for x in 0..<width {
                    Self.compositePixel(
                        sourceRow + 4 * x, effect: effectRow.map { $0 + 4 * x }, mask: maskRow.map { $0 + 4 * x },
                        table: table.baseAddress!, into: outRow + 4 * x)
                }
            }
        }
    }

    /// The portable composite of one pixel: `source` (straight) premultiplied, `effect` (premultiplied, nil: none)
    /// over it with the coverage of `mask` (nil: full), the tint `table` over all, unpremultiplied into `out`.
    @inline(__always) private static func compositePixel(
        _ source: UnsafePointer<UInt8>, effect: UnsafePointer<UInt8>?, mask: UnsafePointer<UInt8>?,
        table: UnsafePointer<UInt32>, into out: UnsafeMutablePointer<UInt8>
    ) {
        var pixel = ByteArithmetic.premultiplied(source)
        if let effect {
            var coverage: UInt32 = 255
            if let p = mask {
                let luminance = (54 * UInt32(p[0]) + 183 * UInt32(p[1]) + 19 * UInt32(p[2]) + 128) >> 8
                coverage = ByteArithmetic.dividedBy255(luminance * UInt32(p[3]) + 127)
            }
            let over = ByteArithmetic.dividedBy255(
                SIMD4<UInt32>(UInt32(effect[0]), UInt32(effect[1]), UInt32(effect[2]), UInt32(effect[3]))
                    &* coverage &+ 127)
            pixel = over &+ ByteArithmetic.dividedBy255(pixel &* (255 &- over[3]) &+ 127)
            pixel.replace(with: SIMD4(repeating: 255), where: pixel .> 255)
        }
        let final = SIMD4<UInt32>(
            table[Int(pixel[0])], table[256 + Int(pixel[1])], table[512 + Int(pixel[2])], table[768 + Int(pixel[3])])
        let a = final[3]
        for lane in 0..<3 {
            out[lane] = a == 255 ? UInt8(final[lane]) : a == 0 ? 0 : UInt8(min(255, (final[lane] * 255 + a / 2) / a))
        }
        out[3] = UInt8(a)
    }
}
