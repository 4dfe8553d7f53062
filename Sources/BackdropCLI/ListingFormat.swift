import ArgumentParser
import Backdrop
import Foundation

/// The `--format text|json` option of the listing commands, and the printing of a listing in either form.
struct ListingFormat: ParsableArguments {
    @Option(help: ArgumentHelp("text (a table) or json.", valueName: "format"))
    var format: TableFormat = .text

    /// Prints `value` as pretty JSON, or the table made by `table`.
    func print<Value: Encodable>(_ value: Value, table: () -> TextTable) throws {
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            printJSON(String(decoding: try encoder.encode(value), as: UTF8.self))
        case .text:
            BackdropCLI.print(table().rendered)
        }
    }
}
