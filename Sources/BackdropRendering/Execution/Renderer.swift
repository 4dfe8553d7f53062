import BackdropImageIO

/// Executes a ``RenderPlan`` on the CPU.
///
/// The schedule, apart from the maths of the passes: each pass's output is either stored (computed once, in row
/// bands on all threads) or computed inline row by row inside its consumer. A pass's output is stored exactly
/// when the next pass reads it with ``RowAccess/neighbourhood`` access (its rows are read more than once);
/// otherwise it is inlined, so the full-resolution capture and upscale never exist as whole float images.
/// Two fusions make the fast path's full-resolution work one read of the source and one write of the output:
/// the capture and the downscale read the source bytes together (`CaptureDownscale`), and the composite upscales
/// along the row, applies the vibrancy filter and quantises in one pass (``CompositePass``, reading
/// ``OutputRows``). Liquid Glass's face (``GlassFacePass``) runs on each row of the composite right after it is
/// written.
/// The output is the same for every thread count and scheduler: each row is computed by the same code from the
/// same inputs.
public struct Renderer: Sendable {
    /// How row bands are spread over threads.
    public var parallelism: Parallelism

    /// A renderer using `parallelism` (default: OpenMP on every core).
    public init(parallelism: Parallelism = Parallelism()) {
        self.parallelism = parallelism
    }

    /// Renders `effect` over `source`; 8 bits per sample. `vibrantContent` is the content the effect's vibrancy
    /// places (required exactly when the effect has vibrancy, at the size it names).
    public func render(
        _ source: RGBAImage<UInt8>, effect: Effect,
        vibrantContent: RGBAImage<UInt8>? = nil
    ) throws(BackdropError) -> RGBAImage<UInt8> {
        render(
            source, plan: try RenderPlan(effect: effect, imageSize: source.size), vibrantContent: vibrantContent,
            as: UInt8.self)
    }

    /// ``render(_:effect:vibrantContent:)`` that stops once `cancellation` is cancelled, between passes and between
    /// the pieces of a pass (``Parallelism/cancellation``), and then throws ``BackdropError/Kind/cancelled``.
    public func render(
        _ source: RGBAImage<UInt8>, effect: Effect, vibrantContent: RGBAImage<UInt8>? = nil,
        cancellation: RenderCancellation
    ) throws(BackdropError) -> RGBAImage<UInt8> {
        let plan = try RenderPlan(effect: effect, imageSize: source.size)
        var cancellable = self
        cancellable.parallelism.cancellation = cancellation
        guard
            let output = cancellable.execute(
                source, plan: plan, vibrantContent: vibrantContent, as: UInt8.self,
                isCancelled: { cancellation.isCancelled }),
            !cancellation.isCancelled
        else { throw BackdropError(.cancelled, "the render was cancelled") }
        return output
    }

    /// Renders a plan made for `source`'s size, at the depth of `Sample`. `vibrantContent` as above.
    public func render<Sample: PixelSample>(
        _ source: RGBAImage<UInt8>, plan: RenderPlan,
        vibrantContent: RGBAImage<UInt8>? = nil,
        as: Sample.Type
    ) -> RGBAImage<Sample> {
        execute(source, plan: plan, vibrantContent: vibrantContent, as: Sample.self, isCancelled: { false })!
    }

    /// ``render(_:plan:vibrantContent:as:)`` at 8 bits, drawn over `source`'s own buffer when the plan allows it: the
    /// same bytes, one picture-sized buffer fewer (400 MB for a 100-megapixel picture, and their page faults). It
    /// does when the fast path's capture and downscale read the source first and nothing after the composite reads
    /// it (no glass, whose face reads the source); otherwise into a new buffer, as the other renders.
    public func render(
        over source: consuming RGBAImage<UInt8>, plan: RenderPlan, vibrantContent: RGBAImage<UInt8>? = nil
    ) -> RGBAImage<UInt8> {
        guard plan.rowPasses.first is DownscalePass, plan.glass == nil else {
            return render(source, plan: plan, vibrantContent: vibrantContent, as: UInt8.self)
        }
        var picture = consume source
        guard
            let (effect, blended) = effectRows(
                picture, plan: plan, vibrantContent: vibrantContent, as: UInt8.self, isCancelled: { false })
        else { preconditionFailure("Renderer: a render that cannot be cancelled was") }
        plan.composite.run(effect: effect, vibrancy: blended, over: &picture, parallelism: parallelism)
        applyLevelMatrix(over: &picture, plan: plan, vibrantContent: vibrantContent)
        return picture
    }

