/// "Did you mean" for names a user types — device ids, style names: the known name nearest to what was typed, so
/// that `--device iphone5` or `--style lite` is answered with the name meant.
///
/// Names are compared without case, hyphens, underscores and spaces (`iphone5` is `iphone-5`); otherwise the
/// nearest by edit distance (a swap of neighbours counts one), within a third of the name's length (at least 1).
public enum Suggestion {
    /// The known name nearest to `text`, or nil when none is near.
    public static func nearest(to text: String, in names: [String]) -> String? {
        func normal(_ name: String) -> [Character] {
            Array(name.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " })
        }
        let typed = normal(text)
        if let same = names.first(where: { normal($0) == typed }) { return same }
        let scored = names.map { ($0, distance(typed, normal($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(1, typed.count / 3) ? best.0 : nil
    }

    /// " (did you mean 'iphone-5'?)", or "" when no name is near.
    public static func clause(for text: String, in names: [String]) -> String {
        nearest(to: text, in: names).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Edit distance counting insertions, deletions, substitutions and swaps of two neighbours (`drak` is one swap
    /// from `dark`): the optimal string alignment distance.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
