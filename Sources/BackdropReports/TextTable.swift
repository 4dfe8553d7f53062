import Foundation

/// A plain-text table with aligned columns, for terminals.
public struct TextTable: Sendable {
    public let header: [String]
    public let rows: [[String]]

    /// A table of `rows` under `header`. Control characters in a cell (from a scene's or a layer's name) are
    /// written as escapes, so no cell can move the cursor or break a row.
    public init(header: [String], rows: [[String]]) {
        self.header = header.map(\.escapingControlCharacters)
        self.rows = rows.map { $0.map(\.escapingControlCharacters) }
    }

    /// The table's lines, columns padded to their widest cell.
    public var rendered: String {
        let columns = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            zip(cells, columns).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingTrailingSpaces()
        }
        let rule = columns.map { String(repeating: "─", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
