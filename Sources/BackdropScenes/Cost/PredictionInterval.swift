import Foundation

/// How far a prediction may lie from what the device measures: an interval around every predicted frame time, claimed
/// to cover ``coverage`` (80 %) of the figures the model is checked against.
///
/// Method: each figure's error is taken with that figure held out, ln(measured ÷ predicted): for a blur or vibrancy
/// figure (B1, B2, V4, V5) and for a row of the case-study table (O5, O6) the model is fitted again without it (a
/// row already held out keeps the stored fit), a row's error being its frame time's distance outside the times its
/// frame rates allow (0 inside); for a measured fill rate the generation's efficiency is computed again without
/// it (``GPUGeneration``), and a fill's time is the inverse of its rate. The interval runs from the 10th to the
/// 90th percentile of those errors, or wider (below). A figure counts as covered when it lies inside the interval computed from the
/// other figures' errors alone: `compute()` (BackdropCalibration) reports how many do, and widens the central share past 80 % until
/// at least 80 % do. The interval is stored (``stored``: the 21 fits
/// take about 2 s); a test computes it again and holds the stored values to it.
///
/// The interval says how well the model meets figures like those it is checked against: full-screen blurs on the
/// two iPads the talk measured, the talk's tables and single-texture fills. A screen far from them (a shadow far
/// wider, many more layers or offscreen pixels) is an extrapolation, which ``EvidenceCoverage`` names.
public struct PredictionInterval: Sendable, Codable, Equatable {
    /// ln(measured ÷ predicted) at the interval's low end and at its high end.
    public var lowLog: Double
    public var highLog: Double

    /// The share of figures the interval is claimed to cover.
    public static let coverage = 0.8

    /// The interval `compute()` (BackdropCalibration) gives for the stored fit.
    public static let stored = PredictionInterval(lowLog: -0.09354607557771313, highLog: 0.16464500821373415)

    /// The interval of a device whose GPU generation has no measurement of its own (``Device/Evidence/extrapolated``):
    /// ``stored`` widened at each end by what borrowing another generation's efficiency costs, as
    /// `extrapolationWidening()` (BackdropCalibration) computes it, stored (a test holds the two equal):
    /// - the leave-one-generation-out errors: each measured generation's GFXBench Manhattan figures predicted with
    ///   the efficiency it would borrow were it unmeasured; the lowest and highest error, as ln of time, widen the
    ///   low and the high end (each only outward);
    /// - the clock: the extrapolated chips from the A17 Pro on have no public clock estimate and carry the A16's
    ///   forward, so both ends widen further by the largest step between successive estimated clocks of Apple's
    ///   GPUs (A11 to A16, [PT]).
    /// The derivation and its figures are in `docs/device-evidence.md`, "Ranges of extrapolated devices".
    public static let extrapolated = PredictionInterval(lowLog: -0.3789657255211527, highLog: 0.9272897478301575)

    public init(lowLog: Double, highLog: Double) {
        self.lowLog = lowLog
        self.highLog = highLog
    }

    /// The frame times a predicted `ms` stands for.
    public func ms(_ ms: Double) -> ClosedRange<Double> { ms * exp(lowLog)...ms * exp(highLog) }

    /// Whether an error (ln(measured ÷ predicted)) lies inside.
    public func contains(logError: Double) -> Bool { logError >= lowLog - 1e-12 && logError <= highLog + 1e-12 }
}
