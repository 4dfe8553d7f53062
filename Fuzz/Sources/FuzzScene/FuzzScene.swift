// Fuzzes scene files: any bytes must give a scene or a one-line BackdropError; a scene is then priced and explained
// on the smallest and the largest device, within the planner's budget, never a crash or a hang.
import Backdrop
import Foundation
import FuzzDriver

@_cdecl("FuzzScene_main")
public func fuzzSceneMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        let bytes = data.map { Data(UnsafeBufferPointer(start: $0, count: size)) } ?? Data()
        do throws(BackdropError) {
            let scene = try SceneParser.parse(bytes, source: "fuzz.json")
            for id in ["iphone-3gs", "ipad-air"] {
                let device = try Device.lookup(id)
                _ = try Estimator().estimate(scene: scene, device: device)
                _ = try SceneAdvice(scene: scene, device: device, estimator: Estimator())
            }
        } catch {
            precondition(!error.message.isEmpty && !error.message.contains("\n"), "an error must be one line")
        }
        return 0
    }
}
