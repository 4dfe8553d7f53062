import BackdropScenes
import Foundation

extension DeviceEvidence {
    /// One device's GFXBench 5.0 Manhattan median (Kishonti's test 544, on screen) as pmndrs/detect-gpu lists it
    /// ([DG], commit aaae5b5, `benchmarks/m-apple.json` and `m-apple-ipad.json`): frames a second at the size the
    /// device reported. One test, never mixed with another; an on-screen figure at the display's refresh is only a
    /// lower bound.
    public struct Manhattan: Sendable {
        public let deviceID: String
        public let fps: Double
        /// The size the benchmark reported, pixels.
        public let width: Int
        public let height: Int
        /// The device's name as Kishonti's file gives it.
        public let listedAs: String

        init(_ deviceID: String, fps: Double, width: Int, height: Int, listedAs: String) {
            (self.deviceID, self.fps, self.width, self.height, self.listedAs) = (deviceID, fps, width, height, listedAs)
        }

        public var device: Device { Device.named(deviceID)! }
        /// Pixels drawn a second: fps × the reported size.
        public var pixelRate: Double { fps * Double(width * height) }

        /// At or within 5 % below a refresh rate (60 or 120 Hz): the display, not the GPU, set it.
        public var isCapped: Bool { (57...60).contains(fps) || (114...120).contains(fps) }

        /// Whether the reported size is the device's own (its render size or panel, either way round, within 1 %).
        public var sizeIsTheDevices: Bool {
            let sizes = [device.screen] + (device.panel.map { [$0] } ?? [])
            return sizes.contains { size in
                Self.near(width, size.width) && Self.near(height, size.height)
                    || Self.near(width, size.height) && Self.near(height, size.width)
            }
        }

        /// Whether `value` lies within 1 % of `reference`.
        static func near(_ value: Int, _ reference: Int) -> Bool {
            abs(Double(value - reference)) <= 0.01 * Double(reference)
        }
    }

    /// How a Manhattan figure is used.
    public enum ManhattanUse: Equatable, Sendable {
        /// An A7 device's figure, the anchor the others are compared with (the G6430's efficiency is the fill
        /// tests', 1).
        case anchor
        /// Below the refresh: its generation's efficiency is fitted to it, and it is held out in turn.
        case fitted
        /// At the refresh: a lower bound, checked, never fitted.
        case lowerBound
        /// Not used, and why: a size that is not the device's (a mislabelled row), or a figure below what a capped
        /// figure of the same chip bounds from below (a throttled or early run, not the chip's capacity).
        case unused(String)
    }

