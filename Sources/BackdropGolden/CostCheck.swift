import BackdropImageIO
import BackdropRendering
import BackdropScenes
import Foundation

extension GoldenManifest {
    /// A frame budget (`"budget"` of a case): the frame must take at most `ms`, or 1000 / `fps` ms, on every one of
    /// `devices`. `strict` judges the cautious (slow) end of the prediction range (``FrameTimeline/ranges(_:)``)
    /// instead of the central prediction.
    public struct Budget: Codable, Sendable, Equatable {
        public var fps: Double?
        public var ms: Double?
        /// The devices: ids (`backdrop devices`) or the terms of a `--devices` filter (``DeviceSelection``: `iphone`,
        /// `2017+`, `measured`, …), any of which may match; ``deviceIDs`` lists the ids they select.
        public var devices: [String]
        public var strict: Bool?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case fps, ms, devices, strict
        }

        /// The budget in ms.
        public var limitMs: Double { ms ?? 1000 / (fps ?? 60) }

        /// The ids of the devices ``devices`` selects, in the table's order; the entries as written when they select
        /// none (``GoldenManifest/Case`` refuses such a budget before any case runs).
        public var deviceIDs: [String] {
            (try? DeviceSelection.select([devices.joined(separator: ",")]))?.map(\.id) ?? devices
        }

        /// The budget in words: "60 fps (16.7 ms)" or "12.0 ms".
        public var text: String {
            if let fps { return String(format: "%@ fps (%.1f ms)", GoldenCheck.number(fps), limitMs) }
            return String(format: "%.1f ms", limitMs)
        }
    }
}

extension GoldenManifest.Case {
    /// Whether the case prices a frame (``budget`` or ``costGolden``) instead of comparing a picture.
    public var isCostCase: Bool { budget != nil || costGolden != nil }

    /// The devices the cost golden records: `devices`, else `device`, else the budget's.
    var costGoldenDevices: [String] {
        guard costGolden != nil else { return [] }
        return devices ?? request.device.map { [$0] } ?? budget?.deviceIDs ?? []
    }

    /// Every device the case prices, in order: the budget's, then the cost golden's not already among them.
    var pricedDevices: [String] {
        var seen = Set<String>()
        return ((budget?.deviceIDs ?? []) + costGoldenDevices).filter { seen.insert($0.lowercased()).inserted }
    }

    /// The checks of a budget or cost case that need no rendering, each error naming its key: the subject (`scene`,
    /// or `style` for a full-screen effect view), the devices, the budget's figures, the tolerance. Run for every
    /// case when the manifest is read, before any case runs.
    func checkCost() throws(BackdropError) {
        if golden != nil {
            throw BackdropError(
                .badOption, "'golden' is a picture: a case with 'budget' or 'costGolden' prices a frame, give it alone")
        }
        if request.input != nil {
            throw BackdropError(
                .badOption, "'input': a budget or cost case prices a 'scene' (or a 'style'), not a picture")
        }
        if request.scene == nil {
            guard let style = request.style else {
                throw BackdropError(
                    .badOption, "a budget or cost case needs 'scene' (or 'style', a full-screen effect view)")
            }
            do {
                _ = try StyleCatalogue.style(named: style, appearance: request.appearance, optionPrefix: "")
            } catch {
                throw BackdropError(.badOption, "style: \(error.message)")
            }
        }
        if let budget {
            switch (budget.fps, budget.ms) {
            case (nil, nil), (.some, .some):
                throw BackdropError(.badOption, "budget: give 'fps' or 'ms' (one of them)")
            case (let fps?, nil):
                guard fps.isFinite, fps > 0 else {
                    throw BackdropError(.badOption, "budget.fps \(GoldenCheck.number(fps)): give a frame rate above 0")
                }
            case (nil, let ms?):
                guard ms.isFinite, ms > 0 else {
                    throw BackdropError(.badOption, "budget.ms \(GoldenCheck.number(ms)): give a frame time above 0")
                }
            }
            guard !budget.devices.isEmpty else {
                throw BackdropError(.badOption, "budget.devices is empty: name the devices the budget is for")
            }
            // Each entry an id or a filter's term. An entry written as an id (a family's word and a hyphen) that is
            // none gets `--device`'s answer, the closest ids; any other the filter's.
            for entry in budget.devices where Device.named(entry) == nil {
                let looksLikeID = Device.Family.allCases.contains { entry.lowercased().hasPrefix($0.rawValue + "-") }
                do throws(BackdropError) {
                    if looksLikeID {
                        _ = try Device.lookup(entry)
                    } else {
                        _ = try DeviceSelection.select([entry], spelling: "")
                    }
                } catch {
                    throw BackdropError(.badOption, "budget.devices: \(error.message)")
                }
            }
        }
        if let devices {
            guard !devices.isEmpty else { throw BackdropError(.badOption, "devices is empty: name the devices") }
            if request.device != nil { throw BackdropError(.badOption, "give 'device' or 'devices', not both") }
            for id in devices {
                do { _ = try Device.lookup(id) } catch { throw BackdropError(.badOption, "devices: \(error.message)") }
            }
        }
        if let id = request.device {
            do { _ = try Device.lookup(id) } catch { throw BackdropError(.badOption, "device: \(error.message)") }
        }
        if let tolerance = costTolerance {
            guard costGolden != nil else { throw BackdropError(.badOption, "costTolerance goes with 'costGolden'") }
            guard tolerance.isFinite, tolerance >= 0 else {
                throw BackdropError(
                    .badOption, "costTolerance \(GoldenCheck.number(tolerance)): give a per cent of 0 or more")
            }
        }
        if costGolden != nil, costGoldenDevices.isEmpty {
            throw BackdropError(.badOption, "costGolden needs 'device' or 'devices' (or a budget's devices)")
        }
    }

