// Fuzzes golden manifests: any bytes, read as a manifest in a folder of its own, must give a manifest whose every
// path stays in that folder, or a one-line BackdropError; never a crash.
import Backdrop
import Foundation
import FuzzDriver

let folder: String = {
    let path = NSTemporaryDirectory() + "backdrop-fuzz-manifest-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()

@_cdecl("FuzzManifest_main")
public func fuzzManifestMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    // Gone when the fuzzer exits (libFuzzer's runs end in exit()): a run leaves nothing in the temporary folder.
    atexit { try? FileManager.default.removeItem(atPath: folder) }
    return runFuzzer(argc, argv) { data, size in
        let bytes = data.map { Data(UnsafeBufferPointer(start: $0, count: size)) } ?? Data()
        let path = folder + "/manifest.json"
        precondition(FileManager.default.createFile(atPath: path, contents: bytes))
        do throws(BackdropError) {
            let manifest = try GoldenManifest.read(path)
            for entry in manifest.cases {
                for file in [entry.request.input, entry.sceneFile, entry.golden].compactMap({ $0 }) {
                    let resolved = URL(fileURLWithPath: file, relativeTo: URL(fileURLWithPath: folder + "/"))
                        .standardizedFileURL.path
                    precondition(
                        resolved == folder || resolved.hasPrefix(folder + "/"),
                        "a path left the manifest's folder: \(file)")
                }
            }
        } catch {
            precondition(!error.message.isEmpty && !error.message.contains("\n"), "an error must be one line")
        }
        return 0
    }
}
