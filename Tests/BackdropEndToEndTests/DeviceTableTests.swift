import Backdrop
import BackdropTestSupport
import Foundation
import Testing

@Suite("The device table")
struct DeviceTableTests {
    /// The rows of the `table`th table (0: 2009–2013, 1: from 2014) in `docs/devices.md`, cells trimmed.
    func specRows(table: Int = 0) throws -> [[String]] {
        let path = Fixtures.packageRoot.appendingPathComponent("docs/devices.md").path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            Issue.record("missing \(path)")
            throw FixtureMissing(path: path)
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let headers = lines.indices.filter { lines[$0].hasPrefix("| id ") }
        guard table < headers.count else { return [] }
        return lines[(headers[table] + 2)...].prefix { $0.hasPrefix("| ") }
            .map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    /// The number in a cell such as "≈266–290 MHz", "1.2?" or "≈68" (the first one).
    func firstNumber(_ cell: String) -> Double? {
        let digits = cell.drop { !$0.isNumber }.prefix { $0.isNumber || $0 == "." }
        return Double(digits)
    }

    @Test func everyDeviceOfTheSpecIsInTheTableWithTheSameFacts() throws {
        // Columns: id | device | GPU | GPU clock | GFLOPS | texels / clock | memory bus | screen px | scale | iOS 7 blur | evidence
        let rows = try specRows()
        #expect(rows.count == 14)
        #expect(Device.earlyDevices.map(\.id) == rows.map { $0[0] })
        for row in rows {
            let device = try #require(Device.named(row[0]))
            #expect(device.name == row[1])
            #expect(device.gpu == row[2])
            #expect(firstNumber(row[3]) == device.gpuClockMHz, "\(device.id) clock \(row[3])")
            #expect(firstNumber(row[4]) == device.gflops, "\(device.id) GFLOPS \(row[4])")
            // "see note 1" for the SGX535: spec sheets say two texture units ([S4], [S6]); the model takes them at
            // the SGX535's measured efficiency (GPUGeneration).
            let texels = row[5].hasPrefix("see note") ? 2 : firstNumber(row[5])
            #expect(texels == device.texelsPerClock, "\(device.id) texels per clock")
            let bandwidth = try #require(row[6].split(separator: "(").last.flatMap { firstNumber(String($0)) })
            #expect(bandwidth == device.memoryBandwidthGBps, "\(device.id) bandwidth")
            #expect(row[7] == "\(device.screen.width)×\(device.screen.height)", "\(device.id) screen")
            #expect(row[8] == String(format: "%g", device.scale))
            let policy = row[9] == "–" ? Device.BlurPolicy.noIOS7 : Device.BlurPolicy(rawValue: row[9])
            #expect(device.iOS7Blur == policy, "\(device.id) iOS 7 policy")
            // A measured fill rate in the evidence is the one the device carries.
            if let range = row[10].range(of: "measured fill ") {
                #expect(
                    firstNumber(String(row[10][range.upperBound...])) == device.measuredFillRateMTexelsPerSecond,
                    "\(device.id)")
            } else {
                #expect(device.measuredFillRateMTexelsPerSecond == nil, "\(device.id)")
            }
            // Every source id the spec cites for the device is named in its sources.
            for match in row[10].matches(of: /\[S\d+\]/) {
                let id = String(row[10][match.range])
                #expect(device.sources.contains(id), "\(device.id) does not cite \(id)")
            }
        }
        // The iPad 4's clock is corrected: not AnandTech's normalising 300 MHz.
        #expect(Device.named("ipad-4")?.gpuClockMHz == 266)
    }

