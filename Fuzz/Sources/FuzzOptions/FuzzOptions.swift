// Fuzzes the command line: the input's lines are the arguments. Parsing and every check that needs no file
// must end in a command or a one-line error, never a crash. Commands are parsed and validated, not run (a
// fuzzed -o could name any file).
import ArgumentParser
import Backdrop
import FuzzDriver

@testable import BackdropCLI

@_cdecl("FuzzOptions_main")
public func fuzzOptionsMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        let arguments = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        do {
            var command = try BackdropCommand.parseAsRoot(arguments)
            // The earlier spelling of render and estimate: the command its arguments spell.
            if let standIn = command as? any StandInCommand { command = try standIn.standingFor() }
            switch command {
            case let render as any RenderSpelling:
                _ = try render.renderRun.request.validate(spelling: .option)
            case let estimate as any EstimateSpelling:
                let run = estimate.estimateRun
                _ = try run.chosenDevices()
                _ = try run.style.resolve()
                _ = try run.view.map(EstimateRun.parseView)
            case let compare as CompareCommand:
                _ = compare.frame.flatMap(PixelRect.init(parsing:))
            default:
                break
            }
        } catch let error as BackdropError {
            precondition(!error.message.contains("\n"), "an error must be one line")
        } catch {
            _ = BackdropCommand.message(for: error)
        }
        return 0
    }
}
