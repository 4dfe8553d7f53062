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

    @OptionGroup var listing: ListingFormat

    func run() throws {
        try listing.print(BlurStyle.builtIn) {
            let header = [
                "style", "sigma (pt)", "saturation", "tint (white)", "tint alpha", "fallback alpha", "vibrancy",
            ]
            let rows = BlurStyle.builtIn.map { s in
                [
                    s.name, fmt(s.sigmaPoints), fmt(s.saturation), fmt(s.tintColor.x), fmt(s.tintAlpha),
                    fmt(s.fallbackAlpha), s.vibrancyBlend.rawValue,
                ]
            }
            return TextTable(header: header, rows: rows)
        }
        if listing.format == .text {
            print("custom: --style custom --sigma PT --saturation S --tint r,g,b --tint-alpha A [--fallback-alpha F]")
        }
    }

    private func fmt(_ v: Double) -> String { String(format: "%g", v) }
}
