import Backdrop
import Testing

/// `--devices`: which devices a filter selects, and the groups a long device table is read in (issue 64 item 6).
@Suite("Device selection")
struct DeviceSelectionTests {
    @Test func aFamilySelectsEveryDeviceOfItsLineInTableOrder() throws {
        let iphones = try DeviceSelection.select(["iphone"])
        #expect(iphones.map(\.id) == Device.all.filter { $0.id.hasPrefix("iphone-") }.map(\.id))
        #expect(iphones.count > 40)
        #expect(try DeviceSelection.select(["ipod"]).map(\.id) == ["ipod-touch-5"])
    }

    @Test func yearsSelectByRelease() throws {
        let from2017 = try DeviceSelection.select(["2017+"])
        #expect(!from2017.isEmpty && from2017.allSatisfy { $0.year >= 2017 })
        #expect(from2017.count == Device.all.filter { $0.year >= 2017 }.count)
        #expect(try DeviceSelection.select(["2010"]).map(\.id) == ["iphone-4", "ipad-1"])
        let range = try DeviceSelection.select(["2014-2016"])
        #expect(range.map(\.year).min() == 2014 && range.map(\.year).max() == 2016)
        #expect(range.count == Device.all.filter { (2014...2016).contains($0.year) }.count)
    }

    /// A comma list is any of its terms; the option given again must also match.
    @Test func commasJoinAndRepeatsNarrow() throws {
        #expect(
            try DeviceSelection.select(["iphone-7, IPHONE-15-PRO,ipad-air"]).map(\.id)
                == ["iphone-7", "ipad-air", "iphone-15-pro"].sorted { id, other in
                    Device.all.firstIndex { $0.id == id }! < Device.all.firstIndex { $0.id == other }!
                })
        let narrowed = try DeviceSelection.select(["iphone", "2017+"])
        #expect(narrowed.map(\.id) == Device.all.filter { $0.id.hasPrefix("iphone-") && $0.year >= 2017 }.map(\.id))
        #expect(narrowed.contains { $0.id == "iphone-8" } && !narrowed.contains { $0.id == "iphone-7" })
        let measured = try DeviceSelection.select(["measured"])
        #expect(Set(measured.map(\.id)) == Device.measuredIDs)
        let extrapolated = try DeviceSelection.select(["extrapolated"])
        #expect(extrapolated.allSatisfy { $0.evidence == .extrapolated } && !extrapolated.isEmpty)
    }

    /// Every refusal is one line naming the problem, and a bad option (exit 2).
    @Test(arguments: [
        (["iphone", "ipad"], "selects no device"),
        (["iphone-9"], "'iphone-9' is no device id"),
        (["iphone,"], "has an empty term"),
        (["2016-2014"], "run backwards (write 2014-2016)"),
        (["1999+"], "outside the table's years"),
        (["2030"], "outside the table's years"),
        (["ipohne"], "did you mean 'iphone'"),
    ])
    func badFiltersAreRefused(filters: [String], words: String) {
        #expect {
            _ = try DeviceSelection.select(filters)
        } throws: { error in
            guard let error = error as? BackdropError else { return false }
            return error.kind == .badOption && error.message.contains(words) && !error.message.contains("\n")
        }
    }

    /// The preview's query names its key as a query writes it.
    @Test func theQuerysSpellingNamesTheKey() {
        #expect {
            _ = try DeviceSelection.select(["ipohne"], spelling: "devices=")
        } throws: { error in
            (error as? BackdropError)?.message.hasPrefix("devices=ipohne: 'ipohne' is no device id") == true
        }
    }

    /// Every device is in exactly one group, groups never mix families or GPU makers, and each title's years are
    /// its devices'.
    @Test func groupsPartitionTheTable() {
        let groups = DeviceSelection.groups(Device.all)
        #expect(groups.flatMap(\.devices).map(\.id).sorted() == Device.all.map(\.id).sorted())
        #expect(groups.map(\.title).first == "iPhone, PowerVR GPU (2009–2016)", "\(groups.map(\.title))")
        #expect(groups.count == 5, "\(groups.map(\.title))")
        for group in groups {
            #expect(Set(group.devices.map(\.family)).count == 1 && Set(group.devices.map(\.hasAppleGPU)).count == 1)
            let years = group.devices.map(\.year)
            #expect(
                group.title.hasSuffix("(\(years.min()!)–\(years.max()!))") || group.title.hasSuffix("(\(years[0]))"))
        }
        #expect(Device.named("iphone-8")?.hasAppleGPU == true && Device.named("ipad-pro-10-5")?.hasAppleGPU == false)
        #expect(Device.all.allSatisfy { $0.id.hasPrefix($0.family.rawValue + "-") })
    }

    /// A grouped text table titles each group once and keeps the columns aligned across groups.
    @Test func aGroupedTableTitlesItsGroups() {
        let table = TextTable(
            header: ["id", "n"],
            groups: [("first", [["a", "1"], ["bbb", "2"]]), ("empty", []), ("second", [["c", "3"]])]
        ).rendered
        #expect(table == "id   n\n───  ─\nfirst\na    1\nbbb  2\n\nsecond\nc    3")
    }
}
