import Backdrop

extension TextTable {
    /// A row per item under `header`, in the groups ``DeviceSelection/groups(_:)`` makes of the items' devices (family,
    /// then the GPU's maker), so a reader of a 90-device table finds a device by where it belongs; a table of one
    /// device has no title. Each item's row keeps its place within its group; an item whose id is no device of the
    /// table (none is, today) goes last, under "other".
    init<Item>(header: [String], rowsOf items: [Item], deviceID: (Item) -> String, row: (Item) -> [String]) {
        guard items.count > 1 else {
            self.init(header: header, rows: items.map(row))
            return
        }
        var groups = DeviceSelection.groups(items.compactMap { Device.named(deviceID($0)) }).map { group in
            let ids = Set(group.devices.map(\.id))
            return (title: group.title, rows: items.filter { ids.contains(deviceID($0)) }.map(row))
        }
        groups.append((title: "other", rows: items.filter { Device.named(deviceID($0)) == nil }.map(row)))
        self.init(header: header, groups: groups)
    }
}
