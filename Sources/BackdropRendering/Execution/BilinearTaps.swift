/// For each output index of a ×k bilinear upscale: the two input samples and the weight of the upper one.
///
/// Output index x samples the input at u = (x + ½)/k − ½, clamped to [0, n − 1]: between input ⌊u⌋ and ⌊u⌋ + 1
/// (the last input repeats past the edge) with weight u − ⌊u⌋ on the upper one.
struct BilinearTaps: Sendable {
    /// k.
    let factor: Int
    /// n, the input samples.
    let inputCount: Int
    /// The output indices cut into runs that share their two inputs (empty when made without them).
    let segments: [Segment]
    /// The weights of the segments, each repeated over the four channels of its pixel, so that four consecutive
    /// output indices' weights load as one 16-lane vector. Segments with the same weights share them: every
    /// segment inside the picture has the same k weights, so the table is a few hundred bytes that stay in the
    /// L1 cache, where one weight per output pixel (32 KB for a 2048-pixel row) would be read from L2 on every row.
    let weights: [SIMD4<Float>]
    /// The same weights as multipliers of ``FixedPoint/scaledProduct(_:_:)`` (round(f·2¹⁵)), for 8-bit output.
    let fixedPointWeights: [SIMD4<Int16>]

    /// The segments inside the picture, when they are alike and come in groups of four (k a multiple of 4):
    /// `segments[first ..< first + count]`, each k output indices reading inputs i and i + 1 with the same weights,
    /// one after the other. The composite walks them without reading a segment (``interpolate(_:_:_:group:)``, or
    /// eight output indices at a time, ``interpolate(_:_:_:_:pair:group:)``).
    let uniformRun: UniformRun?

    /// Output indices start ..< end, reading inputs `lower` and `upper`, with weights
    /// `weights[self.weights ..< self.weights + end − start]`.
    struct Segment: Sendable {
        let start: Int, end: Int, lower: Int, upper: Int, weights: Int
    }

    /// `count` alike segments from `segments[first]` on (see ``uniformRun``).
    struct UniformRun: Sendable {
        let first: Int, count: Int
        /// The first segment's output start, input and weights; each next one starts k later and one input on.
        let start: Int, lower: Int, weights: Int
        /// k, and k / 4 groups of four per segment.
        let factor: Int, groupsPerSegment: Int
    }

    /// Taps for `outputCount` output indices; with `segmented` false, only ``tap(_:)`` (the taps down the frame,
    /// read one row at a time). Memory: the segments, about 40 bytes per k output indices, and none per output
    /// index, so a picture 1 pixel wide costs what its pixels cost.
    init(outputCount: Int, factor: Int, inputCount: Int, segmented: Bool = true) {
        self.factor = factor
        self.inputCount = inputCount
        var segments: [Segment] = [], weights: [SIMD4<Float>] = []
        // The distinct runs so far: where their weights start and how many (an integer k gives a few: the
        // interior's and the edges'). Searched in order, not hashed: a dictionary keyed by arrays is a type the
        // runtime builds by name on a process's first render.
        var distinctStarts: [Int] = [], distinctCounts: [Int] = []
        var run: [Float] = [], previousRun: (weights: Int, values: [Float])?
        var start = 0
        while segmented && start < outputCount {
            let first = Self.tap(start, factor: factor, inputCount: inputCount)
            run.removeAll(keepingCapacity: true)
            run.append(first.fraction)
            var end = start + 1
            while end < outputCount {
                let next = Self.tap(end, factor: factor, inputCount: inputCount)
                guard next.lower == first.lower else { break }
                run.append(next.fraction)
                end += 1
            }
            // Most segments repeat the one before (every interior one): compared first, without a key.
            let offset: Int
            if let previousRun, previousRun.values == run {
                offset = previousRun.weights
            } else {
                let known = distinctStarts.indices.first { i in
                    distinctCounts[i] == run.count
                        && run.indices.allSatisfy { weights[distinctStarts[i] + $0].x.bitPattern == run[$0].bitPattern }
                }
                if let known {
                    offset = distinctStarts[known]
                } else {
                    offset = weights.count
                    distinctStarts.append(offset)
                    distinctCounts.append(run.count)
                    weights += run.map { SIMD4(repeating: $0) }
                }
                previousRun = (offset, run)
            }
            segments.append(Segment(start: start, end: end, lower: first.lower, upper: first.upper, weights: offset))
            start = end
        }
        self.segments = segments
        uniformRun = Self.uniformRun(in: segments, factor: factor)
        // Padding: a group of four loads 16 lanes from its first weight on.
        self.weights = weights + [SIMD4<Float>](repeating: .zero, count: 3)
        fixedPointWeights = self.weights.map { SIMD4(repeating: FixedPoint.multiplier($0.x)) }
    }

