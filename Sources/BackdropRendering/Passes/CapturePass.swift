import BackdropImageIO

/// Pass 1, capture: the content behind the view, cropped to the view's frame and premultiplied.
///
/// - Input: the source picture, straight RGBA8, sRGB-encoded.
/// - Output: frame-sized rows of premultiplied RGBA in [0, 1]: (R·A, G·A, B·A, A) with every value divided by 255.
/// - Edges: none (reads only inside the frame, which the plan has checked lies inside the picture).
/// - Work: one texel read per pixel written. On the GPU this is the render of the content into an offscreen
///   texture when the view blurs; with blur disabled the content is drawn on screen as usual.
public struct CapturePass: Sendable {
    /// The view's frame in pixels of the source picture.
    public let frame: PixelRect
    /// The pass as data: sizes, taps, blending, offscreen.
    public let descriptor: PassDescriptor

    /// The capture of `frame`; `offscreen` when the GPU renders it into a texture (the blur path).
    public init(frame: PixelRect, imageSize: PixelSize, offscreen: Bool) {
        self.frame = frame
        descriptor = PassDescriptor(
            name: "capture content", kind: .capture, inputSize: imageSize,
            outputSize: frame.size, texelsPerPixel: 1, blends: false, offscreen: offscreen,
            gpuTexelsFromMemory: frame.size.area)
    }

    /// Row y of the frame, premultiplied.
    public func rows(source: RGBAImage<UInt8>) -> RowFunction {
        let frame = frame
        return { y, out in
            source.samples.withUnsafeBufferPointer { samples in
                let row = samples.baseAddress! + ((frame.y + y) * source.width + frame.x) * 4
                for x in 0..<frame.width {
                    let p = SampleConversion.floats(row + 4 * x)
                    // (c/255)·(a/255) for colour, a/255 for alpha.
                    out[x] = p * SIMD4(p.w, p.w, p.w, 255) * (1 / 65025)
                }
            }
        }
    }
}