    /// The scene the case prices on `device`: its `scene` (built-in or file), or a full-screen effect view of its
    /// `style`.
    func pricedScene(on device: Device, manifestFolder folder: String) throws(BackdropError) -> Scene {
        if let scene = request.scene { return try inputFiles(manifestFolder: folder).scene(scene) }
        let style = try StyleCatalogue.style(named: request.style ?? "", appearance: request.appearance)
        return Estimator.effectViewScene(style: style, vibrancy: false, view: device.screen, on: device)
    }

    /// The case's subject as a cost golden names it.
    var costSubject: String { request.scene ?? "style \(request.style ?? "")" }
}

extension GoldenCheck {
    /// One device's result in a budget or cost case.
    public struct DeviceCost: Codable, Sendable, Equatable {
        /// The device's id.
        public var device: String
        /// passed, failed, recorded or error.
        public var status: String
        /// The line's figures: the prediction, the budget, the cost golden's change and what moved.
        public var message: String
        /// The predicted frame: ms and fps (central), and their ranges [low, high].
        public var ms: Double?
        public var msRange: [Double]?
        public var fps: Double?
        public var fpsRange: [Double]?
        /// The budget, ms, when the device has one, and the ms it was judged by (the range's high end when strict).
        public var budgetMs: Double?
        public var judgedMs: Double?
        /// The budget in words, "60 fps (16.7 ms)".
        public var budget: String?
        /// The layer whose passes take the most time, and their ms.
        public var costliestLayer: String?
        public var costliestLayerMs: Double?
        /// The cost golden's recorded ms, when compared.
        public var goldenMs: Double?
    }

    /// A budget or cost case's result: one entry per device, and the cost golden written, if any.
    public struct CostResult: Sendable {
        public var devices: [DeviceCost]
        /// Where the cost golden was written, when it was.
        public var recorded: String?
        /// When a device's frame moved beyond the tolerance (and nothing was recorded): the cost golden `check
        /// --update failed` would write, which `backdrop review --accept` writes.
        public var proposed: CostGolden?

        /// failed when a device failed, error when one could not be priced, recorded when the golden was written,
        /// else passed.
        public var status: String {
            if devices.contains(where: { $0.status == "error" }) { return "error" }
            if devices.contains(where: { $0.status == "failed" }) { return "failed" }
            return recorded != nil ? "recorded" : "passed"
        }
    }

