import BackdropImageIO
import BackdropRendering
import Foundation

/// Draws the picture of a scene's frame from the planner's ``SceneDrawing``, back to front, at the device's
/// screen size, on the CPU.
///
/// Contract: the screen starts opaque black (a window's background); each command composites source-over into
/// premultiplied RGBA8, computed in `Float` and rounded half up (`SceneCanvas`); a group draws into a transparent
/// texture of its bounds and is composited with its opacity and, for a mask, through its anti-aliased rounded
/// shape; a shadow is drawn as its ``ShadowRule`` says: its shape's coverage averaged over blocks of the rule's
/// reduction, blurred there by the renderer's own Gaussian weights (zero beyond the texture), scaled back up
/// bilinearly (edge texels repeated), black at its opacity. An effect view runs `Renderer` over the bytes below
/// it (straight RGBA8: the screen is opaque) with the view's pixel frame: its pixels are those `backdrop render
/// --frame` writes over that picture, bit for bit. Each pixel is computed by the same code for any thread count,
/// so the picture is deterministic.
public struct ScenePicture: Sendable {
    /// The device whose screen is drawn.
    public let device: Device
    /// How rows are spread over threads (the effect views' renders use it too).
    public var parallelism: Parallelism
    /// Image files with more pixels are refused before they are decoded.
    public var maxImagePixels: Int
    /// The most pixel work one picture may do (``SceneDrawingWork``), charged command by command before each is
    /// drawn.
    public var maxPixelWork: Int = SceneDrawingWork.standardLimit

    public init(
        device: Device, parallelism: Parallelism = Parallelism(), maxImagePixels: Int = PNGDecoder.defaultMaxPixels
    ) {
        self.device = device
        self.parallelism = parallelism
        self.maxImagePixels = maxImagePixels
    }

    /// A drawn picture.
    public struct Result: Sendable {
        /// The screen, opaque RGBA8.
        public var image: RGBAImage<UInt8>
        /// The pixel size of each image file drawn, by path: the misaligned-images overlay tells scaled ones.
        public var imageSizes: [String: PixelSize]
    }

    /// The picture `drawing` describes. `folder` is where the scene's image paths must stay (through links).
    /// Throws `.badInput` naming the layer and the problem for an image that cannot be read, `.badInput` before
    /// the command that would take the drawing over ``maxPixelWork``, and ``BackdropError/Kind/cancelled`` between
    /// commands (and between an effect view's passes) once `cancellation` is cancelled.
    public func draw(_ drawing: SceneDrawing, folder: String?, cancellation: RenderCancellation? = nil)
        throws(BackdropError) -> Result
    {
        var state = State(picture: self, folder: folder, cancellation: cancellation)
        let screen = PixelRect(x: 0, y: 0, width: device.screen.width, height: device.screen.height)
        var stack = [SceneCanvas(bounds: screen, opaqueBlack: true)]
        var work = SceneDrawingWork(limit: maxPixelWork)
        for command in drawing.commands {
            try cancellation?.check()
            try work.charge(command, on: stack[stack.count - 1].bounds)
            switch command {
            case .beginGroup(let bounds):
                stack.append(SceneCanvas(bounds: bounds.intersection(stack[0].bounds)))
            case .endGroup(let opacity, let mask):
                let group = stack.removeLast()
                stack[stack.count - 1].composite(group, opacity: opacity, mask: mask, parallelism: parallelism)
            case .effect(let frame, let style, let path, let vibrancyFrame, let vibrancy):
                try state.effect(
                    on: &stack[stack.count - 1], frame: frame, style: style, path: path, vibrancyFrame: vibrancyFrame,
                    vibrancy: vibrancy)
            default:
                try state.draw(command, on: &stack[stack.count - 1])
            }
        }
        return Result(image: stack[0].bytes(), imageSizes: state.images.mapValues(\.size))
    }

    /// An image file as the drawing samples it: its size and its pixels, premultiplied floats row by row.
    struct Converted {
        let size: PixelSize
        let pixels: [SIMD4<Float>]
    }

    /// What one drawing holds on to: the images read so far, each decoded and converted once however many
    /// layers draw it.
    struct State {
        let picture: ScenePicture
        let folder: String?
        let cancellation: RenderCancellation?
        var images: [String: Converted] = [:]

        var parallelism: Parallelism { picture.parallelism }