    /// Output index `x`'s two inputs and the weight of the upper one.
    @inline(__always) func tap(_ x: Int) -> (lower: Int, upper: Int, fraction: Float) {
        Self.tap(x, factor: factor, inputCount: inputCount)
    }

    @inline(__always) static func tap(_ x: Int, factor: Int, inputCount: Int) -> (
        lower: Int, upper: Int, fraction: Float
    ) {
        let u = min(max((Double(x) + 0.5) / Double(factor) - 0.5, 0), Double(inputCount - 1))
        let i = Int(u.rounded(.down))
        return (i, min(i + 1, inputCount - 1), Float(u - Double(i)))
    }

    /// The longest stretch of alike segments (see ``uniformRun``), if k is a multiple of 4 and it has two or more.
    static func uniformRun(in segments: [Segment], factor: Int) -> UniformRun? {
        guard factor % 4 == 0 else { return nil }
        func isInterior(_ s: Segment) -> Bool { s.end - s.start == factor && s.upper == s.lower + 1 }
        func follows(_ s: Segment, _ previous: Segment) -> Bool {
            isInterior(s) && s.start == previous.end && s.lower == previous.lower + 1 && s.weights == previous.weights
        }
        var best: (first: Int, count: Int) = (0, 0)
        var i = 0
        while i < segments.count {
            guard isInterior(segments[i]) else { i += 1; continue }
            var end = i + 1
            while end < segments.count && follows(segments[end], segments[end - 1]) { end += 1 }
            if end - i > best.count { best = (i, end - i) }
            i = end
        }
        guard best.count >= 2 else { return nil }
        let first = segments[best.first]
        return UniformRun(
            first: best.first, count: best.count, start: first.start, lower: first.lower,
            weights: first.weights, factor: factor, groupsPerSegment: factor / 4)
    }

    /// The interpolated values of a run of alike segments, as ``interpolate(_:_:_:group:single:)`` computes them
    /// (the same values, bit for bit), handed out four output indices at a time: for a caller that checks each
    /// group (vibrant content whose clip ends inside the run). It is also the independent walk the eight-pixel
    /// one below is tested against (`VibrancyTests`), which is why the two are not one.
    @inline(__always)
    func interpolate<A: InterpolationArithmetic>(
        _ input: UnsafePointer<A.Pixel>, _ run: UniformRun, _: A.Type,
        group: (Int, A.Group) -> Void
    ) {
        A.withWeights(of: self) { table in
            let weights = table + run.weights
            var start = run.start, left = input + run.lower
            for _ in 0..<run.count {
                let left16 = A.group(repeating: left[0]), delta16 = A.group(repeating: A.difference(left[1], left[0]))
                var g = 0
                while g < run.groupsPerSegment {
                    group(start &+ 4 &* g, A.interpolated(left16, delta16, weights + 4 &* g))
                    g &+= 1
                }
                start &+= run.factor
                left += 1
            }
        }
    }