    @Test func everyDeviceFrom2014IsInTheSecondTableWithTheSameFacts() throws {
        // Columns: id | device | year | SoC | GPU | GPU clock | GFLOPS | texels / clock | memory bus | screen px |
        // panel px | scale | RAM | last iOS | evidence
        let rows = try specRows(table: 1)
        #expect(rows.count == 79)
        #expect(Device.modernDevices.map(\.id) == rows.map { $0[0] })
        #expect(Device.all.map(\.id) == Device.earlyDevices.map(\.id) + rows.map { $0[0] })
        for row in rows {
            let device = try #require(Device.named(row[0]))
            #expect(device.name == row[1] && String(device.year) == row[2] && device.soc == row[3], "\(device.id)")
            #expect(device.gpu == row[4], "\(device.id)")
            #expect(device.generation != nil, "\(device.id) has a GPU generation")
            #expect(firstNumber(row[5]) == device.gpuClockMHz, "\(device.id) clock")
            #expect(firstNumber(row[6]) == device.gflops, "\(device.id) GFLOPS")
            #expect(firstNumber(row[7]) == device.texelsPerClock, "\(device.id) texels per clock")
            #expect(row[8] == "\(device.memoryBus) (\(String(format: "%g", device.memoryBandwidthGBps)) GB/s)")
            #expect(row[9] == "\(device.screen.width)×\(device.screen.height)", "\(device.id) screen")
            #expect(row[10] == (device.panel.map { "\($0.width)×\($0.height)" } ?? "–"), "\(device.id) panel")
            #expect(row[11] == String(format: "%g", device.scale))
            #expect(row[12] == (device.ramMB.map { "\($0 / 1024) GB" } ?? "–"), "\(device.id) RAM")
            #expect(row[13] == device.lastIOS && device.iOS7Blur == .blur, "\(device.id)")
            #expect(row[14] == device.sources, "\(device.id) sources")
        }
        // The ids the issue names, and the one that started it.
        for id in [
            "iphone-6", "iphone-6-plus", "iphone-6s", "iphone-se-1", "iphone-7", "iphone-8", "iphone-x",
            "iphone-xs", "iphone-xr", "iphone-11", "iphone-13", "iphone-15-pro", "iphone-16", "iphone-17-pro",
            "ipad-air-2", "ipad-pro-12-9-3",
        ] {
            #expect(Device.named(id) != nil, "\(id)")
        }
        // Plus and mini models render at more pixels than their panel has.
        #expect(Device.named("iphone-8-plus")?.screen == PixelSize(width: 1242, height: 2208))
        #expect(Device.named("iphone-12-mini")?.panel == PixelSize(width: 1080, height: 2340))
    }

    @Test func iphone7IsPricedWhereItOnceSuggestedIphone4() throws {
        let run = try runCLI(["estimate", "view", "--device", "iphone-7", "--style", "light"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("iPhone 7 (iphone-7)"))
    }

    @Test func idsAreUniqueAndLookUpIgnoresCase() {
        #expect(Set(Device.all.map(\.id)).count == Device.all.count)
        #expect(Device.named("iPad-Air")?.name == "iPad Air")
        #expect(Device.named("ipad-3gs") == nil)
    }

    @Test func onlyTheTwoMeasuredDevicesAreMarkedAsMeasured() {
        #expect(Device.all.filter(\.hasSeedMeasurements).map(\.id) == ["ipad-3", "ipad-air"])
    }

    @Test func theDevicesCommandListsEveryDevice() throws {
        let text = try runCLI(["devices"])
        #expect(text.status == 0)
        for device in Device.all { #expect(text.standardOutput.contains(device.id)) }
        let json = try runCLI(["devices", "--format", "json"])
        #expect(try JSONDecoder().decode([Device].self, from: Data(json.standardOutput.utf8)) == Device.all)
        // The model's fill rate is in the JSON for readers.
        let objects = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        // Within 10⁻¹² of the figure: JSONSerialization's number parsing may round the last digit.
        let written = objects.map { $0["fillRateMTexelsPerSecond"] as? Double ?? -1 }
        #expect(
            zip(written, Device.all.map(\.fillRateMTexelsPerSecond)).allSatisfy { abs($0 - $1) <= 1e-12 * $1 },
            "\(written)")
        #expect(text.standardOutput.contains("fill Mtexels/s") && text.standardOutput.contains("890.1"))
    }
}