        /// Draws a fill, an image, text or a shadow.
        mutating func draw(_ command: SceneDrawing.Command, on canvas: inout SceneCanvas) throws(BackdropError) {
            switch command {
            case .fill(let shape, let color, let opacity, let clip):
                let paint = SceneCanvas.premultiplied(
                    SIMD4(Float(color.red), Float(color.green), Float(color.blue), Float(color.alpha)) / 255)
                canvas.draw(shape, clip: clip, opacity: opacity, parallelism: parallelism) { _, _ in paint }
            case .image(let shape, let layer, let source, let opacity, let clip):
                try drawImage(source, layer: layer, shape: shape, opacity: opacity, clip: clip, on: &canvas)
            case .text(let shape, let color, let opacity, let clip):
                let paint = SceneCanvas.premultiplied(
                    SIMD4(Float(color.red), Float(color.green), Float(color.blue), Float(color.alpha)) / 255)
                let inside = shape.intersection(clip)
                let lineHeight = 20 * picture.device.scale
                for glyph in PlaceholderArt.glyphs(in: shape, lineHeight: lineHeight, seed: 1) {
                    canvas.draw(glyph, clip: inside, opacity: opacity, parallelism: .serial) { _, _ in paint }
                }
            case .shadow(let shape, let rule, let opacity, let clip):
                try drawShadow(shape, rule: rule, opacity: opacity, clip: clip, on: &canvas)
            default:
                preconditionFailure("ScenePicture: \(command) is not a draw")
            }
        }

        /// An image layer's picture: the placeholder, or the file scaled to the shape (bilinear, premultiplied,
        /// edge pixels repeated).
        mutating func drawImage(
            _ source: SceneDrawing.Picture, layer: String, shape: SceneDrawing.Shape, opacity: Double,
            clip: SceneDrawing.Shape, on canvas: inout SceneCanvas
        ) throws(BackdropError) {
            switch source {
            case .placeholder(let seed):
                let photo = PlaceholderArt.Photo(seed: seed)
                canvas.draw(shape, clip: clip, opacity: opacity, parallelism: parallelism) { x, y in
                    photo.colour(
                        u: (Double(x) + 0.5 - shape.x) / shape.width, v: (Double(y) + 0.5 - shape.y) / shape.height)
                }
            case .file(let path):
                let image = try self.image(at: path, layer: layer)
                let pixels = image.pixels
                let width = image.size.width, height = image.size.height
                canvas.draw(shape, clip: clip, opacity: opacity, parallelism: parallelism) { x, y in
                    let u = (Double(x) + 0.5 - shape.x) / shape.width * Double(width) - 0.5
                    let v = (Double(y) + 0.5 - shape.y) / shape.height * Double(height) - 0.5
                    let x0 = Int(u.rounded(.down)), y0 = Int(v.rounded(.down))
                    let fx = Float(u - u.rounded(.down)), fy = Float(v - v.rounded(.down))
                    func at(_ x: Int, _ y: Int) -> SIMD4<Float> {
                        pixels[min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)]
                    }
                    let top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx
                    let bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx
                    return top * (1 - fy) + bottom * fy
                }
            }
        }

        /// The image at `path`, read and converted once; it must lie inside the scene's folder.
        mutating func image(at path: String, layer: String) throws(BackdropError) -> Converted {
            if let image = images[path] { return image }
            guard let folder, FileLocation.lies(path, inside: folder.isEmpty ? "." : folder) else {
                throw BackdropError(.badInput, "layer '\(layer)': image \(path) lies outside the scene file's folder")
            }
            let image: RGBAImage<UInt8>
            do {
                image = try ImageDecoder(maxPixels: picture.maxImagePixels).decodeFile(path)
            } catch {
                throw BackdropError(error.kind, "layer '\(layer)': \(error.message)")
            }
            let converted = Converted(size: image.size, pixels: Self.premultipliedFloats(image))
            images[path] = converted
            return converted
        }

        static func premultipliedFloats(_ image: RGBAImage<UInt8>) -> [SIMD4<Float>] {
            image.samples.withUnsafeBufferPointer { s in
                (0..<(image.width * image.height)).map { index -> SIMD4<Float> in
                    let i = 4 * index
                    let straight = SIMD4<Float>(Float(s[i]), Float(s[i + 1]), Float(s[i + 2]), Float(s[i + 3]))
                    return SceneCanvas.premultiplied(straight / 255)
                }
            }
        }

