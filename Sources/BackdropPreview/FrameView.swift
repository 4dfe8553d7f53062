import Backdrop
import Foundation

/// The frame's pixels as the page's live view shows them: the effect rendered over the frame alone and, when the
/// page shows the picture smaller than its pixels, averaged down to the width it is shown at, so that no more bytes
/// cross the socket than reach the screen.
///
/// Contract: straight 8-bit RGBA rows, top to bottom; at full size, exactly the frame's pixels of the whole
/// picture's render (the effect reads only inside its frame, ``CapturePass``, and changes nothing outside it, so
/// the frame is cut out first and rendered alone, with the vibrant content moved with it). Averaging is by area (each output pixel the mean of the input
/// pixels it covers, partial pixels weighted by their covered fraction), in premultiplied alpha so that transparent
/// pixels lend no colour; rounded to nearest. A `width` of nil or at least the frame's sends the frame's pixels as
/// they are. The downloaded PNG is always the full-resolution picture.
enum FrameView {
    static func render(
        _ input: RGBAImage<UInt8>, effect: Effect, vibrantContent: RGBAImage<UInt8>?, width: Int?,
        cancellation: RenderCancellation = RenderCancellation()
    ) throws(BackdropError) -> (data: Data, size: PixelSize, frame: PixelRect) {
        let frame = try RenderPlan.frame(effect.frame, in: input.size)
        // The whole picture's plan checks the frame and the vibrant content where the user placed them, so that an
        // error names the picture's coordinates, not those of the cut-out below.
        _ = try RenderPlan(effect: effect, imageSize: input.size)
        var alone = effect
        alone.frame = nil
        alone.vibrancy = effect.vibrancy.map {
            Vibrancy(x: $0.x - frame.x, y: $0.y - frame.y, contentSize: $0.contentSize)
        }
        let cut = RGBAImage(width: frame.width, height: frame.height, samples: crop(input, frame))
        let output = try Renderer().render(
            cut, effect: alone, vibrantContent: vibrantContent, cancellation: cancellation)
        let view = pixels(of: output, in: PixelRect(covering: output.size), width: width)
        return (view.data, view.size, frame)
    }

    static func pixels(of image: RGBAImage<UInt8>, in frame: PixelRect, width: Int?) -> (data: Data, size: PixelSize) {
        guard let width, width > 0, width < frame.width else {
            return (Data(crop(image, frame)), frame.size)
        }
        let height = max(1, Int((Double(frame.height) * Double(width) / Double(frame.width)).rounded()))
        // Horizontal then vertical: each pass a weighted sum of the covered source pixels.
        let columns = coverage(source: frame.width, target: width)
        let rows = coverage(source: frame.height, target: height)
        var across = [Float](repeating: 0, count: frame.height * width * 4)
        image.samples.withUnsafeBufferPointer { samples in
            for y in 0..<frame.height {
                let rowStart = ((frame.y + y) * image.width + frame.x) * 4
                for (x, taps) in columns.enumerated() {
                    var sum = SIMD4<Float>.zero
                    for (source, weight) in taps {
                        let index = rowStart + source * 4
                        let alpha = Float(samples[index + 3])
                        sum +=
                            weight
                            * SIMD4(
                                Float(samples[index]) * alpha, Float(samples[index + 1]) * alpha,
                                Float(samples[index + 2]) * alpha, alpha)
                    }
                    let out = (y * width + x) * 4
                    across[out] = sum.x
                    across[out + 1] = sum.y
                    across[out + 2] = sum.z
                    across[out + 3] = sum.w
                }
            }
        }
        var output = [UInt8](repeating: 0, count: width * height * 4)
        do {
            for (y, taps) in rows.enumerated() {
                for x in 0..<width {
                    var sum = SIMD4<Float>.zero
                    for (source, weight) in taps {
                        let index = (source * width + x) * 4
                        sum += weight * SIMD4(across[index], across[index + 1], across[index + 2], across[index + 3])
                    }
                    let out = (y * width + x) * 4
                    let alpha = sum.w
                    let color = alpha > 0 ? SIMD3(sum.x, sum.y, sum.z) / alpha : .zero
                    output[out] = UInt8(min(255, color.x.rounded()))
                    output[out + 1] = UInt8(min(255, color.y.rounded()))
                    output[out + 2] = UInt8(min(255, color.z.rounded()))
                    output[out + 3] = UInt8(min(255, alpha.rounded()))
                }
            }
        }
        return (Data(output), PixelSize(width: width, height: height))
    }

    /// For each of `target` output pixels, the source pixels it covers and their weights (summing to 1).
    static func coverage(source: Int, target: Int) -> [[(Int, Float)]] {
        let step = Double(source) / Double(target)
        return (0..<target).map { index in
            let start = Double(index) * step, end = start + step
            return (Int(start)..<min(source, Int(end.rounded(.up)))).compactMap { pixel in
                let covered = min(end, Double(pixel + 1)) - max(start, Double(pixel))
                return covered > 0 ? (pixel, Float(covered / step)) : nil
            }
        }
    }

    /// The pixels inside `rect`, row after row.
    static func crop(_ image: RGBAImage<UInt8>, _ rect: PixelRect) -> [UInt8] {
        var data = [UInt8]()
        data.reserveCapacity(rect.width * rect.height * 4)
        image.samples.withUnsafeBufferPointer { samples in
            for y in rect.y..<(rect.y + rect.height) {
                let start = (y * image.width + rect.x) * 4
                data.append(contentsOf: UnsafeBufferPointer(rebasing: samples[start..<(start + rect.width * 4)]))
            }
        }
        return data
    }
}
