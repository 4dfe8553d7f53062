import Foundation

/// The colour rule for decoded samples: what Backdrop treats as sRGB-encoded and how it converts the rest.
///
/// - No gAMA chunk, an sRGB chunk, or gAMA ≈ 1/2.2 (0.45455): the samples are sRGB-encoded already; kept as they are.
/// - Any other gAMA g: a sample v in [0, 1] encodes linear light L = v^(1/g); the result is the exact piecewise
///   sRGB encoding of L.
/// - Alpha is never converted.
public enum SampleEncoding: Sendable, Equatable {
    /// Samples are sRGB-encoded already.
    case sRGB
    /// Samples are encoded with the power law of this file gamma (the gAMA value, e.g. 1.0 for linear).
    case power(fileGamma: Double)

    /// The encoding a PNG's colour chunks declare.
    public init(hasSRGBChunk: Bool, fileGamma: Double?) {
        if hasSRGBChunk { self = .sRGB; return }
        guard let gamma = fileGamma, gamma > 0 else { self = .sRGB; return }
        // gAMA 45455 (1/2.2) is how most writers tag sRGB; treat the neighbourhood the same.
        self = abs(gamma - 0.45455) < 0.0005 ? .sRGB : .power(fileGamma: gamma)
    }

    /// The sRGB-encoded value in [0, 1] of a sample `v` in [0, 1].
    public func sRGBValue(_ v: Double) -> Double {
        switch self {
        case .sRGB: return v
        case .power(let gamma): return ColorSpace.sRGBEncode(linear: pow(v, 1 / gamma))
        }
    }
}

/// The sRGB transfer curve (IEC 61966-2-1), exact piecewise form.
public enum ColorSpace {
    /// Linear light in [0, 1] → sRGB-encoded value in [0, 1].
    public static func sRGBEncode(linear: Double) -> Double {
        linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
    }
}
