import Backdrop
import Foundation

/// The preview's pages as files: HTML, CSS and JavaScript in `Page/` of this target's resource bundle
/// (`Backdrop_BackdropPreview.resources`, beside the program that runs them), so that ESLint and tidy read them
/// (`scripts/lint-web`).
///
/// A page's HTML names its style sheets and scripts on lines of their own, `<link rel="stylesheet" href="NAME.css">`
/// and `<script src="NAME.js"></script>`, and holds the server's config in a line
/// `<script id="config" type="application/json">{}</script>`. ``page(_:config:)`` writes each named file inline
/// and the config into its block, so a page is served as one document in one request, as it was when it was a
/// Swift literal: no more paths to route, limit and test, and no page that loads half of itself.
enum PageFiles {
    /// The folder inside the resource bundle that holds the files.
    static let folder = "Page"
    /// The line that holds the config; its `{}` is replaced.
    static let configLine = #"<script id="config" type="application/json">{}</script>"#

    /// The page `name` (`preview.html`'s or `scenes.html`'s name without the extension), with every style sheet and
    /// script inline and `config` as sorted JSON in its block. Throws when a file is missing or unreadable, when a
    /// file would end its own element early (a `</style` in a CSS file, a `</script` in a script), or when the page
    /// has no config line.
    static func page(_ name: String, config: [String: Any]) throws(BackdropError) -> String {
        var lines: [String] = []
        var configured = false
        for line in try text(of: name + ".html").split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let file = named(in: trimmed, prefix: #"<link rel="stylesheet" href=""#, suffix: #"">"#, ext: ".css") {
                lines.append("<style>\n" + (try inlined(file, closing: "</style")) + "</style>")
            } else if let file = named(in: trimmed, prefix: #"<script src=""#, suffix: #""></script>"#, ext: ".js") {
                lines.append("<script>\n" + (try inlined(file, closing: "</script")) + "</script>")
            } else if trimmed == configLine {
                // JSONSerialization writes `/` as `\/`: no `</script` can end the block early.
                let json =
                    (try? JSONSerialization.data(withJSONObject: config, options: [.sortedKeys])) ?? Data("{}".utf8)
                lines.append(configLine.replacingOccurrences(of: "{}", with: String(decoding: json, as: UTF8.self)))
                configured = true
            } else {
                lines.append(String(line))
            }
        }
        guard configured else { throw missing(name + ".html", "has no config line") }
        return lines.joined(separator: "\n")
    }

    /// The page's text, for the static `html` values: a page that cannot be read stops the program with the reason.
    /// ``check()`` at the server's start makes this unreachable for a server that started.
    static func loaded(_ page: () throws(BackdropError) -> String) -> String {
        do { return try page() } catch { fatalError("backdrop-preview: \(error)") }
    }

    /// Reads both pages, throwing what ``page(_:config:)`` throws: the server calls it before it listens, so an
    /// install without the resource bundle fails at once with the file it misses instead of at the first page.
    static func check() throws(BackdropError) {
        _ = try PreviewPage.make()
        _ = try ScenePage.make()
    }

    /// The file's name when `line` is exactly `prefix` NAME`ext` `suffix`, with NAME a plain file name.
    private static func named(in line: String, prefix: String, suffix: String, ext: String) -> String? {
        guard line.hasPrefix(prefix), line.hasSuffix(suffix), line.count > prefix.count + suffix.count else {
            return nil
        }
        let file = String(line.dropFirst(prefix.count).dropLast(suffix.count))
        guard file.hasSuffix(ext), !file.contains("/"), !file.contains("\"") else { return nil }
        return file
    }

    private static func inlined(_ file: String, closing: String) throws(BackdropError) -> String {
        let text = try text(of: file)
        guard !text.lowercased().contains(closing) else {
            throw missing(file, "contains \(closing), which would end its element")
        }
        return text
    }

    private static func text(of file: String) throws(BackdropError) -> String {
        let url = Bundle.module.bundleURL.appendingPathComponent(folder).appendingPathComponent(file)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw missing(file, "is missing from \(url.deletingLastPathComponent().path)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    private static func missing(_ file: String, _ problem: String) -> BackdropError {
        BackdropError(.badInput, "the preview page's file \(folder)/\(file) \(problem)")
    }
}
