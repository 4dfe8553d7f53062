import CVectorKernels
import Foundation

/// Deriche's recursive Gaussian (fourth order): the blur of a ``GaussianKernel`` at a cost per pixel that does not
/// grow with σ. The blur passes use it for wide kernels (``GaussianKernel/recursive``), where the direct sum
/// would read 8σ + 1 taps per pixel.
///
/// - Maths (R. Deriche, "Recursively implementing the Gaussian and its derivatives", 1993; the parameters as
///   tabulated in P. Getreuer, "A Survey of Gaussian Convolution Algorithms", IPOL 2013): the Gaussian's half
///   n ≥ 0 is fitted by Σ αⱼ·exp(−λⱼ·n/σ) over two conjugate pairs (αⱼ, λⱼ). Each pair is one second-order
///   section, run forwards (causal) and backwards (anticausal):
///
///       causal:      y(n) = b0·x(n) + b1·x(n−1) − a1·y(n−1) − a2·y(n−2)
///       anticausal:  z(n) = c1·x(n+1) + c2·x(n+2) − a1·z(n+1) − a2·z(n+2)
///
///   The anticausal response is the causal one mirrored without its n = 0 tap, which the causal part already
///   holds: c1 = b1 − a1·b0, c2 = −a2·b0. The blur is the sum of the four outputs. The b's and c's are scaled so
///   that the gain at DC is exactly 1: a flat input stays flat.
/// - Edges: clamp. Each recursion starts in the steady state of a constant input equal to the edge pixel, which
///   is what an endless run of that pixel beyond the edge leaves: the direct sum's edge rule.
/// - Precision: `Double`. The poles lie about 1.7/σ inside 1 (0.03 at σ = 60 px); a section amplifies its
///   rounding errors by about 1/(1 − |pole|)², 10³ at σ = 60 px and 10⁶ at σ = 1000 px, which `Float`'s
///   6·10⁻⁸ would not survive. Values are stored as `Float` between the passes.
/// - Accuracy: against the direct sum of ±4σ taps, blurred photos agree within a fraction of an 8-bit step
///   (`Tests/`: ≥ 70 dB).
public struct RecursiveGaussian: Sendable, Equatable {
    /// One second-order section, for both directions.
    public struct Section: Sendable, Equatable {
        /// Causal feed-forward coefficients, on x(n) and x(n−1).
        public let b0: Double, b1: Double
        /// Anticausal feed-forward coefficients, on x(n+1) and x(n+2).
        public let c1: Double, c2: Double
        /// Feedback coefficients, the same in both directions.
        public let a1: Double, a2: Double

        /// The causal output for a constant input of 1.
        public var causalSteadyState: Double { (b0 + b1) / (1 + a1 + a2) }
        /// The anticausal output for a constant input of 1.
        public var anticausalSteadyState: Double { (c1 + c2) / (1 + a1 + a2) }

        func scaled(by factor: Double) -> Section {
            Section(b0: b0 * factor, b1: b1 * factor, c1: c1 * factor, c2: c2 * factor, a1: a1, a2: a2)
        }
    }

    /// Standard deviation in pixels.
    public let sigma: Double
    /// The two sections: the blur is the sum of their causal and anticausal outputs.
    public let first: Section, second: Section

    /// Deriche's fourth-order fit: (α, λ) of one member of each conjugate pair.
    static let pairs: [(alpha: (re: Double, im: Double), lambda: (re: Double, im: Double))] = [
        ((0.84, 1.8675), (1.783, 0.6318)),
        ((-0.34015, -0.1299), (1.723, 1.997)),
    ]

    /// The recursive Gaussian of standard deviation `sigma` pixels (> 0).
    public init(sigma: Double) {
        precondition(sigma > 0, "RecursiveGaussian: σ must be positive")
        self.sigma = sigma
        let sections = Self.pairs.map { pair -> Section in
            // Pole p = exp(−λ/σ). The pair α/(1 − p·z⁻¹) + ᾱ/(1 − p̄·z⁻¹) over its common denominator
            // 1 − 2·Re p·z⁻¹ + |p|²·z⁻² has the numerator 2·Re α − 2·Re(α·p̄)·z⁻¹.
            let magnitude = exp(-pair.lambda.re / sigma), angle = pair.lambda.im / sigma
            let p = (re: magnitude * cos(angle), im: -magnitude * sin(angle))
            let b0 = 2 * pair.alpha.re, b1 = -2 * (pair.alpha.re * p.re + pair.alpha.im * p.im)
            let a1 = -2 * p.re, a2 = magnitude * magnitude
            return Section(b0: b0, b1: b1, c1: b1 - a1 * b0, c2: -a2 * b0, a1: a1, a2: a2)
        }
        // Normalising the DC gain to 1 also supplies the Gaussian's 1/(σ·√(2π)).
        let gain = sections.reduce(0) { $0 + $1.causalSteadyState + $1.anticausalSteadyState }
        first = sections[0].scaled(by: 1 / gain)
        second = sections[1].scaled(by: 1 / gain)
        lanes = (Lanes(first), Lanes(second))
    }

