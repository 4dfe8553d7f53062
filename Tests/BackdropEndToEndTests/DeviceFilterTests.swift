import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// `--devices` on `backdrop estimate` and `backdrop devices`, the grouped tables, and the JSON's `whatIf` (issue 64
/// items 4 and 6).
@Suite("--devices and what-ifs")
struct DeviceFilterTests {
    /// The records of a JSON array of estimates.
    func records(_ result: CLIResult) throws -> [[String: Any]] {
        #expect(result.status == 0, "\(result.standardError)")
        return try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
    }

    @Test func aFilterPricesOnTheDevicesItSelects() throws {
        let json = try records(
            runCLI([
                "estimate", "view", "--devices", "iphone", "--devices", "2017+", "--style", "light", "--format", "json",
            ]))
        let expected = Device.all.filter { $0.id.hasPrefix("iphone-") && $0.year >= 2017 }.map(\.id)
        #expect(json.map { $0["device"] as? String ?? "" } == expected)
        // One device selected is still an array: the shape follows the option, not the count.
        let one = try records(
            runCLI(["estimate", "view", "--devices", "iphone-7", "--style", "dark", "--format", "json"]))
        #expect(one.count == 1 && one[0]["device"] as? String == "iphone-7")
        let scene = try records(
            runCLI(["estimate", "scene", "photos-table-shadows", "--devices", "ipad,2013", "--format", "json"]))
        #expect(scene.count == Device.all.filter { $0.id.hasPrefix("ipad-") || $0.year == 2013 }.count)
    }

    /// A filter that selects nothing, a term that is no device, `--device` beside `--devices`: one line, exit 2.
    @Test(arguments: [
        (["--devices", "iphone", "--devices", "ipad"], "selects no device"),
        (["--devices", "iphone-9"], "did you mean"),
        (["--devices", "2030+"], "outside the table's years"),
        (["--device", "iphone-7", "--devices", "ipad"], "not both"),
    ])
    func badFiltersExitTwoOnOneLine(arguments: [String], words: String) throws {
        let result = try runCLI(["estimate", "view", "--style", "light"] + arguments)
        #expect(result.status == 2, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains(words), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    /// The all-devices table comes in titled groups, every device under its own group's title.
    @Test func theAllDevicesTableIsGrouped() throws {
        let result = try runCLI(["estimate", "view", "--all-devices", "--style", "light"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let groups = DeviceSelection.groups(Device.all)
        var title: String?
        var seen = 0
        for line in lines {
            if let group = groups.first(where: { $0.title == line }) {
                title = group.title
            } else if let device = Device.all.first(where: { line.hasPrefix($0.id + " ") }) {
                let group = groups.first { $0.devices.contains(device) }
                #expect(group?.title == title, "\(device.id) under \(title ?? "no title")")
                seen += 1
            }
        }
        #expect(seen == Device.all.count)
        #expect(groups.allSatisfy { group in lines.contains(group.title) })
        let listing = try runCLI(["devices", "--devices", "ipad", "--devices", "2020+"])
        #expect(listing.status == 0, "\(listing.standardError)")
        let listed = Device.all.filter { listing.standardOutput.contains("\n\($0.id) ") }.map(\.id)
        #expect(listed == Device.all.filter { $0.id.hasPrefix("ipad-") && $0.year >= 2020 }.map(\.id))
        #expect(listing.standardOutput.contains("iPad, Apple GPU (2020–2025)"))
    }

    /// `whatIf` is true exactly where the device's last iOS is older than the style's: materials (iOS 13) on an
    /// iPhone 6 (iOS 12) but not an iPhone 6s; glass (iOS 26) on an iPhone XS (iOS 18) but not an iPhone 11 or 17 Pro;
    /// iOS 7's light on the iPhone 3GS (iOS 6) but not the iPhone 4.
    @Test(arguments: [
        ("systemMaterial", "iphone-6", true), ("systemMaterial", "iphone-6s", false),
        ("glass", "iphone-xs", true), ("glass", "iphone-11", false), ("glass", "iphone-17-pro", false),
        ("light", "iphone-3gs", true), ("light", "iphone-4", false),
    ])
    func whatIfIsInTheJSON(style: String, device: String, whatIf: Bool) throws {
        let view = try runCLI(["estimate", "view", "--device", device, "--style", style, "--format", "json"])
        #expect(view.status == 0, "\(view.standardError)")
        let record = try #require(
            try JSONSerialization.jsonObject(with: Data(view.standardOutput.utf8)) as? [String: Any])
        #expect(record["whatIf"] as? Bool == whatIf, "\(style) on \(device)")
    }

    /// A scene is a what-if where any of its effect views' styles is.
    @Test func aScenesWhatIfIsAnyOfItsStyles() throws {
        let scene =
            #"{"name": "bar", "layers": [{"name": "bar", "frame": [0, 0, 320, 64], "effect": {"blur": "systemMaterial"}}]}"#
        let json = try records(
            runCLI(
                ["estimate", "scene", "-", "--devices", "iphone-6,iphone-6s", "--format", "json"],
                input: Data(scene.utf8)))
        #expect(json.map { $0["whatIf"] as? Bool } == [true, false])
    }
}
