import Backdrop
import BackdropTestSupport
import Foundation
import Testing

@Suite("The device table")
struct DeviceTableTests {
    /// The rows of the table in `docs/devices.md`, cells trimmed.
    func specRows() throws -> [[String]] {
        let path = Fixtures.packageRoot.appendingPathComponent("docs/devices.md").path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            Issue.record("missing \(path)")
            throw FixtureMissing(path: path)
        }
        return text.split(separator: "\n")
            .filter { $0.hasPrefix("| ") && !$0.hasPrefix("| id ") }
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
        #expect(Device.all.map(\.id) == rows.map { $0[0] })
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

    @Test func idsAreUniqueAndLookUpIgnoresCase() {
        #expect(Set(Device.all.map(\.id)).count == Device.all.count)
        #expect(Device.named("iPad-Air")?.name == "iPad Air")
        #expect(Device.named("ipad-5") == nil)
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
