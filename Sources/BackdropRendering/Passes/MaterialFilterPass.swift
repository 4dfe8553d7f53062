import BackdropImageIO
import CVectorKernels

/// A material's colour filters (``MaterialRecipe``): luminance curve, saturation, brightness, per pixel of the
/// captured backdrop, before the blur (the recipes' "blur at end").
///
/// - Input: premultiplied RGBA rows (the image captured at the recipe's scale on the fast path, the frame in exact
///   mode). Output: the same size, or with `factor` f > 1 reduced to ⌈w/f⌉ × ⌈h/f⌉: each output pixel the mean of
///   the filtered f×f box (as ``DownscalePass``, edges repeating), so that the blur after it runs on fewer pixels.
/// - Maths, on the straight colour c = C / A (a pixel with A = 0 stays 0):
///   L = clamp(0.2126 r + 0.7152 g + 0.0722 b, 0, 1); y = clamp(v0·(1−L)³ + 3·v1·(1−L)²·L + 3·v2·(1−L)·L² + v3·L³,
///   0, 1); c ← c + (y − c)·amount; c ← s·c + (1 − s)·luma(c); c ← clamp(c + brightness, 0, 1); then C = c·A.
///   Alpha is unchanged.
/// - Rounding: none; `Float`, every pixel by the same operations in the same order (any thread count gives the
///   same values).
/// - Work: f² texels read per pixel written; offscreen on the GPU (the blur reads its output).
public struct MaterialFilterPass: RowPass {
    /// The recipe whose filters run.
    public let recipe: MaterialRecipe
    /// The pass as data.
    public let descriptor: PassDescriptor
    /// The box each output pixel averages, f (1: none).
    public let factor: Int
    /// Each output row reads its own input row, or its block of f.
    public var inputAccess: RowAccess { factor == 1 ? .sameRow : .rowBlock(factor) }
    /// The recipe's numbers as `Float`, all the per-pixel maths reads (a plain value: nothing to retain in the loop).
    struct Coefficients: Sendable {
        let v0, v1, v2, v3, amount, saturation, brightness: Float
    }
    let coefficients: Coefficients

    /// The filters of `recipe` over an image of `size`, then the mean of each `factor` × `factor` box.
    public init(recipe: MaterialRecipe, size: PixelSize, factor: Int = 1) {
        self.recipe = recipe
        self.factor = factor
        let output = PixelSize(
            width: (size.width + factor - 1) / factor, height: (size.height + factor - 1) / factor)
        let v = recipe.luminanceValues.map(Float.init)
        coefficients = Coefficients(
            v0: v[0], v1: v[1], v2: v[2], v3: v[3], amount: Float(recipe.luminanceAmount),
            saturation: Float(recipe.saturation), brightness: Float(recipe.brightness))
        descriptor = PassDescriptor(
            name: factor == 1 ? "material filters" : "material filters + downscale ×1/\(factor)",
            kind: .materialFilters, inputSize: size, outputSize: output, texelsPerPixel: factor * factor,
            blends: false, offscreen: true)
    }

    /// The filters applied to one premultiplied pixel.
    @inline(__always) public func apply(_ pixel: SIMD4<Float>) -> SIMD4<Float> {
        Self.filter(pixel, coefficients)
    }

    /// The filters, on scalars (Rec. 709 weights 0.2126, 0.7152, 0.0722).
    @inline(__always) static func filter(_ pixel: SIMD4<Float>, _ k: Coefficients) -> SIMD4<Float> {
        let alpha = pixel.w
        guard alpha > 0 else { return .zero }
        let unpremultiply = 1 / alpha
        var r = pixel.x * unpremultiply, g = pixel.y * unpremultiply, b = pixel.z * unpremultiply
        let l = min(max(0.2126 * r + 0.7152 * g + 0.0722 * b, 0), 1), m = 1 - l
        let curve = k.v0 * m * m * m + 3 * k.v1 * m * m * l + 3 * k.v2 * m * l * l + k.v3 * l * l * l
        let y = min(max(curve, 0), 1)
        r += (y - r) * k.amount
        g += (y - g) * k.amount
        b += (y - b) * k.amount
        let added = (0.2126 * r + 0.7152 * g + 0.0722 * b) * (1 - k.saturation) + k.brightness
        r = min(max(r * k.saturation + added, 0), 1)
        g = min(max(g * k.saturation + added, 0), 1)
        b = min(max(b * k.saturation + added, 0), 1)
        return SIMD4(r * alpha, g * alpha, b * alpha, alpha)
    }

