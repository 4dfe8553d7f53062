import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// docs/styles.md's "Priced on every device" table is the cost model's: every device, light, systemMaterial and glass
/// full screen, each path and figure as `backdrop estimate --all-devices --style …` prints it, "(what-if)" exactly where
/// the device never ran the style's iOS.
@Suite("The styles' price table in docs/styles.md")
struct StylePriceTableTests {
    @Test func everyFigureIsTheCostModels() throws {
        let path = Fixtures.packageRoot.appendingPathComponent("docs/styles.md").path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            Issue.record("missing \(path)")
            throw FixtureMissing(path: path)
        }
        let header = "| device | screen px | light: path, ms | systemMaterial: path, ms | glass: path, ms |"
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: header), "the table's header")
        let rows = lines[(start + 2)...].prefix { $0.hasPrefix("| ") }
            .map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
        #expect(rows.map { $0[0] } == Device.all.map(\.id))
        let estimator = Estimator()
        for row in rows {
            let device = try #require(Device.named(row[0]))
            #expect(row[1] == "\(device.screen)", "\(device.id)")
            for (column, name) in [(2, "light"), (3, "systemMaterial"), (4, "glass")] {
                let style = try #require(StyleCatalogue.entry(named: name)?.light)
                let estimate = try estimator.estimate(device: device, style: style, vibrancy: false)
                let whatIf = Estimator.whatIf(style, on: device) == nil ? "" : " (what-if)"
                let expected = "\(estimate.path.rawValue), \(String(format: "%.2f", estimate.totalMs))\(whatIf)"
                #expect(row[column] == expected, "\(device.id), \(name)")
            }
        }
    }
}
