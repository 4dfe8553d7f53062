import ArgumentParser
import Backdrop
import Foundation

struct StylesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "styles",
        abstract: "List every style (UIKit's UIBlurEffect.Style) with its parameters, source and evidence.",
        discussion: """
            One row per style and appearance (an adaptive style has a light and a dark row; pick one with \
            --appearance). iOS 7's styles and iOS 10's regular and prominent are a blur, a saturation and a tint \
            drawn over it (σ in points, × the scale for pixels); iOS 13's system materials are a CoreMaterial \
            recipe: a luminance curve (amount: v0 v1 v2 v3), a saturation and a brightness, then the blur on a \
            backdrop captured at a quarter of the scale; iOS 26's glass and clearGlass are an approximation (a blur, \
            then a face, rim refraction and highlight in the view's shape: --corner-radius or --capsule, --tint). \
            Evidence: measured, from Apple's files, derived, or \
            approximation; the sources follow the table, then the eight vibrancy levels (--vibrancy-style) and the \
            matrix each takes over each material and each glass (glass's derived).

            Example:
              backdrop styles --format json
            """ + OutputGlossary.styles
    )

    @OptionGroup var listing: ListingFormat

    func run() throws {
        try listing.print(StyleCatalogue.all.map(StyleListing.init)) {
            let header = [
                "style", "iOS", "appearance", "recipe", "sigma (pt)", "saturation", "tint (white@alpha)", "brightness",
                "luminance", "evidence",
            ]
            var rows: [[String]] = []
            for entry in StyleCatalogue.all {
                let variants: [(String, BlurStyle)] =
                    entry.isAdaptive
                    ? [("light", entry.light), ("dark", entry.dark)]
                    : [
                        (
                            entry.light.material?.isDark ?? (entry.name == "dark") ? "dark" : "light",
                            entry.light
                        )
                    ]
                for (index, (appearance, s)) in variants.enumerated() {
                    let recipe = s.material
                    rows.append([
                        index == 0 ? entry.name : "", index == 0 ? "\(entry.introducedInIOS)" : "",
                        entry.isAdaptive ? appearance + " (adaptive)" : appearance,
                        recipe?.name ?? (s.glass.map(glassSummary) ?? "-"),
                        fmt(s.sigmaPoints), fmt(s.glass?.faceSaturation ?? s.saturation),
                        recipe == nil && s.glass == nil ? "\(fmt(s.tintColor.x))@\(fmt(s.tintAlpha))" : "-",
                        recipe.map { fmt($0.brightness) } ?? "-",
                        recipe.map {
                            "\(fmt($0.luminanceAmount)): \($0.luminanceValues.map(fmt).joined(separator: " "))"
                        }
                            ?? "-",
                        index == 0 ? entry.evidence.rawValue : "",
                    ])
                }
            }
            return TextTable(header: header, rows: rows)
        }
        if listing.format == .text {
            print("custom: --style custom --sigma PT --saturation S --tint r,g,b --tint-alpha A [--fallback-alpha F]")
            print("\nsources:")
            for entry in StyleCatalogue.all { print("  \(entry.name): \(entry.source)") }
            print(
                "  recipes' numbers: \(MaterialRecipe.all[0].sources); four rows also in a second reading (see MaterialRecipe.all)"
            )
            printVibrancyLevels()
        }
    }

    /// The eight vibrancy levels (`--vibrancy-style`): a row per recipe, the matrix each level takes over it (the
    /// recipe's `platform` prefix and the matrices' left out to keep the table narrow), then a row per glass and
    /// appearance (the catalogue's), then their evidence.
    private func printVibrancyLevels() {
        let header = ["recipe"] + VibrancyLevel.allCases.map(\.rawValue)
        var rows = MaterialRecipe.all.map { recipe in
            [Self.short(recipe.name)]
                + VibrancyLevel.allCases.map { Self.short(VibrantColorMatrix.forLevel($0, over: recipe).name) }
        }
        for entry in StyleCatalogue.all where entry.light.glass != nil {
            guard let levels = entry.vibrancyLevels else { continue }
            rows.append(["\(entry.name) light (derived)"] + levels.map { Self.short($0.light) })
            rows.append(["\(entry.name) dark (derived)"] + levels.map { Self.short($0.dark) })
        }
        print("\nvibrancy levels (--vibrancy-style, over a system material or glass; the matrix each takes):")
        print(TextTable(header: header, rows: rows).rendered)
        print(
            "vibrancy levels: \(StyleCatalogue.vibrancyLevelEvidence.rawValue): \(StyleCatalogue.vibrancyLevelSource)")
        print("glass's levels: \(StyleCatalogue.glassLevelEvidence.rawValue): \(StyleCatalogue.glassLevelSource)")
    }

    /// A CoreMaterial name without its `platform` prefix: "ContentThinLight".
    private static func short(_ name: String) -> String {
        name.hasPrefix("platform") ? String(name.dropFirst("platform".count)) : name
    }

    /// Glass's face in one cell: "glass face 0.4→0.96, fill 0.2 (approximation)".
    private func glassSummary(_ g: GlassParameters) -> String {
        "glass face \(fmt(g.faceBlack))→\(fmt(g.faceWhite)), fill \(fmt(g.fillAlpha)) (approximation)"
    }

    private func fmt(_ v: Double) -> String { String(format: "%g", v) }
}

/// A catalogue entry as `styles --format json` prints it: the entry's own keys, and `adaptive`, whether it follows the
/// appearance (`--appearance` applies; a fixed style's `light` and `dark` are the same style).
struct StyleListing: Encodable {
    let entry: StyleCatalogue.Entry

    private enum Keys: String, CodingKey { case adaptive }

    func encode(to encoder: any Encoder) throws {
        try entry.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(entry.isAdaptive, forKey: .adaptive)
    }
}