    /// The render, or nil when `isCancelled` answers true before one of its passes.
    func execute<Sample: PixelSample>(
        _ source: RGBAImage<UInt8>, plan: RenderPlan, vibrantContent: RGBAImage<UInt8>?, as: Sample.Type,
        isCancelled: () -> Bool
    ) -> RGBAImage<Sample>? {
        guard
            let (effect, blended) = effectRows(
                source, plan: plan, vibrantContent: vibrantContent, as: Sample.self, isCancelled: isCancelled)
        else { return nil }
        // Liquid Glass's face runs on each row right after the composite wrote it (each pixel of the face reads only
        // its own pixel of the composite's picture).
        var output = source.samples.withUnsafeBufferPointer { sourceSamples in
            let face = plan.glass.map { glass in
                let origin = (glass.frame.y * source.width + glass.frame.x) * 4
                let rows = glass.rows(
                    source: SendableConstPointer(sourceSamples.baseAddress! + origin), rowStride: source.width * 4,
                    surface: effect.glassSurface, parallelism: parallelism, as: Sample.self)
                let finish: CompositePass.RowFinish = { y, row in
                    rows.draw(row: y, pixels: row.assumingMemoryBound(to: Sample.self))
                }
                return finish
            }
            return plan.composite.run(
                effect: effect, vibrancy: blended, source: source, parallelism: parallelism, as: Sample.self,
                then: face)
        }
        if isCancelled() { return nil }
        applyLevelMatrix(over: &output, plan: plan, vibrantContent: vibrantContent)
        if let glass = plan.glass {
            if let passes = plan.vibrancy, let content = vibrantContent {
                if isCancelled() { return nil }
                GlassVibrancyFilter(passes, over: glass).run(content: content, over: &output, parallelism: parallelism)
            }
        }
        return output
    }

    /// Every pass before the composite: the effect's rows at `Sample`'s depth, and the vibrant content the composite
    /// blends (none over glass or with a level's matrix); nil when `isCancelled` answers true before a pass.
    private func effectRows<Sample: PixelSample>(
        _ source: RGBAImage<UInt8>, plan: RenderPlan, vibrantContent: RGBAImage<UInt8>?, as: Sample.Type,
        isCancelled: () -> Bool
    ) -> (OutputRows, CompositePass.VibrancyInput?)? {
        precondition(plan.imageSize == source.size, "Renderer: the plan was made for another picture size")
        precondition(
            (plan.vibrancy == nil) == (vibrantContent == nil),
            "Renderer: vibrant content must be given exactly when the plan has vibrancy")
        if isCancelled() { return nil }
        var stage: Stage
        var rowPasses = plan.rowPasses[...]
        if let downscale = rowPasses.first as? DownscalePass {
            // The capture and the downscale read the source once, together (see `CaptureDownscale`); a material's
            // filters and their box downscale read its rows as they are made, in cache.
            let capture = CaptureDownscale(capture: plan.capture, downscale: downscale)
            rowPasses = rowPasses.dropFirst()
            if let filters = rowPasses.first as? MaterialFilterPass, filters.factor > 1 {
                stage = .stored(capture.run(source: source, filteredBy: filters, parallelism: parallelism))
                rowPasses = rowPasses.dropFirst()
            } else {
                stage = .stored(capture.run(source: source, parallelism: parallelism))
            }
        } else {
            stage = .computed(size: plan.frame.size, row: plan.capture.rows(source: source))
        }
        // Which access each pass's consumer has: the next row pass, or the colour pass.
        let consumers = rowPasses.dropFirst().map(\.inputAccess) + [plan.color.inputAccess]
        for (pass, consumer) in zip(rowPasses, consumers) {
            if isCancelled() { return nil }
            stage = pass.output(reading: stage, for: consumer, parallelism: parallelism)
        }
        if isCancelled() { return nil }
        let effect = plan.color.outputRows(reading: stage, maximum: Sample.maximumValue, parallelism: parallelism)
        // The blend runs inside the composite; a level's matrix after it, on the output. Over glass both run after
        // the face, inside its shape.
        let blended = plan.vibrancy.flatMap { passes in
            passes.filter.matrix == nil && plan.glass == nil
                ? vibrantContent.map { (passes.content, passes.filter, $0) } : nil
        }
        return (effect, blended)
    }

    /// A vibrancy level's matrix over `output`, after the composite (over glass it runs after the face instead).
    private func applyLevelMatrix<Sample: PixelSample>(
        over output: inout RGBAImage<Sample>, plan: RenderPlan, vibrantContent: RGBAImage<UInt8>?
    ) {
        guard plan.glass == nil, let passes = plan.vibrancy, let matrix = passes.filter.matrix,
            let content = vibrantContent
        else { return }
        VibrancyMatrixFilter(matrix: matrix, content: passes.content)
            .run(content: content, over: &output, parallelism: parallelism)
    }
}