    /// Every Manhattan row of the research (`benchmarks.tsv`) for a device of the table, in its order.
    public static let manhattan: [Manhattan] = [
        Manhattan("iphone-7", fps: 59, width: 1334, height: 750, listedAs: "apple iphone 7"),
        Manhattan("iphone-7-plus", fps: 47, width: 1920, height: 1080, listedAs: "apple iphone 7 plus"),
        Manhattan("iphone-x", fps: 54, width: 2001, height: 1125, listedAs: "apple iphone x"),
        Manhattan("iphone-8", fps: 60, width: 1334, height: 750, listedAs: "apple iphone 8"),
        Manhattan("iphone-8-plus", fps: 58, width: 1920, height: 1080, listedAs: "apple iphone 8 plus"),
        Manhattan("iphone-xr", fps: 60, width: 1792, height: 828, listedAs: "apple iphone xr"),
        Manhattan("iphone-xs", fps: 59, width: 2436, height: 1125, listedAs: "apple iphone xs"),
        Manhattan("iphone-xs-max", fps: 58, width: 2208, height: 1242, listedAs: "apple iphone xs max"),
        Manhattan("iphone-xs-max", fps: 57, width: 2688, height: 1242, listedAs: "apple iphone xs max"),
        Manhattan("iphone-se-2", fps: 60, width: 1334, height: 750, listedAs: "apple iphone se (2nd gen)"),
        Manhattan("iphone-11", fps: 60, width: 1792, height: 828, listedAs: "apple iphone 11"),
        Manhattan("iphone-11-pro", fps: 60, width: 2436, height: 1125, listedAs: "apple iphone 11 pro"),
        Manhattan("iphone-11-pro-max", fps: 60, width: 2688, height: 1242, listedAs: "apple iphone 11 pro max"),
        Manhattan("iphone-12-mini", fps: 60, width: 2338, height: 1080, listedAs: "apple iphone 12 mini"),
        Manhattan("iphone-12-pro", fps: 60, width: 2532, height: 1170, listedAs: "apple iphone 12 pro"),
        Manhattan("iphone-12-pro-max", fps: 60, width: 2778, height: 1284, listedAs: "apple iphone 12 pro max"),
        Manhattan("iphone-se-3", fps: 60, width: 1334, height: 750, listedAs: "apple iphone se (2022)"),
        Manhattan("iphone-13-mini", fps: 60, width: 2338, height: 1080, listedAs: "apple iphone 13 mini"),
        Manhattan("iphone-14", fps: 60, width: 2532, height: 1170, listedAs: "apple iphone 14"),
        Manhattan("iphone-14-plus", fps: 60, width: 2778, height: 1284, listedAs: "apple iphone 14 plus"),
        Manhattan("iphone-15", fps: 60, width: 2532, height: 1170, listedAs: "apple iphone 15"),
        Manhattan("iphone-15-plus", fps: 60, width: 2778, height: 1284, listedAs: "apple iphone 15 plus"),
        Manhattan("iphone-15-pro", fps: 60, width: 2532, height: 1170, listedAs: "apple iphone 15 pro"),
        Manhattan("iphone-15-pro-max", fps: 60, width: 2778, height: 1284, listedAs: "apple iphone 15 pro max"),
        Manhattan("iphone-16e", fps: 60, width: 2532, height: 1170, listedAs: "apple iphone 16 (iphone17,5)"),
        Manhattan("iphone-16-plus", fps: 60, width: 2778, height: 1284, listedAs: "apple iphone 16 (iphone17,4)"),
        Manhattan("iphone-16-pro", fps: 60, width: 2532, height: 1170, listedAs: "apple iphone 16 (iphone17,1)"),
        Manhattan("iphone-16-pro-max", fps: 60, width: 2778, height: 1284, listedAs: "apple iphone 16 (iphone17,2)"),
        Manhattan("iphone-17", fps: 60, width: 2532, height: 1170, listedAs: "apple iphone 17"),
        Manhattan("iphone-17-pro", fps: 60, width: 2532, height: 1170, listedAs: "apple iphone 17 pro"),
        Manhattan("iphone-air", fps: 60, width: 2688, height: 1242, listedAs: "apple iphone air"),
        Manhattan("iphone-17-pro-max", fps: 60, width: 2778, height: 1284, listedAs: "apple iphone 17 pro max"),
        Manhattan("iphone-5s", fps: 29, width: 1136, height: 640, listedAs: "apple iphone 5s"),
        Manhattan("iphone-6", fps: 34, width: 1334, height: 750, listedAs: "apple iphone 6"),
        Manhattan("iphone-6-plus", fps: 21, width: 1920, height: 1080, listedAs: "apple iphone 6 plus"),
        Manhattan("iphone-se-1", fps: 58, width: 1136, height: 640, listedAs: "apple iphone se"),
        Manhattan("iphone-6s", fps: 56, width: 1334, height: 750, listedAs: "apple iphone 6s"),
        Manhattan("iphone-6s-plus", fps: 39, width: 1920, height: 1080, listedAs: "apple iphone 6s plus"),
        Manhattan("ipad-6", fps: 40, width: 2048, height: 1536, listedAs: "apple ipad (6th gen)"),
        Manhattan("ipad-7", fps: 36, width: 2160, height: 1620, listedAs: "apple ipad (10.2-inch) (7th generation)"),
        Manhattan("ipad-pro-10-5", fps: 57, width: 2048, height: 1536, listedAs: "apple ipad pro (10.5-inch)"),
        Manhattan("ipad-pro-10-5", fps: 48, width: 2224, height: 1668, listedAs: "apple ipad pro (10.5-inch)"),
        Manhattan(
            "ipad-pro-12-9-2", fps: 44, width: 2732, height: 2048, listedAs: "apple ipad pro (12.9-inch, 2nd gen)"),
        Manhattan("ipad-mini-5", fps: 59, width: 2048, height: 1536, listedAs: "apple ipad mini (2019)"),
        Manhattan("ipad-8", fps: 57, width: 2160, height: 1620, listedAs: "apple ipad 8th gen (wifi+cellular)"),
        Manhattan("ipad-air-3", fps: 58, width: 2224, height: 1668, listedAs: "apple ipad air (2019)"),
        Manhattan("ipad-pro-11-1", fps: 105, width: 2388, height: 1668, listedAs: "apple ipad pro (11-inch)"),
        Manhattan(
            "ipad-pro-12-9-3", fps: 93, width: 2732, height: 2048,
            listedAs: "apple ipad pro (12.9-inch) (3rd generation)"),
        Manhattan(
            "ipad-pro-11-2", fps: 101, width: 2388, height: 1668, listedAs: "apple ipad pro (11-inch) (2rd generation)"),
        Manhattan(
            "ipad-pro-12-9-4", fps: 60, width: 2732, height: 2048,
            listedAs: "apple ipad pro (12.9 inch) (4th generation)"),
        Manhattan("ipad-9", fps: 60, width: 2160, height: 1620, listedAs: "apple ipad 9th gen"),
        Manhattan("ipad-air-4", fps: 60, width: 2360, height: 1640, listedAs: "apple ipad air (4th generation)"),
        Manhattan("ipad-air-4", fps: 52, width: 2388, height: 1668, listedAs: "apple ipad air 4th gen (wi-fi only)"),
        Manhattan("ipad-mini-6", fps: 60, width: 2266, height: 1488, listedAs: "apple ipad mini (6th gen)"),
        Manhattan("ipad-mini-6", fps: 60, width: 2388, height: 1668, listedAs: "apple ipad mini (6th gen)"),
        Manhattan("ipad-a16", fps: 60, width: 2360, height: 1640, listedAs: "apple ipad 11th gen (wifi+cellular)"),
        Manhattan(
            "ipad-mini-a17-pro", fps: 60, width: 2266, height: 1488, listedAs: "apple ipad mini 7th gen cellular (a17)"),
        Manhattan("ipad-mini-2", fps: 10, width: 2048, height: 1536, listedAs: "apple ipad mini retina"),
        Manhattan("ipad-mini-4", fps: 15, width: 2048, height: 1536, listedAs: "apple ipad mini 4"),
        Manhattan("ipad-air-2", fps: 29, width: 2048, height: 1536, listedAs: "apple ipad air 2"),
        Manhattan("ipad-5", fps: 26, width: 2048, height: 1536, listedAs: "apple ipad 9.7 (5th gen)"),
        Manhattan("ipad-pro-9-7", fps: 35, width: 2048, height: 1536, listedAs: "apple ipad pro 9.7"),
        Manhattan("ipad-pro-12-9-1", fps: 33, width: 2732, height: 2048, listedAs: "apple ipad pro"),
        Manhattan("ipad-air-5", fps: 60, width: 2360, height: 1640, listedAs: "apple ipad air (5th generation)"),
        Manhattan(
            "ipad-pro-11-3", fps: 120, width: 2388, height: 1668, listedAs: "apple ipad pro (11-inch) (3rd generation)"),
        Manhattan(
            "ipad-pro-12-9-5", fps: 114, width: 2730, height: 2048,
            listedAs: "apple ipad pro (12.9-inch) (5th generation)"),
        Manhattan(
            "ipad-pro-12-9-5", fps: 60, width: 2732, height: 2048,
            listedAs: "apple ipad pro (12.9-inch) (5th generation)"),
        Manhattan("ipad-air-11-m2", fps: 60, width: 2360, height: 1640, listedAs: "apple ipad air 6th gen (m2)"),
        Manhattan("ipad-pro-11-4", fps: 120, width: 2388, height: 1668, listedAs: "apple ipad pro 11 inch (4th gen)"),
        Manhattan(
            "ipad-pro-12-9-6", fps: 119, width: 2732, height: 2048,
            listedAs: "apple ipad pro 12.9-inch (6th generation)"),
        Manhattan(
            "ipad-pro-12-9-6", fps: 120, width: 2752, height: 2064, listedAs: "apple ipad pro 12.9 inch (6th gen)"),
        Manhattan(
            "ipad-air-11-m3", fps: 60, width: 2360, height: 1640,
            listedAs: "apple ipad air 11-inch 7th gen (wifi+cellular)"),
        Manhattan(
            "ipad-air-13-m3", fps: 60, width: 2732, height: 2048,
            listedAs: "apple ipad air 13-inch 7th gen (wifi+cellular)"),
        Manhattan("ipad-pro-11-m4", fps: 78, width: 2420, height: 1668, listedAs: "apple ipad pro 11 inch 5th gen"),
        Manhattan("ipad-pro-13-m4", fps: 120, width: 2752, height: 2064, listedAs: "apple ipad pro 12.9 inch 7th gen"),
        Manhattan("ipad-pro-11-m5", fps: 120, width: 2420, height: 1668, listedAs: "apple ipad pro m5 11 inch"),
        Manhattan("ipad-pro-13-m5", fps: 76, width: 2752, height: 2064, listedAs: "apple ipad pro m5 13 inch"),
    ]