    /// `out[x]` ← ``filter(_:_:)``(`row[x]`) for the first `count` pixels, four at a time with each pixel in a lane
    /// (the same operations in the same order as the scalar form, so the same floats), the last few one by one.
    /// `out` may be `row`. On CPUs with AVX2 its C twin, `bd_material_filter_row_v3`, takes the pixels eight at a
    /// time first: the four-lane loop's values bit for bit.
    @inline(__always) static func filter(
        row: UnsafePointer<SIMD4<Float>>, into out: UnsafeMutablePointer<SIMD4<Float>>, count: Int, _ k: Coefficients
    ) {
        let zero = SIMD4<Float>(repeating: 0), one = SIMD4<Float>(repeating: 1)
        /// pointwiseMin(pointwiseMax(v, 0), 1) lane by lane (`Float.maximum` then `Float.minimum`: a NaN lane
        /// becomes 0), as selects: the standard library's functions were calls per vector (17 % of a material's
        /// frame in the profile).
        @inline(__always) func unit(_ v: SIMD4<Float>) -> SIMD4<Float> {
            let positive = zero.replacing(with: v, where: v .> zero)
            return one.replacing(with: positive, where: positive .<= one)
        }
        var x = 0
        if VectorKernels.available {
            withKernelConstants(k) { constants in
                bd_material_filter_row_v3(
                    UnsafeRawPointer(row).assumingMemoryBound(to: Float.self),
                    UnsafeMutableRawPointer(out).assumingMemoryBound(to: Float.self), count, constants)
            }
            x = count & ~7
        }
        while x &+ 4 <= count {
            let p0 = row[x], p1 = row[x &+ 1], p2 = row[x &+ 2], p3 = row[x &+ 3]
            let alpha = SIMD4(p0.w, p1.w, p2.w, p3.w)
            let unpremultiply = 1 / alpha
            var r = SIMD4(p0.x, p1.x, p2.x, p3.x) * unpremultiply
            var g = SIMD4(p0.y, p1.y, p2.y, p3.y) * unpremultiply
            var b = SIMD4(p0.z, p1.z, p2.z, p3.z) * unpremultiply
            let l = unit(0.2126 * r + 0.7152 * g + 0.0722 * b), m = 1 - l
            let curve = k.v0 * m * m * m + 3 * k.v1 * m * m * l + 3 * k.v2 * m * l * l + k.v3 * l * l * l
            let y = unit(curve)
            r += (y - r) * k.amount
            g += (y - g) * k.amount
            b += (y - b) * k.amount
            let added = (0.2126 * r + 0.7152 * g + 0.0722 * b) * (1 - k.saturation) + k.brightness
            let transparent = alpha .<= 0
            r = (unit(r * k.saturation + added) * alpha).replacing(with: 0, where: transparent)
            g = (unit(g * k.saturation + added) * alpha).replacing(with: 0, where: transparent)
            b = (unit(b * k.saturation + added) * alpha).replacing(with: 0, where: transparent)
            let a = alpha.replacing(with: 0, where: transparent)
            out[x] = SIMD4(r[0], g[0], b[0], a[0])
            out[x &+ 1] = SIMD4(r[1], g[1], b[1], a[1])
            out[x &+ 2] = SIMD4(r[2], g[2], b[2], a[2])
            out[x &+ 3] = SIMD4(r[3], g[3], b[3], a[3])
            x &+= 4
        }
        while x < count {
            out[x] = filter(row[x], k)
            x &+= 1
        }
    }

    /// `body` given the C kernels' constants: v0…v3, the amount, the saturation, the brightness and the luma weights
    /// as the four-lane loop's literals become them.
    @inline(__always) static func withKernelConstants<R>(_ k: Coefficients, _ body: (UnsafePointer<Float>) -> R) -> R {
        let weights = (r: Float(0.2126), g: Float(0.7152), b: Float(0.0722))
        var constants = (k.v0, k.v1, k.v2, k.v3, k.amount, k.saturation, k.brightness, weights.r, weights.g, weights.b)
        return withUnsafeBytes(of: &constants) { body($0.baseAddress!.assumingMemoryBound(to: Float.self)) }
    }

    /// Computes any output row from `input`.
    public func rows(reading input: Stage, parallelism: Parallelism) -> RowFunction {
        let width = descriptor.outputSize.width, k = coefficients
        guard factor > 1 else {
            return { y, out in Self.filter(row: input.row(y, orInto: out), into: out, count: width, k) }
        }
        let inWidth = descriptor.inputSize.width
        return { y, out in
            withScratchRow(inWidth) { scratch in
                boxRow(y, into: out, scratch: scratch) { j, scratch in input.row(j, orInto: scratch) }
            }
        }
    }

    /// Output row `y` with f > 1: the filters over each of its f input rows, then the mean of each f × f box.
    /// `inputRow(j, scratch)` gives input row j (the last row repeating past the bottom edge), written into
    /// `scratch` (the input's width) or elsewhere; the filtered row goes into `scratch`. Rows of the box in order,
    /// columns in order: the same sums on any thread, whoever computes the input rows (`CaptureDownscale` computes
    /// them inline for the fast path).
    @inline(__always)
    func boxRow(
        _ y: Int, into out: UnsafeMutablePointer<SIMD4<Float>>, scratch: UnsafeMutablePointer<SIMD4<Float>>,
        inputRow: (Int, UnsafeMutablePointer<SIMD4<Float>>) -> UnsafePointer<SIMD4<Float>>
    ) {
        let width = descriptor.outputSize.width, k = coefficients, f = factor
        let inWidth = descriptor.inputSize.width, inHeight = descriptor.inputSize.height
        let scale = SIMD4<Float>(repeating: 1 / Float(f * f))
        for x in 0..<width { out[x] = .zero }
        for dy in 0..<f {
            let row = inputRow(min(y * f + dy, inHeight - 1), scratch)
            // With f = 2, on CPUs with AVX2, the filters and the pair sums of the first whole eights of pixels in
            // one C kernel (`bd_material_filter_box2_row_v3`, the same floats); the rest below.
            var done = 0
            if f == 2 && VectorKernels.available {
                done = inWidth & ~7
                Self.withKernelConstants(k) { constants in
                    bd_material_filter_box2_row_v3(
                        UnsafeRawPointer(row).assumingMemoryBound(to: Float.self),
                        UnsafeMutableRawPointer(out).assumingMemoryBound(to: Float.self), done, constants)
                }
            }
            Self.filter(row: row + done, into: scratch + done, count: inWidth - done, k)
            for x in (done / f)..<width {
                var sum = SIMD4<Float>.zero
                for dx in 0..<f { sum += scratch[min(x * f + dx, inWidth - 1)] }
                out[x] += sum
            }
        }
        for x in 0..<width { out[x] *= scale }
    }
}
