import ArgumentParser
import Backdrop

// The library's enums are the options' types: ArgumentParser checks the value, lists the choices in the help and
// names them in a one-line error, and no command parses them from strings by hand.
extension Scheduler: ExpressibleByArgument {}
extension VibrancyBlend: ExpressibleByArgument {}
extension Estimator.PathChoice: ExpressibleByArgument {}
extension PNGEncoder.Compression: ExpressibleByArgument {}
extension RenderRequest.Algorithm: ExpressibleByArgument {}
extension SceneOverlay: ExpressibleByArgument {}

/// How a command prints what it found.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    /// Tables for a terminal.
    case text
    /// JSON for a program.
    case json
    /// A frame timeline (`backdrop estimate` only).
    case svg
}

/// How a listing or a comparison prints: the commands with nothing to draw list only these two, so that every value
/// their help names works.
enum TableFormat: String, CaseIterable, ExpressibleByArgument {
    /// Tables for a terminal.
    case text
    /// JSON for a program.
    case json
}