    /// The A7 devices whose figures anchor the others.
    static let manhattanAnchorIDs = ["iphone-5s", "ipad-mini-2"]

    /// How `figure` is used (``ManhattanUse``), among `all`.
    public static func use(of figure: Manhattan, among all: [Manhattan] = manhattan) -> ManhattanUse {
        if !figure.sizeIsTheDevices { return .unused("the reported size is not the device's: a mislabelled row") }
        if manhattanAnchorIDs.contains(figure.deviceID) { return .anchor }
        if figure.isCapped { return .lowerBound }
        let bound = all.filter { $0.isCapped && $0.sizeIsTheDevices && $0.device.soc == figure.device.soc }
            .map(\.pixelRate).max()
        if let bound, bound > figure.pixelRate {
            return .unused(
                "below the lower bound a capped figure of the same \(figure.device.soc) sets: not the chip's capacity")
        }
        return .fitted
    }

    /// The anchor of `figure`: the A7 device's figure whose reported size is nearest in pixels (ratio of areas).
    public static func anchor(of figure: Manhattan) -> Manhattan {
        let anchors = manhattan.filter { manhattanAnchorIDs.contains($0.deviceID) }
        let area = Double(figure.width * figure.height)
        func distance(_ anchor: Manhattan) -> Double { abs(log(Double(anchor.width * anchor.height) / area)) }
        return anchors.min { distance($0) < distance($1) }!
    }

