import Foundation

/// A plain-text table with aligned columns, for terminals.
public struct TextTable: Sendable {
    public let header: [String]
    public let rows: [[String]]
    /// Titles of groups of rows, each before the row at its index (a table with none has no titles).
    public let titles: [Int: String]

    /// A table of `rows` under `header`. Control characters in a cell (from a scene's or a layer's name) are
    /// written as escapes, so no cell can move the cursor or break a row.
    public init(header: [String], rows: [[String]]) {
        self.header = header.map(\.escapingControlCharacters)
        self.rows = rows.map { $0.map(\.escapingControlCharacters) }
        titles = [:]
    }

    /// A table whose rows come in titled groups: each group's title on a line of its own (after an empty line, but
    /// for the first), then its rows; the columns are aligned across every group. Empty groups are left out.
    public init(header: [String], groups: [(title: String, rows: [[String]])]) {
        self.header = header.map(\.escapingControlCharacters)
        var rows: [[String]] = []
        var titles: [Int: String] = [:]
        for group in groups where !group.rows.isEmpty {
            titles[rows.count] = group.title.escapingControlCharacters
            rows += group.rows.map { $0.map(\.escapingControlCharacters) }
        }
        self.rows = rows
        self.titles = titles
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
        var lines = [line(header), rule]
        for (index, row) in rows.enumerated() {
            if let title = titles[index] {
                if index > 0 { lines.append("") }
                lines.append(title)
            }
            lines.append(line(row))
        }
        return lines.joined(separator: "\n")
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
