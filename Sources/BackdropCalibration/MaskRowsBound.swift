import BackdropScenes

/// Why seed O6's masks rows cannot both be met: the least frame that the iPod touch (5th generation) can take
/// for `contacts-table-masks` in *any* model in which leaving the framebuffer for a mask stores it and coming
/// back loads it, once the iPhone 4S meets its own masks row and its overlay row. A figure computed from the
/// talk's ranges (`scenes.md`), the scene's plan and the device table, never from the fitted coefficients.
///
/// The two devices have the same GPU, clock and bus in the device table; the iPod draws more masks (8 whole and
/// one cut by the screen's edge, against 7, with the table's geometry) on a screen with 18 % more pixels. Write
/// the 4S's masks frame as F = b + i + X: the busy time b of the table without its masks, the idle time i that
/// is not a mask's, and X, all that the n masks add, busy or idle. The assumptions, each a consequence of the
/// two devices sharing a GPU, clock and bus:
/// 1. a whole mask of the iPod costs at least an average mask of the 4S plus the difference s_iPod − s_4S of
///    their framebuffers' store and load (each moved at most at the bus's peak bandwidth); a mask cut to a share
///    a of its pixels costs at least s_iPod + a (X / n − s_4S): its store and load, and the rest scaled by its
///    pixels, although its draws and waits do not shrink;
/// 2. the iPod's table without its masks keeps its renderer busy at least ``baseRatio`` × b (its draws have at
///    least that many times the pixels, are that many times as many, and its framebuffer as much larger) and
///    idle at least i.
///
/// The talk's figures bound the 4S: F ≥ 1000 / 50 ms (mid 40s fps), i ≤ (1 − 0.83) F (mid to upper 80s %
/// busy), and b ≤ 35 % of 16.67 ms (the overlay table, this table without its masks plus seven small overlays,
/// runs at 60 fps with the GPU about 30 % busy). With whole masks only, the iPod's frame is at least
///
///     baseRatio · b + i + (n_iPod / n_4S) · X + n_iPod · (s_iPod − s_4S),     X = F − b − i,
///
/// which falls as b and i grow (the masks' count ratio, the cut mask counted by its share of pixels, 8.36 / 7, is
/// above ``baseRatio``, 1.18) and rises with F; its least value has F, b and i at those bounds
/// (``leastFrameMs(bandwidthShare:)``, with the cut mask as in 1). Above 25 ms (40 fps) the iPod's row cannot be
/// met while the 4S meets its own, whatever the coefficients. At the model's e = 0.8 it is above; it falls within
/// the row only from ``bandwidthShareToMeet`` of the bus's peak (about 96 %), every other figure at its edge.
public struct MaskRowsBound: Sendable {
    /// The 4S's masks row (fewer masks), the iPod's masks row, and the 4S's overlay row.
    public let fewer: CaseStudy, more: CaseStudy, overlay: CaseStudy
    /// Each mask's pixels in each device's frame (its composite's): one entry per mask.
    public let maskPixels: (fewer: [Int], more: [Int])
    /// How many times the 4S's the iPod's table without its masks costs at least: the least of the ratios of its
    /// draws' pixels, of their number and of the framebuffers (its on-screen passes other than the composites).
    public let baseRatio: Double

    /// The bound for two masks rows and the overlay row of the first's device; the rows' frames are planned once.
    public init(fewer: CaseStudy, more: CaseStudy, overlay: CaseStudy) {
        (self.fewer, self.more, self.overlay) = (fewer, more, overlay)
        let (fewerPasses, morePasses) = (fewer.passes, more.passes)
        func pixels(_ passes: [GPUPass]) -> [Int] { Self.returns(passes).map { passes[$0].descriptor.pixelsWritten } }
        maskPixels = (pixels(fewerPasses), pixels(morePasses))
        func base(_ passes: [GPUPass]) -> (pixels: Int, draws: Int) {
            let composites = Set(Self.returns(passes))
            let drawn = passes.indices.filter { passes[$0].target == .screen && !composites.contains($0) }
            return (drawn.reduce(0) { $0 + passes[$1].descriptor.pixelsWritten }, drawn.count)
        }
        let (a, b) = (base(fewerPasses), base(morePasses))
        baseRatio = min(
            Double(b.pixels) / Double(a.pixels), Double(b.draws) / Double(a.draws),
            Double(more.device.screen.area) / Double(fewer.device.screen.area))
    }

    /// Seed O6 as `scenes.md`'s table gives it: the iPhone 4S and the iPod touch (5th generation).
    public static let o6 = MaskRowsBound(
        fewer: row("contacts-table-masks", "iphone-4s"), more: row("contacts-table-masks", "ipod-touch-5"),
        overlay: row("contacts-table-overlay", "iphone-4s"))

    static func row(_ scene: String, _ device: String) -> CaseStudy {
        CaseStudy.all.first { $0.sceneName == scene && $0.deviceID == device }!
    }

    /// Where a frame's plan comes back to the framebuffer from offscreen renders: one per mask, at its composite.
    public static func returns(_ passes: [GPUPass]) -> [Int] {
        passes.indices.dropFirst().filter { passes[$0 - 1].target != .screen && passes[$0].target == .screen }
    }

    /// Masks in each device's frame.
    public var masks: (fewer: Int, more: Int) { (maskPixels.fewer.count, maskPixels.more.count) }

    /// One store and one load of `device`'s framebuffer at `bandwidthShare` of its bus's peak, ms.
    static func storeAndLoadMs(_ device: Device, bandwidthShare: Double) -> Double {
        2 * 4 * Double(device.screen.area) / (device.memoryBandwidthGBps * 1e9 * bandwidthShare) * 1e3
    }

    /// The least frame, ms, of the iPod's masks table when the 4S meets its masks and overlay rows, with the
    /// framebuffer moved at `bandwidthShare` of the bus's peak (the model's e, or 1 for the most generous bound).
    public func leastFrameMs(bandwidthShare: Double) -> Double {
        let frame = 1000 / fewer.fps.upperBound
        let idle = (1 - fewer.gpuPercent!.lowerBound / 100) * frame
        let baseBusy = overlay.gpuPercent!.upperBound / 100 * FrameTimeline.budgetMs
        let pixels = maskPixels, whole = Double(pixels.fewer.max()!)
        let store = Self.storeAndLoadMs(fewer.device, bandwidthShare: bandwidthShare)
        let storeMore = Self.storeAndLoadMs(more.device, bandwidthShare: bandwidthShare)
        // An average mask of the 4S: what the masks add, at least their stores and loads.
        let mask = max(frame - baseBusy - idle, Double(pixels.fewer.count) * store) / Double(pixels.fewer.count)
        let masks = pixels.more.reduce(0.0) { sum, maskPixels in
            sum + storeMore + min(1, Double(maskPixels) / whole) * (mask - store)
        }
        return baseRatio * baseBusy + idle + masks
    }

    /// The least share of the bus's peak bandwidth at which the bound lets the iPod reach its row (to 10⁻⁶), or
    /// nil if not even the full peak does: below it the two rows cannot both be met.
    public var bandwidthShareToMeet: Double? {
        let target = 1000 / more.fps.lowerBound
        guard leastFrameMs(bandwidthShare: 1) <= target else { return nil }
        var low = 1e-3, high = 1.0  // the least frame falls as the share grows
        while high - low > 1e-6 {
            let middle = (low + high) / 2
            if leastFrameMs(bandwidthShare: middle) <= target { high = middle } else { low = middle }
        }
        return high
    }
}