    /// The same values as ``interpolate(_:_:_:group:)``, handed out eight output indices at a time
    /// (`pair(x, values of x ..< x + 4, values of x + 4 ..< x + 8)`), so that the caller can store eight pixels at
    /// once. With an odd number of groups per segment (k = 4, 12, …) a pair can span two segments, so segments are
    /// walked two at a time; an odd run's last group is handed to `group`. `Groups` gives the number of groups per
    /// segment to the compiler when it is one of the common ones (k = 4, 8, 12), so that the loop over a segment's
    /// groups unrolls away.
    @inline(__always)
    func interpolate<A: InterpolationArithmetic, Groups: GroupsPerSegment>(
        _ input: UnsafePointer<A.Pixel>, _ run: UniformRun, _: A.Type, _: Groups.Type,
        pair: (Int, A.Group, A.Group) -> Void, group: (Int, A.Group) -> Void
    ) {
        A.withWeights(of: self) { table in
            let weights = table + run.weights
            let groups = Groups.count ?? run.groupsPerSegment
            /// A segment's left input and its difference to the right one, over four pixels' lanes: read once per
            /// segment, before the caller's stores (which the compiler cannot tell apart from `input`).
            @inline(__always) func ends(_ left: UnsafePointer<A.Pixel>) -> (A.Group, A.Group) {
                (A.group(repeating: left[0]), A.group(repeating: A.difference(left[1], left[0])))
            }
            /// Group g of a segment with those ends.
            @inline(__always) func value(_ ends: (A.Group, A.Group), _ g: Int) -> A.Group {
                A.interpolated(ends.0, ends.1, weights + 4 &* g)
            }
            /// The pairs of groups g0 and g0 + 1, g0 + 2 and g0 + 3, … that lie wholly in one segment (first output
            /// index `start`); returns the group after the last pair.
            @inline(__always) func pairs(_ segment: (A.Group, A.Group), from g0: Int, start: Int) -> Int {
                var g = g0
                while g &+ 1 < groups { pair(start &+ 4 &* g, value(segment, g), value(segment, g &+ 1)); g &+= 2 }
                return g
            }
            var start = run.start, left = input + run.lower, remaining = run.count
            if groups % 2 == 0 {
                while remaining > 0 {
                    _ = pairs(ends(left), from: 0, start: start)
                    start &+= run.factor; left += 1; remaining &-= 1
                }
                return
            }
            // Two segments (2·k output indices, an even number of groups) per step; the pair in the middle takes
            // the first segment's last group and the second's first.
            while remaining >= 2 {
                let first = ends(left), second = ends(left + 1)
                let middle = pairs(first, from: 0, start: start)
                pair(start &+ 4 &* middle, value(first, middle), value(second, 0))
                _ = pairs(second, from: 1, start: start &+ run.factor)
                start &+= 2 &* run.factor; left += 2; remaining &-= 2
            }
            if remaining == 1 {
                let last = ends(left)
                let single = pairs(last, from: 0, start: start)
                group(start &+ 4 &* single, value(last, single))
            }
        }
    }

    /// The interpolated values a + (b − a)·f of one segment (``InterpolationArithmetic/interpolated(_:_:_:)``),
    /// handed out four output indices at a time (`group(x, values of x ..< x + 4)`) and then one at a time for the
    /// rest (`single(x, values in lanes 0–3)`). Exact where a = b: flat areas keep their exact value (and the exact
    /// ties of the tint round as in the references). Every caller gets the same values.
    @inline(__always)
    func interpolate<A: InterpolationArithmetic>(
        _ input: UnsafePointer<A.Pixel>, _ segment: Segment, _: A.Type,
        group: (Int, A.Group) -> Void, single: (Int, A.Group) -> Void
    ) {
        let left = A.group(repeating: input[segment.lower])
        let delta = A.group(repeating: A.difference(input[segment.upper], input[segment.lower]))
        A.withWeights(of: self) { table in
            let weights = table + segment.weights, count = segment.end &- segment.start
            var i = 0
            while i &+ 4 <= count {
                group(segment.start &+ i, A.interpolated(left, delta, weights + i))
                i &+= 4
            }
            while i < count {
                // One pixel: the group's arithmetic on lanes 0–3, with this index's weights in every pixel's lanes.
                single(segment.start &+ i, A.interpolated(left, delta, weightOf: weights + i))
                i &+= 1
            }
        }
    }
}

/// The number of groups of four output indices in a segment of a ``BilinearTaps/UniformRun`` (k / 4), as a type:
/// a constant the compiler sees for the common k, or `nil` (read from the run) for any other.
protocol GroupsPerSegment {
    static var count: Int? { get }
}

/// k = 4, 8, 12: one, two, three groups per segment; any other k: the run's own count.
enum OneGroupPerSegment: GroupsPerSegment { static var count: Int? { 1 } }
enum TwoGroupsPerSegment: GroupsPerSegment { static var count: Int? { 2 } }
enum ThreeGroupsPerSegment: GroupsPerSegment { static var count: Int? { 3 } }
enum RunGroupsPerSegment: GroupsPerSegment { static var count: Int? { nil } }