        /// A shadow as `rule` draws it: the shape's coverage at each pixel's centre over the touched pixels and
        /// the shadow's reach around them, averaged over f × f blocks (f the rule's reduction, blocks aligned to
        /// that region's corner), blurred along rows then columns of the reduced grid with the reduced kernel's
        /// weights (zero beyond the grid), then sampled bilinearly at each touched pixel's centre and drawn black
        /// at `opacity` inside `clip`. With f = 1 the sample falls on a grid point: the blur at full resolution.
        /// One shadow can be seconds of work (a 500-point shadow on a 13-inch iPad: 7.8 s): the cancellation is
        /// checked every row of the reduced grid and every line of each blur, so a cancelled drawing stops within
        /// a line's time.
        func drawShadow(
            _ shape: SceneDrawing.Shape, rule: ShadowRule, opacity: Double, clip: SceneDrawing.Shape,
            on canvas: inout SceneCanvas
        ) throws(BackdropError) {
            let reach = rule.reachPixels, f = rule.downsample
            let margin = Double(reach + f)
            let grown = SceneDrawing.Shape(
                x: shape.x - margin, y: shape.y - margin, width: shape.width + 2 * margin,
                height: shape.height + 2 * margin)
            let touched = canvas.pixelsTouched(by: grown.intersection(clip))
            guard !touched.x.isEmpty, !touched.y.isEmpty else { return }
            // The reduced grid: blocks of f × f pixels from (left, top), covering the touched pixels and the
            // kernel's reach around them.
            let left = touched.x.lowerBound - reach - f, top = touched.y.lowerBound - reach - f
            let width = (touched.x.count + 2 * (reach + f) + f - 1) / f
            let height = (touched.y.count + 2 * (reach + f) + f - 1) / f
            var cells = [Float](repeating: 0, count: width * height)
            let share = 1 / Float(f * f)
            for row in 0..<height {
                try cancellation?.check()
                for column in 0..<width {
                    var sum: Float = 0
                    for dy in 0..<f {
                        for dx in 0..<f {
                            sum += SceneCanvas.coverage(
                                shape, Double(left + column * f + dx) + 0.5, Double(top + row * f + dy) + 0.5)
                        }
                    }
                    cells[row * width + column] = sum * share
                }
            }
            let weights = rule.reducedKernel.weights, radius = rule.reducedKernel.radius
            func blurred(_ input: [Float], along step: Int, count: Int, lines: Int, lineStep: Int)
                throws(BackdropError) -> [Float]
            {
                var output = [Float](repeating: 0, count: input.count)
                for line in 0..<lines {
                    try cancellation?.check()
                    for index in 0..<count {
                        var sum: Float = 0
                        for tap in 0..<weights.count {
                            let at = index + tap - radius
                            guard at >= 0, at < count else { continue }
                            sum += weights[tap] * input[line * lineStep + at * step]
                        }
                        output[line * lineStep + index * step] = sum
                    }
                }
                return output
            }
            let rows = try blurred(cells, along: 1, count: width, lines: height, lineStep: width)
            let grid = try blurred(rows, along: width, count: height, lines: width, lineStep: 1)
            let region = SceneDrawing.Shape(
                x: Double(touched.x.lowerBound), y: Double(touched.y.lowerBound), width: Double(touched.x.count),
                height: Double(touched.y.count))
            let scale = 1 / Double(f)
            canvas.draw(region, clip: clip, opacity: opacity, parallelism: parallelism) { [grid] x, y in
                // The pixel's centre in grid coordinates, grid points at the blocks' centres.
                let u = (Double(x - left) + 0.5) * scale - 0.5, v = (Double(y - top) + 0.5) * scale - 0.5
                let u0 = min(max(Int(u.rounded(.down)), 0), width - 1),
                    v0 = min(max(Int(v.rounded(.down)), 0), height - 1)
                let u1 = min(u0 + 1, width - 1), v1 = min(v0 + 1, height - 1)
                let fu = Float(min(max(u - Double(u0), 0), 1)), fv = Float(min(max(v - Double(v0), 0), 1))
                let upper = grid[v0 * width + u0] * (1 - fu) + grid[v0 * width + u1] * fu
                let lower = grid[v1 * width + u0] * (1 - fu) + grid[v1 * width + u1] * fu
                return SIMD4(0, 0, 0, min(upper * (1 - fv) + lower * fv, 1))
            }
        }

