import BackdropScenes

/// How little any choice of coefficients can make a case-study row cost: a check on the planner's passes, not on
/// the fit. The model prices a pass as max(fill, ALU, memory) plus a cost per draw; the fitted coefficients
/// (β, c, v, d, k, w) only ever add to that, so with all of them at zero a row's passes keep the renderer busy
/// for the *floor*: texture fetches or pixels at the device's peak texel rate, bytes at e × the bus's peak, and
/// nothing for blending, colour maths, draws or waits. A row whose floor is above the most busy time its ranges
/// allow is out of reach of every fit: what would move it is the plan (the passes the planner assumes) or the
/// device table, not a coefficient.
extension CaseStudy {
    /// The renderer's busy time, ms, of the row's passes with every fitted coefficient at zero and the memory
    /// moved at `bandwidthShare` of the bus's peak (the model's e).
    public func floorBusyMs(bandwidthShare: Double) -> Double {
        let bare = CostModel(
            blendedPixelFillCost: 0, colorOpsPerPixel: 0, vibrancyFilterOpsPerPixel: 0, clocksPerDraw: 0,
            tilerClocksPerDraw: 0, dependencyWaitMs: 0, switchMs: 0,
            bandwidthEfficiency: bandwidthShare)
        return bare.frame(of: passes, on: device).busyMs
    }

    /// The most busy time, ms, the row's ranges allow: its highest GPU share of the longest frame its lowest frame
    /// rate allows (busy ÷ max(frame, 16.67 ms) is the utilisation), or that frame where it gives no GPU share;
    /// infinite for a row that only asks for fewer than 60 fps.
    public var mostBusyMs: Double {
        guard fps.lowerBound > 0 else { return .infinity }
        let longest = max(1000 / fps.lowerBound, FrameTimeline.budgetMs)
        return (gpuPercent.map { $0.upperBound / 100 } ?? 1) * longest
    }

    /// Whether no choice of coefficients can bring the row into its ranges at `bandwidthShare`.
    public func outOfReach(bandwidthShare: Double) -> Bool { floorBusyMs(bandwidthShare: bandwidthShare) > mostBusyMs }
}
