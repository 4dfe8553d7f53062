import ArgumentParser
import Backdrop
import Foundation

struct StylesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "styles",
        abstract: "List every built-in style with its parameters.",
        discussion: """
        σ is in points (× the scale for pixels); the tint is drawn over the saturated blur at its alpha; the \
        fallback alpha is the tint's opacity when blur is disabled. Parameters from Apple's UIImage+ImageEffects \
        sample (WWDC 2013); the fallback opacities are Backdrop's documented choice.

        Example:
          backdrop styles --format json
        """
    )

    @Option(help: ArgumentHelp("text or json.", valueName: "format"))
    var format: String = "text"

    func run() throws {
        switch format {
        case "json":
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(BlurStyle.builtIn), as: UTF8.self))
        case "text":
            let header = ["style", "sigma (pt)", "saturation", "tint (white)", "tint alpha", "fallback alpha", "vibrancy"]
            let rows = BlurStyle.builtIn.map { s in
                [s.name, fmt(s.sigmaPoints), fmt(s.saturation), fmt(s.tintColor.x), fmt(s.tintAlpha),
                 fmt(s.fallbackAlpha), s.vibrancyBlend.rawValue]
            }
            print(TextTable(header: header, rows: rows).rendered)
            print("custom: --style custom --sigma PT --saturation S --tint r,g,b --tint-alpha A [--fallback-alpha F]")
        default:
            throw BackdropError(.badOption, "unknown format '\(format)' (known: text, json)")
        }
    }

    private func fmt(_ v: Double) -> String { String(format: "%g", v) }
}
