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

/// The choices of an option whose type is an enum of strings, for its help and its completions: the raw values, the
/// words ArgumentParser's own default gives too. Defined here, in the module of the conformances, so that each
/// enum's list is built by code compiled for that enum: ArgumentParser's generic default asks the runtime for the
/// enum's types and conformances by name as each command line is parsed (docs/performance.md).
extension ExpressibleByArgument where Self: CaseIterable & RawRepresentable, RawValue == String {
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
    /// None: no enum here describes a value apart from its raw value (ArgumentParser's default then finds none).
    public static var allValueDescriptions: [String: String] { [:] }
}

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