    /// The figure's pixel rate over its anchor's: the benchmark's frame-rate ratio corrected for the two sizes.
    public static func measuredRatio(_ figure: Manhattan) -> Double { figure.pixelRate / anchor(of: figure).pixelRate }

    /// The model's fill-rate ratio of the figure's device over its anchor's, with `efficiencies` for the device's
    /// generation.
    static func fillRatio(_ figure: Manhattan, efficiencies: [GPUGeneration: Double]) -> Double {
        let device = figure.device, anchor = anchor(of: figure).device
        let peak = device.texelsPerClock * device.gpuClockMHz * efficiencies[device.generation!]!
        return peak / anchor.texelsPerSecond * 1e6
    }

    /// The generations fitted to Manhattan figures (from the A8 on), PowerVR's then Apple's.
    static let powerVRGenerations: [GPUGeneration] = [.gx6450, .gx6850, .gt7600Plus, .gt7600]
    static let appleGenerations: [GPUGeneration] = [
        .apple4, .apple5, .apple6, .apple7, .apple8, .apple9, .appleUnmapped,
    ]

    /// The fill efficiency of each generation from the A8 on: the mean, over its fitted figures, of the measured
    /// ratio ÷ the ratio of peak fill rates (units × clock; the anchor at its own efficiency). A generation without a
    /// figure borrows the mean of the generations of the same designer that have one (of all that have one, if none
    /// of its designer's has).
    static func onscreenEfficiencies(from figures: [Manhattan]) -> [GPUGeneration: Double] {
        var shares: [GPUGeneration: [Double]] = [:]
        for figure in figures where use(of: figure) == .fitted {
            let unit = Dictionary(uniqueKeysWithValues: GPUGeneration.allCases.map { ($0, 1.0) })
            let peakRatio = fillRatio(figure, efficiencies: unit)
            shares[figure.device.generation!, default: []].append(measuredRatio(figure) / peakRatio)
        }
        let measured = shares.mapValues { $0.reduce(0, +) / Double($0.count) }
        func mean(_ generations: [GPUGeneration]) -> Double? {
            let values = generations.compactMap { measured[$0] }
            return values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
        }
        var result: [GPUGeneration: Double] = [:]
        for designer in [powerVRGenerations, appleGenerations] {
            for generation in designer {
                result[generation] = measured[generation] ?? mean(designer) ?? mean(Array(measured.keys)) ?? 1
            }
        }
        return result
    }

