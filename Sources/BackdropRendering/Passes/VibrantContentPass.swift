import BackdropImageIO

/// Pass 6, vibrant content: the content layer rendered into a texture of its own, for the filter to read.
///
/// - Input: the content picture, straight RGBA8, drawn 1:1 with its top-left corner at the placement's origin.
/// - Output: the part of it inside the view's frame (`clip`, in pixels of the input picture), straight, as it is:
///   the CPU reads the content picture's bytes in place (``sampleOffset(ofRow:)``) rather than copy them.
///   Straight, not premultiplied: the vibrancy blend works on straight colours.
/// - Edges: none; what lies outside the frame is not drawn (clipped), and the plan refuses content that lies
///   wholly outside it.
/// - Work: 1 texel read per pixel written, not blended, offscreen (a render-target switch follows it).
public struct VibrantContentPass: Sendable {
    /// Where the content lies, in pixels of the input picture.
    public let placement: Vibrancy
    /// The content's rectangle clipped to the frame, in pixels of the input picture.
    public let clip: PixelRect
    /// The pass as data: sizes, taps, blending, offscreen.
    public let descriptor: PassDescriptor

    /// The content pass of `placement` clipped to `clip` (non-empty, inside the content rectangle).
    public init(placement: Vibrancy, clip: PixelRect) {
        self.placement = placement
        self.clip = clip
        descriptor = PassDescriptor(
            name: "vibrant content", kind: .vibrantContent, inputSize: placement.contentSize,
            outputSize: clip.size, texelsPerPixel: 1, blends: false, offscreen: true,
            gpuTexelsFromMemory: clip.size.area)
    }

    /// Where row y of the clipped content starts among the content picture's samples (straight RGBA8; the row
    /// is `clip.width` pixels long).
    public func sampleOffset(ofRow y: Int) -> Int {
        ((clip.y - placement.y + y) * placement.contentSize.width + clip.x - placement.x) * 4
    }
}

extension VibrantContentPass {
    /// The CPU's walk of the output under the content, shared by the vibrancy filters that run on the finished
    /// output: for every pixel of the clip where the content's alpha is not 0, `mix` gets the output pixel B
    /// (straight, fractions of the sample's maximum), the content pixel's four bytes and the pixel's place in the
    /// output picture, and returns the new pixel (fractions of 1), stored rounded to the nearest sample (halves up)
    /// and clamped, or nil to leave it. Rows in bands on `parallelism`'s threads; each pixel is read and written by
    /// one call, so the bytes are the same for any thread count.
    @inline(__always)
    func mixUnderContent<Sample: PixelSample>(
        _ picture: RGBAImage<UInt8>, over output: inout RGBAImage<Sample>, parallelism: Parallelism,
        _ mix: @Sendable (_ b: SIMD4<Float>, _ content: UnsafePointer<UInt8>, _ x: Int, _ y: Int) -> SIMD4<Float>?
    ) {
        let clip = clip, width = output.width, maximum = Sample.maximumValue
        picture.samples.withUnsafeBufferPointer { contentSamples in
            output.samples.withUnsafeMutableBufferPointer { samples in
                let out = SendablePointer(samples.baseAddress!)
                let source = SendableConstPointer(contentSamples.baseAddress!)
                parallelism.forEachBand(of: clip.height, minimumBandSize: Parallelism.minimumRowsPerBand) { rows in
                    for y in rows {
                        let contentRow = source.pointer + sampleOffset(ofRow: y)
                        let outRow = out.pointer + ((clip.y + y) * width + clip.x) * 4
                        for x in 0..<clip.width where contentRow[x * 4 + 3] != 0 {
                            let p = outRow + x * 4
                            let b = SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3])) / maximum
                            guard let mixed = mix(b, contentRow + x * 4, clip.x + x, clip.y + y) else { continue }
                            let v = (mixed * maximum + 0.5).rounded(.down)
                            for lane in 0..<4 { p[lane] = Sample(max(0, min(maximum, v[lane]))) }
                        }
                    }
                }
            }
        }
    }
}
