import BackdropImageIO
import BackdropRendering
import BackdropScenes
import Foundation

/// A deterministic split of a golden suite's cases into `count` shards for a CI matrix (`backdrop check --shard
/// i/n`), balanced by each case's predicted cost.
///
/// Contract: every case is in exactly one shard, for any count; the split depends only on the manifest and the
/// files it names, never on the machine or the order of runs. The cost of a case is its pixels × its passes: an
/// input's PNG header gives its pixels and the render plan its passes; a scene case's device screen and planned
/// passes; a budget or cost case 1 per device; a case that cannot be costed (a missing file, a bad option) costs 1 and will report its error where
/// it runs. Cases go, most costly first (ties in manifest order), to the shard with the least cost so far (ties
/// to the lowest shard): the longest-processing-time rule, within 4/3 of the best balance.
public enum GoldenShards {
    /// `i/n`, 1 ≤ i ≤ n ≤ 1000, as `--shard` takes it.
    public static func parse(_ text: String) throws(BackdropError) -> (index: Int, count: Int) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let index = parts[0], let count = parts[1], (1...1000).contains(count),
            (1...count).contains(index)
        else {
            throw BackdropError(.badOption, "--shard '\(text)' is not i/n with 1 ≤ i ≤ n ≤ 1000, e.g. --shard 2/3")
        }
        return (index, count)
    }

    /// The shard (0-based) of each of `cases`, whose files are relative to `folder`.
    public static func assign(_ cases: [GoldenManifest.Case], in folder: String, shards count: Int) -> [Int] {
        let costs = cases.map { cost(of: $0, in: folder) }
        var load = [Double](repeating: 0, count: count)
        var shard = [Int](repeating: 0, count: cases.count)
        let order = cases.indices.sorted { costs[$0] != costs[$1] ? costs[$0] > costs[$1] : $0 < $1 }
        for index in order {
            let lightest = load.indices.min { load[$0] != load[$1] ? load[$0] < load[$1] : $0 < $1 }!
            shard[index] = lightest
            load[lightest] += costs[index]
        }
        return shard
    }

    /// A case's predicted cost: pixels × passes, or 1 when it cannot be told. A budget or cost case renders no
    /// pixel (it prices its frame in a few ms): 1 per device it prices.
    public static func cost(of testCase: GoldenManifest.Case, in folder: String) -> Double {
        if testCase.isCostCase { return Double(max(1, testCase.pricedDevices.count)) }
        do throws(BackdropError) {
            let request = testCase.request
            if let scene = request.scene {
                let device = try Device.lookup(request.device ?? "")
                let loaded = try testCase.inputFiles(manifestFolder: folder).scene(scene)
                let passes = try ScenePlanner(device: device, path: .blur).frame(of: loaded, steady: false)
                    .passes.count
                return Double(device.screen.area) * Double(max(1, passes))
            }
            let input = try GoldenManifest.path(request.input ?? "", in: testCase.inputFolder ?? folder, field: "input")
            guard let header = FileHandle(forReadingAtPath: input)?.readData(ofLength: PNGDecoder.declaredSizeBytes),
                let (width, height) = PNGDecoder.declaredSize([UInt8](header)[...])
            else { return 1 }
            let size = PixelSize(width: width, height: height)
            guard size.width > 0, size.height > 0, size.width < 1 << 20, size.height < 1 << 20 else { return 1 }
            let checked = try request.validate(spelling: .key)
            let effect = try EffectOptions(
                style: checked.style, frame: checked.frame, scale: request.scale, device: checked.device,
                quality: request.exact == true ? .exact : .fast, path: checked.path
            ).effect().effect
            let passes = (try? RenderPlan(effect: effect, imageSize: size).passes.count) ?? 1
            return Double(size.area) * Double(max(1, passes))
        } catch {
            return 1
        }
    }
}