    /// One fitted or lower-bound figure beside the model's ratio: for a fitted figure with its generation's
    /// efficiency computed without it (held out), for a lower bound with the stored efficiency.
    public struct ManhattanCheck: Sendable {
        public let figure: Manhattan
        public let anchorID: String
        public let measuredRatio: Double
        public let predictedRatio: Double
        public let lowerBound: Bool
        /// ln(measured ÷ predicted), of rates.
        public var logError: Double { log(measuredRatio / predictedRatio) }
    }

    /// Every fitted figure held out in turn, and every lower bound, in the research's order.
    public static func manhattanChecks() -> [ManhattanCheck] {
        manhattan.enumerated().compactMap { index, figure in
            switch use(of: figure) {
            case .fitted:
                var others = manhattan
                others.remove(at: index)
                let predicted = fillRatio(figure, efficiencies: onscreenEfficiencies(from: others))
                return ManhattanCheck(
                    figure: figure, anchorID: anchor(of: figure).deviceID, measuredRatio: measuredRatio(figure),
                    predictedRatio: predicted, lowerBound: false)
            case .lowerBound:
                return ManhattanCheck(
                    figure: figure, anchorID: anchor(of: figure).deviceID, measuredRatio: measuredRatio(figure),
                    predictedRatio: fillRatio(figure, efficiencies: GPUGeneration.fillEfficiencies),
                    lowerBound: true)
            case .anchor, .unused: return nil
            }
        }
    }

    /// Leave one generation out: each fitted figure predicted with the efficiency its generation would borrow were
    /// none of its figures known. ln(measured ÷ predicted), of rates.
    public static func leaveOneGenerationOutErrors() -> [(figure: Manhattan, logError: Double)] {
        manhattan.filter { use(of: $0) == .fitted }.map { figure in
            let generation = figure.device.generation!
            let others = manhattan.filter { $0.device.generation != generation }
            let predicted = fillRatio(figure, efficiencies: onscreenEfficiencies(from: others))
            return (figure, log(measuredRatio(figure) / predicted))
        }
    }

    /// Apple's GPU clocks as philipturner estimates them ([PT]), A11 to A16 in order: the steps between them bound
    /// the error of carrying the A16's forward.
    static let appleClockEstimatesMHz: [Double] = [1066, 1128, 1230, 1278, 1338, 1398]

    /// The devices with a measurement of their own (`Device.measuredIDs`): those of the seed figures, the case
    /// studies and the idle figures, the measured fill rates, the relative figures, and the Manhattan anchors and
    /// fitted figures.
    public static func measuredDeviceIDs() -> Set<String> {
        var ids = Set(SeedFigure.all.map(\.deviceID) + CaseStudy.all.map(\.deviceID) + IdleFigure.all.map(\.deviceID))
        ids.formUnion(fillRates.map(\.deviceID))
        ids.formUnion(ratios.flatMap { [$0.fasterID, $0.slowerID] })
        ids.formUnion(manhattan.filter { [.anchor, .fitted].contains(use(of: $0)) }.map(\.deviceID))
        return ids
    }
}

extension PredictionInterval {
    /// ``PredictionInterval/extrapolated`` computed again: ``stored`` widened outward by the lowest and highest
    /// leave-one-generation-out error (as ln of time, the negative of a rate's), then both ends by the largest step
    /// between successive Apple GPU clock estimates.
    public static func extrapolationWidening() -> PredictionInterval {
        let timeErrors = DeviceEvidence.leaveOneGenerationOutErrors().map { -$0.logError }
        let clocks = DeviceEvidence.appleClockEstimatesMHz
        let clockStep = zip(clocks, clocks.dropFirst()).map { log($1 / $0) }.max()!
        return PredictionInterval(
            lowLog: stored.lowLog + min(0, timeErrors.min()!) - clockStep,
            highLog: stored.highLog + max(0, timeErrors.max()!) + clockStep)
    }
}
