/// A picture as rows of straight (not premultiplied) RGBA samples, gamma-encoded (sRGB).
///
/// Layout: row-major, no padding, 4 samples per pixel in the order R, G, B, A;
/// pixel (x, y) starts at index `(y * width + x) * 4`.
public struct RGBAImage<Sample: PixelSample>: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` samples.
    public var samples: [Sample]

    /// An image from existing samples. The count must be `width * height * 4`.
    public init(width: Int, height: Int, samples: [Sample]) {
        precondition(
            width >= 0 && height >= 0 && samples.count == width * height * 4,
            "RGBAImage: \(samples.count) samples for \(width)×\(height)")
        self.width = width
        self.height = height
        self.samples = samples
    }

    /// An image filled with one straight RGBA colour.
    public init(width: Int, height: Int, fill: (Sample, Sample, Sample, Sample) = (0, 0, 0, 0)) {
        var samples = [Sample](repeating: 0, count: width * height * 4)
        for index in stride(from: 0, to: samples.count, by: 4) {
            samples[index] = fill.0; samples[index + 1] = fill.1
            samples[index + 2] = fill.2; samples[index + 3] = fill.3
        }
        self.init(width: width, height: height, samples: samples)
    }

    /// The size in pixels.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// The four samples of pixel (x, y).
    public subscript(x: Int, y: Int) -> SIMD4<Sample> {
        get {
            let index = (y * width + x) * 4
            return SIMD4(samples[index], samples[index + 1], samples[index + 2], samples[index + 3])
        }
        set {
            let index = (y * width + x) * 4
            samples[index] = newValue.x; samples[index + 1] = newValue.y
            samples[index + 2] = newValue.z; samples[index + 3] = newValue.w
        }
    }
}

extension RGBAImage where Sample == UInt8 {
    /// The same pixels at 16 bits per sample (each value v becomes v·257, exactly).
    public func widenedTo16() -> RGBAImage<UInt16> {
        RGBAImage<UInt16>(width: width, height: height, samples: samples.map { UInt16(widening8: $0) })
    }
}
