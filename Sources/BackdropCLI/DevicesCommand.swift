import ArgumentParser
import Backdrop
import Foundation

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the device table: iPhone 3GS through iPad Air, with GPU figures and Apple's iOS 7 blur policy.",
        discussion: """
        Ids in the first column are what --device takes. GPU clocks and bandwidths marked ≈ in the spec are \
        published estimates; the JSON form carries each device's sources.

        Examples:
          backdrop devices
          backdrop devices --format json
        """
    )

    @OptionGroup var listing: ListingFormat

    func run() throws {
        try listing.print(Device.all) {
            let header = ["id", "device", "GPU", "MHz", "TMUs", "Gtexel/s", "GB/s", "screen", "scale", "iOS 7 blur"]
            let rows = Device.all.map { d in
                [d.id, d.name, d.gpu, String(format: "%.0f", d.gpuClockMHz), "\(d.textureUnits)",
                 String(format: "%.2f", d.texelsPerSecond / 1e9), String(format: "%.1f", d.memoryBandwidthGBps),
                 "\(d.screen)", String(format: "%g", d.scale), d.iOS7Blur.rawValue]
            }
            return TextTable(header: header, rows: rows)
        }
    }
}
