import BackdropImageIO

/// The most work a scene can ask for, read from its structure before anything is planned, priced or drawn, and the
/// one budget every command and request holds a scene to (``SceneWork/Budget``).
///
/// Contract: ``passesPerFrame`` is never less than the passes ``ScenePlanner`` plans for any frame of the scene on
/// any device (a test holds this over the built-in scenes and generated ones); ``layerInstances`` is the layers
/// the planner walks in a frame once repeats are expanded. Both are exact counts of the structure, whatever lies
/// off the screen, so the check costs one walk of the layer tree, not of its repeats.
public struct SceneWork: Sendable, Equatable {
    /// Layers walked in one frame, repeats expanded.
    public var layerInstances: Int
    /// An upper bound of the passes of one frame.
    public var passesPerFrame: Int

    /// The work of `scene`.
    public init(_ scene: Scene) {
        var work = SceneWork(layerInstances: 0, passesPerFrame: 0)
        for layer in scene.layers { work.add(layer, copies: 1) }
        self = work
    }

    init(layerInstances: Int, passesPerFrame: Int) {
        self.layerInstances = layerInstances
        self.passesPerFrame = passesPerFrame
    }

    /// `copies` of `layer` (its own repeats multiply them), saturating rather than overflowing.
    mutating func add(_ layer: SceneLayer, copies: Int) {
        let instances = copies.multipliedSaturating(by: layer.repeats?.count ?? 1)
        layerInstances = layerInstances.addingSaturating(instances)
        passesPerFrame = passesPerFrame.addingSaturating(
            instances.multipliedSaturating(by: ScenePlanner.maximumPasses(ownedBy: layer)))
        for sublayer in layer.sublayers { add(sublayer, copies: instances) }
    }

    /// The limits one command or request holds its scenes to: a run of `frames` frames on `devices` devices walks
    /// `frames × devices × layerInstances` layers and plans up to `frames × devices × passesPerFrame` passes.
    ///
    /// Measured on a 2-core x86-64 machine (release build): a layer walked costs about 0.1 µs, a pass planned
    /// and priced about 0.5 µs, a pass listed in an estimate's text or JSON 13–45 µs. The limits keep any accepted
    /// scene within a few seconds and a few hundred megabytes: 100 000 shadowed layers (a 395-byte file) asked
    /// 35 s and 1.7 GB of one device's estimate, 97 s and 8.9 GB of all fourteen. The bound counts every layer,
    /// on the screen or off it.
    public struct Budget: Sendable, Equatable {
        /// Passes one frame may plan.
        public var passesPerFrame: Int
        /// Passes an estimate may list over all its devices (a listed pass costs 13–45 µs and about 1 kB).
        public var listedPasses: Int
        /// Layer walks and passes over the whole run, a pass counted as ``passWeight`` walks.
        public var work: Int
        /// What a planned pass costs against ``work``, in layer walks.
        public static let passWeight = 5

        /// The budget of the CLI, the preview and golden manifests.
        public static let standard = Budget(passesPerFrame: 50_000, listedPasses: 200_000, work: 50_000_000)

        public init(passesPerFrame: Int, listedPasses: Int, work: Int) {
            self.passesPerFrame = passesPerFrame
            self.listedPasses = listedPasses
            self.work = work
        }

        /// What a command or request does with a scene on each device.
        public enum Run: Sendable, Equatable {
            /// One frame's estimate: its first frame and a steady one are planned.
            case estimate
            /// The estimate and ``SceneAdvice``: the scene priced again with each fix.
            case explain
            /// Frames over time (``SceneRun``), one a vsync at most.
            case duration(seconds: Double)
            /// The picture of one frame (``ScenePicture``).
            case picture
            /// ``LargestFit``'s search: at most 48 estimates (three bisections over at most 2¹⁵ steps).
            case find

            /// The frames planned on each device.
            public var frames: Int {
                switch self {
                case .estimate: return 2
                case .explain: return 2 * (1 + SceneAdvice.maximumItems)
                case .duration(let seconds): return SceneRun.vsyncs(durationSeconds: seconds)
                case .picture: return 1
                case .find: return 2 * 48
                }
            }
        }

        /// Throws `.badInput` naming the figure over its limit, before any of the run's work is done.
        public func check(_ scene: Scene, run: Run, devices: Int = 1) throws(BackdropError) {
            let frames = run.frames
            let work = SceneWork(scene)
            guard work.passesPerFrame <= passesPerFrame else {
                throw BackdropError(
                    .badInput,
                    "the scene may need \(work.passesPerFrame) passes a frame, over the limit of \(passesPerFrame): draw fewer repeated or offscreen layers"
                )
            }
            let listed = run == .estimate ? work.passesPerFrame.multipliedSaturating(by: max(devices, 1)) : 0
            guard listed <= listedPasses else {
                throw BackdropError(
                    .badInput,
                    "the scene's estimate on \(devices) devices would list up to \(listed) passes, over the limit of \(listedPasses): price one device at a time"
                )
            }
            let perFrame = work.layerInstances.addingSaturating(
                work.passesPerFrame.multipliedSaturating(by: Self.passWeight))
            let total = perFrame.multipliedSaturating(by: max(frames, 1)).multipliedSaturating(by: max(devices, 1))
            guard total <= self.work else {
                let run = "\(frames) frame\(frames == 1 ? "" : "s") on \(devices) device\(devices == 1 ? "" : "s")"
                throw BackdropError(
                    .badInput,
                    "the scene's \(work.layerInstances) layers and up to \(work.passesPerFrame) passes a frame, over \(run), are more work than one run may do: price fewer frames or devices, or a smaller scene"
                )
            }
        }
    }
}

extension Int {
    /// The sum, or `Int.max` where it overflows.
    func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    /// The product, or `Int.max` where it overflows (both factors are counts, never negative).
    func multipliedSaturating(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : product
    }
}