        /// An effect view over what `canvas` holds inside `frame`: `Renderer` on the canvas quantised to RGBA8,
        /// the frame's pixels replaced by its output.
        mutating func effect(
            on canvas: inout SceneCanvas, frame: PixelRect, style: BlurStyle, path: Effect.Path,
            vibrancyFrame: PixelRect?, vibrancy: [SceneDrawing.Command]
        ) throws(BackdropError) {
            let inside = frame.intersection(canvas.bounds)
            guard inside.width > 0, inside.height > 0 else { return }
            let local = PixelRect(
                x: inside.x - canvas.bounds.x, y: inside.y - canvas.bounds.y, width: inside.width,
                height: inside.height)
            var placement: Vibrancy?
            var content: RGBAImage<UInt8>?
            if let vibrancyFrame, vibrancyFrame.width > 0, vibrancyFrame.height > 0 {
                var vibrant = SceneCanvas(bounds: vibrancyFrame)
                for command in vibrancy { try draw(command, on: &vibrant) }
                content = vibrant.bytes()
                placement = Vibrancy(
                    x: vibrancyFrame.x - canvas.bounds.x, y: vibrancyFrame.y - canvas.bounds.y,
                    contentSize: PixelSize(width: vibrancyFrame.width, height: vibrancyFrame.height))
            }
            let effect = Effect(
                style: style, frame: local, scale: picture.device.scale, quality: .fast, path: path,
                vibrancy: placement)
            let renderer = Renderer(parallelism: parallelism)
            let output: RGBAImage<UInt8>
            if let cancellation {
                output = try renderer.render(
                    canvas.bytes(), effect: effect, vibrantContent: content, cancellation: cancellation)
            } else {
                output = try renderer.render(canvas.bytes(), effect: effect, vibrantContent: content)
            }
            canvas.replace(inside, with: output)
        }
    }
}

extension ScenePicture {
    /// `scene`'s first frame (or, `steady`, a frame after it) on this device, its scrolling layers moved up by
    /// `scrollOffset` points: planned by ``ScenePlanner`` with each effect view's path from `path`, as the cost
    /// model prices it, then drawn. Returns the picture and the planner's drawing (for overlays).
    /// `accessibility` is the device's display settings (``ScenePlanner/accessibility``).
    public func draw(
        _ scene: Scene, path: @escaping @Sendable (BlurStyle) -> Effect.Path, steady: Bool = false,
        scrollOffset: Double = 0, accessibility: AccessibilitySettings = .none, cancellation: RenderCancellation? = nil
    ) throws(BackdropError) -> (result: Result, drawing: SceneDrawing) {
        try draw(
            scene, planner: ScenePlanner(device: device, path: path), steady: steady, scrollOffset: scrollOffset,
            accessibility: accessibility, cancellation: cancellation)
    }

    /// `scene` drawn as above, its effect views on the paths `choice` gives
    /// (``ScenePlanner/init(device:choice:estimator:)``): the paths ``Estimator`` prices the scene with.
    public func draw(
        _ scene: Scene, choice: Estimator.PathChoice, steady: Bool = false, scrollOffset: Double = 0,
        accessibility: AccessibilitySettings = .none, cancellation: RenderCancellation? = nil
    ) throws(BackdropError) -> (result: Result, drawing: SceneDrawing) {
        try draw(
            scene, planner: ScenePlanner(device: device, choice: choice), steady: steady, scrollOffset: scrollOffset,
            accessibility: accessibility, cancellation: cancellation)
    }

    private func draw(
        _ scene: Scene, planner: ScenePlanner, steady: Bool, scrollOffset: Double,
        accessibility: AccessibilitySettings, cancellation: RenderCancellation?
    ) throws(BackdropError) -> (result: Result, drawing: SceneDrawing) {
        var planner = planner
        planner.accessibility = accessibility
        let frame = try planner.frame(of: scene, steady: steady, drawing: true, scrollOffset: scrollOffset)
        let drawing = frame.drawing!
        return (try draw(drawing, folder: scene.folder, cancellation: cancellation), drawing)
    }

    /// `scene` drawn as above with every effect view on `path`.
    public func draw(
        _ scene: Scene, path: Effect.Path, steady: Bool = false, scrollOffset: Double = 0,
        accessibility: AccessibilitySettings = .none, cancellation: RenderCancellation? = nil
    ) throws(BackdropError) -> (result: Result, drawing: SceneDrawing) {
        try draw(
            scene, path: { _ in path }, steady: steady, scrollOffset: scrollOffset, accessibility: accessibility,
            cancellation: cancellation)
    }
}
