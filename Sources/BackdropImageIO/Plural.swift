/// A count and its noun, in the number the count asks for: "1 case", "2 cases", "0 gaps". Every line Backdrop
/// prints with a counted noun goes through it, so that no output says "1 cases".
///
/// Contract: the singular when the count is exactly 1 (or −1), the plural otherwise (0 included, as English has
/// it). The plural is `plural` when given (irregular nouns, or a noun followed by words: "offscreen passes a
/// frame"); otherwise the regular English rule on the noun's last word: + "es" after s, x, z, ch and sh
/// ("pass" → "passes", "switch" → "switches"), "y" after a consonant → "ies" ("entry" → "entries"), + "s" else.
/// Only the last word changes: "render-target switch" → "render-target switches".
package enum Plural {
    /// "COUNT NOUN" with the noun in the number `count` asks for.
    package static func count(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) \(noun(count, singular, plural: plural))"
    }

    /// The noun alone in the number `count` asks for.
    package static func noun(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        count.magnitude == 1 ? singular : plural ?? regularPlural(of: singular)
    }

    /// The regular English plural of `singular`'s last word, the words before it kept.
    package static func regularPlural(of singular: String) -> String {
        let lower = singular.lowercased()
        if ["s", "x", "z", "ch", "sh"].contains(where: { lower.hasSuffix($0) }) { return singular + "es" }
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) {
            return singular.dropLast() + "ies"
        }
        return singular + "s"
    }
}
