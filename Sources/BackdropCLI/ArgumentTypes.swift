import ArgumentParser
import Backdrop

// The library's enums are the options' types: ArgumentParser checks the value, lists the choices in the help and
// names them in a one-line error, and no command parses them from strings by hand.
extension Scheduler: RawValueChoices {}
extension VibrancyBlend: RawValueChoices {}
extension Estimator.PathChoice: RawValueChoices {}
extension PNGEncoder.Compression: RawValueChoices {}
extension RenderRequest.Algorithm: RawValueChoices {}
extension SceneOverlay: RawValueChoices {}

/// An option's type that is an enum of strings, its choices the raw values (the words ArgumentParser's own default
/// gives too), for its help and its completions. The lists are built by code compiled for each enum, in this module:
/// ArgumentParser's generic default asks the runtime for the enum's types and conformances by name as each command
/// line is parsed (docs/performance.md). Only the enums that say so take it.
protocol RawValueChoices: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension RawValueChoices {
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
    /// None: no value is described apart from its raw value (ArgumentParser's default finds none either).
    public static var allValueDescriptions: [String: String] { [:] }
}

/// How a command prints what it found.
enum OutputFormat: String, RawValueChoices {
    /// Tables for a terminal.
    case text
    /// JSON for a program.
    case json
    /// A frame timeline (`backdrop estimate` only).
    case svg
}

/// How a listing or a comparison prints: the commands with nothing to draw list only these two, so that every value
/// their help names works.
enum TableFormat: String, RawValueChoices {
    /// Tables for a terminal.
    case text
    /// JSON for a program.
    case json
}
