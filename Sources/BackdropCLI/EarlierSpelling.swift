import ArgumentParser

/// The hidden default subcommand of `backdrop render` and `backdrop estimate`, which run their earlier spelling,
/// options alone (`backdrop render in.png -o out.png --style dark`): it takes every argument its command did not
/// read, unread, and has `Spelling` (``RenderByOptionsCommand``, ``EstimateByOptionsCommand``) parse them as a
/// command of its own when it runs: the same options, help, errors and exit statuses.
///
/// Why not `Spelling` itself as the default: ArgumentParser builds the argument set of a command's default
/// subcommand (by reflection over all its options) on every parse of that command, to learn whether it takes
/// passthrough arguments, whichever subcommand the arguments then name. `Spelling` has every mode's options, so
/// `backdrop render picture …` paid for it (2 ms of a 7 ms parse), and the earlier spelling paid for it twice.
struct EarlierSpelling<Spelling: ParsableCommand>: ParsableCommand {
    static var configuration: CommandConfiguration {
        // No help names: `--help` goes to `Spelling`, whose help it is.
        CommandConfiguration(
            commandName: Spelling._commandName, abstract: Spelling.configuration.abstract, shouldDisplay: false,
            helpNames: [])
    }

    @Argument(parsing: .allUnrecognized) var arguments: [String] = []

    func run() throws {
        var command = try Spelling.parseAsRoot(arguments)
        try command.run()
    }
}
