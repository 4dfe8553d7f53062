import BackdropImageIO
import Foundation

/// Which devices of the table a command prices on (`--devices`), and the groups a long table of them is read in.
///
/// A filter is a comma list of terms; a device is chosen when any term matches it:
/// - a family: `iphone`, `ipad` or `ipod` (every device whose id starts so);
/// - a year: `2017` (released that year), `2017+` (that year or later), `2014-2016` (between, both included);
/// - an evidence label: `measured`, `scaled` or `extrapolated` (``Device/Evidence``);
/// - a device id, e.g. `iphone-15-pro`.
///
/// Several filters (the option given again) must all match: `--devices iphone --devices 2017+` is every iPhone from
/// 2017 on. The devices keep the table's order (``Device/all``). A term that is none of these names the closest
/// ids; a selection that leaves no device is refused: both ``BackdropError/Kind/badOption`` (exit 2).
public enum DeviceSelection {
    /// The devices of `devices` that every filter in `filters` matches, in their order.
    /// `spelling` is how the errors name the option: `--devices` for the CLI, `devices=` for the preview's query.
    public static func select(
        _ filters: [String], from devices: [Device] = Device.all, spelling: String = "--devices"
    ) throws(BackdropError) -> [Device] {
        var chosen = devices
        for filter in filters {
            let terms = try filter.split(separator: ",", omittingEmptySubsequences: false).map {
                (term) throws(BackdropError) in try Term(String(term), filter: filter, spelling: spelling)
            }
            chosen = chosen.filter { device in terms.contains { $0.matches(device) } }
        }
        guard !chosen.isEmpty else {
            let given = filters.map { Self.given($0, spelling: spelling) }.joined(separator: " ")
            throw BackdropError(.badOption, "\(given) selects no device (see 'backdrop devices' for the ids)")
        }
        return chosen
    }

    /// A filter as the user wrote it: `--devices 'iphone'`, `devices=iphone` for a query's key, or `'iphone'` where the
    /// caller names the place (a manifest's key, spelling "").
    static func given(_ filter: String, spelling: String) -> String {
        spelling.isEmpty ? "'\(filter)'" : spelling.hasSuffix("=") ? spelling + filter : "\(spelling) '\(filter)'"
    }

    /// One term of a filter.
    enum Term: Equatable {
        case family(String)
        case years(ClosedRange<Int>)
        case evidence(Device.Evidence)
        case id(String)

        /// The year of the first iPhone: no term may start before it (`1999+` is a typo, not every device).
        static let firstIPhoneYear = 2007
        /// The years of the table: a term must reach into them, so `2030` is refused as a typo, not an empty list.
        static let tableYears = (Device.all.map(\.year).min() ?? 0)...(Device.all.map(\.year).max() ?? 0)

        init(_ text: String, filter: String, spelling: String) throws(BackdropError) {
            let term = text.trimmingCharacters(in: .whitespaces).lowercased()
            if term.isEmpty {
                throw BackdropError(
                    .badOption,
                    "\(DeviceSelection.given(filter, spelling: spelling)) has an empty term (write terms between commas)"
                )
            }
            if let family = Device.Family(rawValue: term) {
                self = .family(family.rawValue)
            } else if let evidence = Device.Evidence(rawValue: term) {
                self = .evidence(evidence)
            } else if let years = try Self.years(term, in: DeviceSelection.given(filter, spelling: spelling)) {
                self = .years(years)
            } else if Device.named(term) != nil {
                self = .id(term)
            } else {
                let words = Device.Family.allCases.map(\.rawValue) + Device.Evidence.allCases.map(\.rawValue)
                throw BackdropError(
                    .badOption,
                    "\(DeviceSelection.given(filter, spelling: spelling)): '\(term)' is no device id, family (\(words.prefix(3).joined(separator: ", "))), year (2017, 2017+, 2014-2016) or evidence label\(Suggestion.clause(for: term, in: Device.all.map(\.id) + words))"
                )
            }
        }

        /// `2017`, `2017+` or `2014-2016` as a range of years, nil for a term that is not written so; a year outside
        /// the table's, or a range that runs backwards, is refused.
        static func years(_ term: String, in given: String) throws(BackdropError) -> ClosedRange<Int>? {
            let digits = { (text: Substring) -> Int? in
                text.count == 4 && text.allSatisfy(\.isASCII) && text.allSatisfy(\.isNumber) ? Int(text) : nil
            }
            let range: ClosedRange<Int>
            if term.hasSuffix("+"), let from = digits(term.dropLast()) {
                range = from...max(from, tableYears.upperBound)
            } else if let year = digits(Substring(term)) {
                range = year...year
            } else {
                let parts = term.split(separator: "-", omittingEmptySubsequences: false)
                guard parts.count == 2, let from = digits(parts[0]), let to = digits(parts[1]) else { return nil }
                guard from <= to else {
                    throw BackdropError(.badOption, "\(given): the years '\(term)' run backwards (write \(to)-\(from))")
                }
                range = from...to
            }
            guard range.lowerBound >= firstIPhoneYear, range.overlaps(tableYears) else {
                throw BackdropError(
                    .badOption,
                    "\(given): '\(term)' is outside the table's years (\(tableYears.lowerBound)–\(tableYears.upperBound))"
                )
            }
            return range
        }

        func matches(_ device: Device) -> Bool {
            switch self {
            case .family(let family): return device.family.rawValue == family
            case .years(let years): return years.contains(device.year)
            case .evidence(let evidence): return device.evidence == evidence
            case .id(let id): return device.id == id
            }
        }
    }

    /// `devices` in the groups a reader scans for one: by family (iPhone, iPad, iPod touch), then by the maker of
    /// the GPU (PowerVR to 2017, Apple's own from the A11), each group's devices in the order given and titled with
    /// its years, e.g. "iPhone, PowerVR GPU (2009–2016)". Empty groups are left out.
    public static func groups(_ devices: [Device]) -> [(title: String, devices: [Device])] {
        var groups: [(title: String, devices: [Device])] = []
        for family in Device.Family.allCases {
            for apple in [false, true] {
                let members = devices.filter { $0.family == family && $0.hasAppleGPU == apple }
                guard let first = members.map(\.year).min(), let last = members.map(\.year).max() else { continue }
                let years = first == last ? "\(first)" : "\(first)–\(last)"
                groups.append(("\(family.name), \(apple ? "Apple" : "PowerVR") GPU (\(years))", members))
            }
        }
        return groups
    }
}

extension Device {
    /// The product line a device belongs to, read from its id.
    public enum Family: String, Sendable, CaseIterable {
        case iphone, ipad, ipod

        /// Apple's name for the line.
        public var name: String {
            switch self {
            case .iphone: return "iPhone"
            case .ipad: return "iPad"
            case .ipod: return "iPod touch"
            }
        }
    }

    /// The device's line: its id's first word (every id of the table starts with one of the three).
    public var family: Family {
        Family.allCases.first { id.hasPrefix($0.rawValue + "-") } ?? .iphone
    }

    /// Whether the GPU is one of Apple's own (the A11 and later), not Imagination's PowerVR.
    public var hasAppleGPU: Bool { !gpu.hasPrefix("PowerVR") }
}
