import Foundation

/// A normalised, symmetric 1-D Gaussian: weights for offsets −radius … +radius.
///
/// The kernel is cut at ±4σ (radius = ⌈4σ⌉), as the reference renders are, and its weights are scaled to sum
/// to exactly 1 in `Double` before they are rounded to `Float`, so a flat input stays flat.
/// σ ≤ 0 gives the identity kernel [1].
public struct GaussianKernel: Sendable, Equatable {
    /// Standard deviation in pixels.
    public let sigma: Double
    /// Offsets run from −radius to +radius.
    public let radius: Int
    /// 2·radius + 1 weights; `weights[radius]` is the centre.
    public let weights: [Float]

    /// The kernel of standard deviation `sigma` pixels.
    public init(sigma: Double) {
        self.sigma = sigma
        guard sigma > 0 else {
            radius = 0
            weights = [1]
            return
        }
        radius = Int((4 * sigma).rounded(.up))
        let raw = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = raw.reduce(0, +)
        weights = raw.map { Float($0 / total) }
    }

    /// Taps read per output pixel.
    public var taps: Int { weights.count }

    /// The widest radius the blur passes sum tap by tap: 32 (σ ≤ 8 px), which covers the fast path's blurs on
    /// the small image. Past it the recursive form (``recursive``) costs less: a constant 16 multiply-adds per
    /// pixel each way against r + 1 for the direct sum.
    public static let widestDirectRadius = 32

    /// The recursive form that the blur passes run instead of the taps, for kernels wider than
    /// ``widestDirectRadius``; nil for narrower ones.
    public var recursive: RecursiveGaussian? {
        radius > Self.widestDirectRadius ? RecursiveGaussian(sigma: sigma) : nil
    }
}