    /// "60", "12.5": a figure as a person writes it.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Prices a budget or cost case on each of its devices: judges the budget, compares with (or records) the
    /// cost golden. Errors that concern one device (a scene it cannot price) are that device's; a cost golden
    /// that cannot be read or written is every device's.
    func runCost(
        _ testCase: GoldenManifest.Case, in folder: String, update: Update?, recordInto: String?
    ) -> CostResult {
        let estimator = Estimator()
        var results: [DeviceCost] = []
        var entries: [String: CostGolden.Entry] = [:]
        for id in testCase.pricedDevices {
            var result = DeviceCost(device: id, status: "passed", message: "")
            do throws(BackdropError) {
                let device = try Device.lookup(id)
                result.device = device.id
                let scene = try testCase.pricedScene(on: device, manifestFolder: folder)
                let frame = try estimator.estimate(scene: scene, device: device).tableFrame
                entries[device.id] = CostGolden.entry(frame, device: device)
                let ranges = frame.ranges()
                result.ms = CostGolden.rounded(frame.totalMs)
                result.msRange = ranges.totalMs.map(CostGolden.rounded)
                result.fps = CostGolden.rounded(frame.fps)
                result.fpsRange = ranges.fps.map(CostGolden.rounded)
                var byLayer: [(layer: String, ms: Double)] = []
                for pass in frame.passes {
                    if let index = byLayer.firstIndex(where: { $0.layer == pass.gpuPass.layer }) {
                        byLayer[index].ms += pass.ms
                    } else {
                        byLayer.append((pass.gpuPass.layer, pass.ms))
                    }
                }
                if let costliest = byLayer.max(by: { $0.ms < $1.ms }) {
                    result.costliestLayer = costliest.layer
                    result.costliestLayerMs = CostGolden.rounded(costliest.ms)
                }
                var parts = [
                    String(
                        format: "%.0f fps (%@), %.1f ms (%@)", frame.fps, span(ranges.fps, "%.0f"), frame.totalMs,
                        span(ranges.totalMs, "%.1f"))
                ]
                if let budget = testCase.budget, budget.deviceIDs.contains(device.id) {
                    let strict = budget.strict == true
                    let judged = strict ? ranges.totalMs[1] : frame.totalMs
                    result.budgetMs = CostGolden.rounded(budget.limitMs)
                    result.judgedMs = CostGolden.rounded(judged)
                    result.budget = budget.text
                    let judgedText = strict ? String(format: ", judged at its slow end %.1f ms", judged) : ""
                    if judged > budget.limitMs * (1 + 1e-12) {
                        result.status = "failed"
                        parts.append(
                            String(
                                format: "misses the budget %@ by %.1f ms%@", budget.text, judged - budget.limitMs,
                                judgedText))
                    } else {
                        parts.append("within the budget \(budget.text)\(judgedText)")
                    }
                }
                if let layer = result.costliestLayer, let ms = result.costliestLayerMs {
                    parts.append(String(format: "costliest layer: %@ (%.1f ms)", layer, ms))
                }
                result.message = parts.joined(separator: "; ")
            } catch {
                result.status = "error"
                result.message = error.message
            }
            results.append(result)
        }
        var outcome = CostResult(devices: results, recorded: nil)
        guard let costGolden = testCase.costGolden else { return outcome }
        do throws(BackdropError) {
            let goldenPath = try GoldenManifest.path(costGolden, in: folder, field: "costGolden")
            let recordPath = Self.recordPath(golden: goldenPath, manifestFolder: folder, into: recordInto)
            let existing: CostGolden? =
                FileManager.default.fileExists(atPath: goldenPath) ? try CostGolden.read(goldenPath) : nil
            let tolerance = testCase.costTolerance ?? 5
            var written: [CostGolden.Entry] = []
            // What `--update failed` would write: the golden with the devices outside the tolerance re-recorded.
            var proposed: [CostGolden.Entry] = []
            var changed = false
            let wanted = Set(testCase.costGoldenDevices.compactMap { Device.named($0)?.id })
            for index in outcome.devices.indices where wanted.contains(outcome.devices[index].device) {
                var result = outcome.devices[index]
                guard let now = entries[result.device] else {
                    // Could not be priced: its error stands, and its recorded figures are kept.
                    if let before = existing?.entry(for: result.device) {
                        written.append(before)
                        proposed.append(before)
                    }
                    continue
                }
                let before = existing?.entry(for: result.device)
                func record(_ note: String) {
                    written.append(now)
                    proposed.append(now)
                    changed = true
                    if result.status == "passed" { result.status = "recorded" }
                    result.message += "; " + note
                }
                if update == .all {
                    record("cost recorded")
                } else if let before {
                    result.goldenMs = before.ms
                    let change = before.ms > 0 ? (now.ms - before.ms) / before.ms * 100 : (now.ms > 0 ? .infinity : 0)
                    if abs(change) > tolerance + 1e-9 {
                        let moved = before.movedPasses(to: now)
                        let words = String(
                            format: "cost %.2f → %.2f ms (%+.1f %%, tolerance %@ %%): %@%@", before.ms, now.ms, change,
                            Self.number(tolerance), before.cause(to: now),
                            moved.isEmpty ? "" : "; passes moved: " + moved.joined(separator: ", "))
                        if update == .failed {
                            record("re-recorded " + words)
                        } else {
                            written.append(before)
                            proposed.append(now)
                            result.status = "failed"
                            result.message += "; " + words
                            outcome.proposed = CostGolden(scene: testCase.costSubject, devices: [])
                        }
                    } else {
                        written.append(before)
                        proposed.append(before)
                        result.message += String(
                            format: "; cost %.2f ms as recorded %.2f (%+.1f %%)", now.ms, before.ms, change)
                    }
                } else if update != nil {
                    record("cost recorded")
                } else {
                    result.status = "error"
                    result.message +=
                        "; \(goldenPath): no cost recorded for \(result.device) (run with --update missing to record it)"
                }
                outcome.devices[index] = result
            }
            outcome.proposed?.devices = proposed
            if changed {
                try Self.write(CostGolden(scene: testCase.costSubject, devices: written).json(), at: recordPath)
                outcome.recorded = recordPath
            }
        } catch {
            for index in outcome.devices.indices where outcome.devices[index].status != "error" {
                outcome.devices[index].status = "error"
                outcome.devices[index].message = error.message
            }
        }
        return outcome
    }

    /// "55–60" (a range as the tables print it; one figure when both ends print alike).
    func span(_ values: [Double], _ format: String) -> String {
        let low = String(format: format, values[0]), high = String(format: format, values[1])
        return low == high ? low : "\(low)–\(high)"
    }

    /// Writes a cost golden atomically, creating the folders it needs (as `record(_:at:)` does for a picture).
    static func write(_ bytes: [UInt8], at path: String) throws(BackdropError) {
        try GoldenCheck.makeGoldensFolder(of: path)
        try AtomicFile.write(bytes, to: path)
    }
}
