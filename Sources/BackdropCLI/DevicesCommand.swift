import ArgumentParser
import Backdrop
import Foundation

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract:
            "List the device table: every iPhone and iPad from the iPhone 3GS (2009) to 2025's, with GPU figures and their evidence.",
        discussion: """
            Ids in the first column are what --device takes; the table comes in groups (iPhone, iPad, iPod touch, \
            each by the maker of its GPU). GPU clocks are published estimates (Apple gave none); the fill rate is the \
            model's (texels per clock × clock × the generation's measured efficiency), beside the GLBenchmark \
            measurement where one was published. The evidence column says whether a public measurement of the device \
            itself checks its price (measured), one of its GPU generation does (scaled), or neither (extrapolated). \
            --devices selects rows as 'backdrop estimate' does. The JSON form carries each device's sources (see \
            docs/devices.md and docs/device-evidence.md).

            Examples:
              backdrop devices
              backdrop devices --devices ipad --devices 2020+
              backdrop devices --format json
            """ + OutputGlossary.devices
    )

    @OptionGroup var listing: ListingFormat

    @Option(
        name: .customLong("devices"),
        help: ArgumentHelp(
            "List only the devices a filter selects (families iphone, ipad, ipod; years 2017, 2017+, 2014-2016; "
                + "evidence labels; ids; comma lists), as 'backdrop estimate --devices' does.",
            valueName: "filter"))
    var filters: [String] = []

    func run() throws {
        let devices = try DeviceSelection.select(filters)
        try listing.print(devices) {
            let header = [
                "id", "device", "GPU", "MHz", "texels/clock", "fill Mtexels/s", "measured", "GFLOPS", "GB/s", "screen",
                "scale", "year", "last iOS", "iOS 7 blur", "evidence",
            ]
            return TextTable(header: header, rowsOf: devices, deviceID: \.id) { d in
                [
                    d.id, d.name, d.gpu, String(format: "%.0f", d.gpuClockMHz), String(format: "%g", d.texelsPerClock),
                    String(format: "%.0f", d.fillRateMTexelsPerSecond),
                    d.measuredFillRateMTexelsPerSecond.map { String(format: "%.1f", $0) } ?? "–",
                    String(format: "%g", d.gflops),
                    String(format: "%.1f", d.memoryBandwidthGBps), "\(d.screen)", String(format: "%g", d.scale),
                    "\(d.year)", d.lastIOS, d.iOS7Blur.rawValue, d.evidence.rawValue,
                ]
            }
        }
    }
}
