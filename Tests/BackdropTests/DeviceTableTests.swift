import Backdrop
import Foundation
import Testing

@Suite("The device table")
struct DeviceTableTests {
    /// The rows of the table in `../shared/spec/devices.md`, cells trimmed.
    func specRows() throws -> [[String]] {
        let path = Fixtures.sharedPath("spec/devices.md")
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            Issue.record("missing \(path)")
            throw FixtureMissing(path: path)
        }
        return text.split(separator: "\n")
            .filter { $0.hasPrefix("| ") && !$0.hasPrefix("| id ") }
            .map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    @Test func everyDeviceOfTheSpecIsInTheTableWithTheSameFacts() throws {
        let rows = try specRows()
        #expect(rows.count == 14)
        #expect(Device.all.map(\.id) == rows.map { $0[0] })
        for row in rows {
            let device = try #require(Device.named(row[0]))
            #expect(device.name == row[1])
            #expect("\(device.year)" == row[2])
            #expect(device.gpu == row[4])
            #expect(row[5].contains(String(format: "%.0f", device.gpuClockMHz)), "\(device.id) clock")
            // "≈77" in the spec; the table may refine an estimate (76.8, sourced) but not change it.
            let specGFLOPS = try #require(Double(row[6].replacingOccurrences(of: "≈", with: "")))
            #expect(abs(device.gflops - specGFLOPS) <= 0.01 * specGFLOPS, "\(device.id) GFLOPS")
            #expect(row[8] == "\(device.screen.width)×\(device.screen.height)", "\(device.id) screen")
            #expect(row[9] == String(format: "%g", device.scale))
            #expect(row[11] == device.lastIOS)
            let policy = row[12] == "–" ? Device.BlurPolicy.noIOS7 : Device.BlurPolicy(rawValue: row[12])
            #expect(device.iOS7Blur == policy, "\(device.id) iOS 7 policy")
        }
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
    }
}
