import ArgumentParser

/// A command that stands in for the command its arguments spell, which it parses when it runs.
protocol StandInCommand: ParsableCommand {
    /// The command the arguments spell, parsed and validated.
    func standingFor() throws -> any ParsableCommand
}

/// The hidden default subcommand of `backdrop render` and `backdrop estimate`, which run their earlier spelling,
/// options alone (`backdrop render in.png -o out.png --style dark`): it takes every argument its command did not
/// read, unread, and has `Spelling` (``RenderByOptionsCommand``, ``EstimateByOptionsCommand``) parse them as a
/// command of its own when it runs: the same options, errors and exit statuses, and `Spelling`'s help for `--help`.
///
/// Why not `Spelling` itself as the default: ArgumentParser builds the argument set of a command's default
/// subcommand (by reflection over all its options) on every parse of that command, to learn whether it takes
/// passthrough arguments, whichever subcommand the arguments then name. `Spelling` has every mode's options, so
/// `backdrop render picture …` built it for nothing and the earlier spelling built it once more than it used it
/// (docs/performance.md, "Parsing the command line").
///
/// What shows the stand-in rather than `Spelling`: `backdrop help render by-options` and `--experimental-dump-help`
/// (both read the tree of commands), and `--version` given with `--help` after the input (the version answers).
struct EarlierSpelling<Spelling: ParsableCommand>: StandInCommand {
    static var configuration: CommandConfiguration {
        // No help names: `--help` goes to `Spelling`, whose help it is.
        CommandConfiguration(
            commandName: Spelling._commandName, abstract: Spelling.configuration.abstract, shouldDisplay: false,
            helpNames: [])
    }

    @Argument(parsing: .allUnrecognized) var arguments: [String] = []

    func standingFor() throws -> any ParsableCommand { try Spelling.parseAsRoot(arguments) }

    func run() throws {
        var command = try standingFor()
        try command.run()
    }
}
