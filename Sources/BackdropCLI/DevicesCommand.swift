import ArgumentParser
import Backdrop
import Foundation

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the device table: iPhone 3GS through iPad Air, with GPU figures and Apple's iOS 7 blur policy.",
        discussion: """
            Ids in the first column are what --device takes. GPU clocks are published estimates (Apple gave none); \
            the fill rate is the model's (texels per clock × clock), beside the GLBenchmark measurement where one was \
            published. The JSON form carries each device's sources (ids of docs/devices.md).

            Examples:
              backdrop devices
              backdrop devices --format json
            """ + OutputGlossary.devices
    )

    @OptionGroup var listing: ListingFormat

    func run() throws {
        try listing.print(Device.all) {
            let header = [
                "id", "device", "GPU", "MHz", "texels/clock", "fill Mtexels/s", "measured", "GFLOPS", "GB/s", "screen",
                "scale", "iOS 7 blur",
            ]
            let rows = Device.all.map { d in
                [
                    d.id, d.name, d.gpu, String(format: "%.0f", d.gpuClockMHz), String(format: "%g", d.texelsPerClock),
                    String(format: "%.0f", d.fillRateMTexelsPerSecond),
                    d.measuredFillRateMTexelsPerSecond.map { String(format: "%.1f", $0) } ?? "–",
                    String(format: "%g", d.gflops),
                    String(format: "%.1f", d.memoryBandwidthGBps), "\(d.screen)", String(format: "%g", d.scale),
                    d.iOS7Blur.rawValue,
                ]
            }
            return TextTable(header: header, rows: rows)
        }
    }
}