    /// A section's coefficients repeated over the four channels, feedback negated: what the loops multiply by.
    /// (Built once here: splatting inside the loop let the compiler pair unrelated scalars into shuffles.)
    struct Lanes: Sendable, Equatable {
        let b0: SIMD4<Double>, b1: SIMD4<Double>, c1: SIMD4<Double>, c2: SIMD4<Double>
        let minusA1: SIMD4<Double>, minusA2: SIMD4<Double>

        init(_ s: Section) {
            b0 = SIMD4(repeating: s.b0); b1 = SIMD4(repeating: s.b1)
            c1 = SIMD4(repeating: s.c1); c2 = SIMD4(repeating: s.c2)
            minusA1 = SIMD4(repeating: -s.a1); minusA2 = SIMD4(repeating: -s.a2)
        }
    }

    let lanes: (Lanes, Lanes)

    /// The two sections as the C twins of the recursion take them (`bd_recursive_section`).
    var cSections: (bd_recursive_section, bd_recursive_section) {
        func section(_ s: Section) -> bd_recursive_section {
            bd_recursive_section(
                b0: s.b0, b1: s.b1, c1: s.c1, c2: s.c2, minusA1: -s.a1, minusA2: -s.a2,
                causalSteadyState: s.causalSteadyState, anticausalSteadyState: s.anticausalSteadyState)
        }
        return (section(first), section(second))
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.sigma == b.sigma && a.first == b.first && a.second == b.second
    }

    /// What one direction of the recursion carries from pixel to pixel, for one pixel lane (R, G, B, A): the last
    /// two inputs and each section's last two outputs ("last" in the direction of travel).
    struct State {
        var x1: SIMD4<Double>, x2: SIMD4<Double>
        var y1: SIMD4<Double>, y2: SIMD4<Double>
        var z1: SIMD4<Double>, z2: SIMD4<Double>
    }

    /// The causal state left by an endless run of `edge` before the first sample.
    @inline(__always) func causalStart(edge: SIMD4<Double>) -> State {
        let y = edge * first.causalSteadyState, z = edge * second.causalSteadyState
        return State(x1: edge, x2: edge, y1: y, y2: y, z1: z, z2: z)
    }

    /// The anticausal state left by an endless run of `edge` after the last sample.
    @inline(__always) func anticausalStart(edge: SIMD4<Double>) -> State {
        let y = edge * first.anticausalSteadyState, z = edge * second.anticausalSteadyState
        return State(x1: edge, x2: edge, y1: y, y2: y, z1: z, z2: z)
    }

    /// The causal output at the next sample `x`, advancing `state`. Fused multiply-adds; the feedback on the
    /// previous output comes last, so the chain from one sample to the next is one multiply-add long.
    @inline(__always) func causal(_ x: SIMD4<Double>, _ s: inout State) -> SIMD4<Double> {
        let f = lanes.0, g = lanes.1
        let y = (x * f.b0).addingProduct(s.x1, f.b1).addingProduct(s.y2, f.minusA2).addingProduct(s.y1, f.minusA1)
        let z = (x * g.b0).addingProduct(s.x1, g.b1).addingProduct(s.z2, g.minusA2).addingProduct(s.z1, g.minusA1)
        s = State(x1: x, x2: s.x1, y1: y, y2: s.y1, z1: z, z2: s.z1)
        return y + z
    }

    /// The anticausal output at the next sample `x` (travelling backwards), advancing `state`.
    @inline(__always) func anticausal(_ x: SIMD4<Double>, _ s: inout State) -> SIMD4<Double> {
        let f = lanes.0, g = lanes.1
        let y = (s.x1 * f.c1).addingProduct(s.x2, f.c2).addingProduct(s.y2, f.minusA2).addingProduct(s.y1, f.minusA1)
        let z = (s.x1 * g.c1).addingProduct(s.x2, g.c2).addingProduct(s.z2, g.minusA2).addingProduct(s.z1, g.minusA1)
        s = State(x1: x, x2: s.x1, y1: y, y2: s.y1, z1: z, z2: s.z1)
        return y + z
    }
}

extension SIMD4<Double> {
    /// A pixel widened for the recursion.
    @inline(__always) init(widening pixel: SIMD4<Float>) {
        self.init(Double(pixel.x), Double(pixel.y), Double(pixel.z), Double(pixel.w))
    }
}

extension SIMD4<Float> {
    /// A pixel of the recursion, rounded to `Float` for storage.
    @inline(__always) init(narrowing pixel: SIMD4<Double>) {
        self.init(Float(pixel.x), Float(pixel.y), Float(pixel.z), Float(pixel.w))
    }
}
