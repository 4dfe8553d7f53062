import Foundation

/// Where a JSON file stops being JSON, for the one-line errors of scene files and golden manifests: Foundation
/// reports "Invalid value around character 28."; a person wants "line 3, column 12".
public enum JSONSyntax {
    /// "line L, column C: invalid value" from Foundation's `error` on `data`, or its own description when it names
    /// no position. Lines and columns count from 1; a column counts characters, not bytes.
    public static func describe(_ error: any Error, in data: Data) -> String {
        let text = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
        let problem =
            text.components(separatedBy: " around ").first.map {
                $0.prefix(1).lowercased() + $0.dropFirst()
            } ?? text
        guard let range = text.range(of: #"character (\d+)"#, options: .regularExpression),
            let offset = Int(text[range].dropFirst("character ".count)),
            offset >= 0, offset <= data.count
        else { return problem.trimmingCharacters(in: CharacterSet(charactersIn: ".")) }
        let before = String(decoding: data.prefix(offset), as: UTF8.self)
        let lines = before.split(separator: "\n", omittingEmptySubsequences: false)
        let column = (lines.last?.count ?? 0) + 1
        return
            "line \(lines.count), column \(column): \(problem.trimmingCharacters(in: CharacterSet(charactersIn: ".")))"
    }
}
