import Foundation

/// The time zones a person chooses from, grouped by region (Europe, America, Asia …) and named
/// as people read them: `Europe/Berlin` is "Berlin" in Europe, `America/Argentina/Buenos_Aires`
/// is "Argentina – Buenos Aires" in America.
///
/// ```swift
/// let regions = TimeZoneRegions(identifiers: ["Europe/Berlin", "Asia/Tokyo", "UTC"])
/// regions.regions.map(\.id)  // ["Asia", "Europe", "Other"]
/// ```
public struct TimeZoneRegions: Sendable, Equatable {
    /// One region's zones, sorted by name.
    public struct Region: Sendable, Equatable {
        /// The identifiers' first part (`Europe`), or ``otherRegion`` for zones without one.
        public var id: String
        public var zones: [Zone]
    }

    /// A zone: its IANA identifier and its name within the region.
    public struct Zone: Sendable, Equatable {
        public var id: String
        public var name: String
    }

    /// The region of zones whose identifiers name none (`UTC`, `GMT`) or a group of offsets (`Etc/GMT+1`).
    public static let otherRegion = "Other"

    /// The regions of the time zone database (its other prefixes, such as `US/` or `Etc/`, are
    /// old aliases or offsets, offered under ``otherRegion``).
    public static let placeRegions: Set<String> = [
        "Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific",
    ]

    /// The regions that have zones, in the order they are offered; ``otherRegion`` last.
    public private(set) var regions: [Region]

    /// `identifiers` grouped by region; an identifier Foundation cannot open is left out.
    public init(identifiers: [String]) {
        var zonesByRegion: [String: [Zone]] = [:]
        for identifier in Set(identifiers) where TimeZone(identifier: identifier) != nil {
            let parts = identifier.split(separator: "/").map(String.init)
            let isPlace = parts.count > 1 && Self.placeRegions.contains(parts[0])
            let region = isPlace ? parts[0] : Self.otherRegion
            let nameParts = isPlace ? Array(parts.dropFirst()) : [identifier]
            let name = nameParts.map { $0.replacingOccurrences(of: "_", with: " ") }.joined(separator: " – ")
            zonesByRegion[region, default: []].append(Zone(id: identifier, name: name))
        }
        regions = zonesByRegion.map { region, zones in
            Region(id: region, zones: zones.sorted { ($0.name, $0.id) < ($1.name, $1.id) })
        }
        .sorted { lhs, rhs in
            (lhs.id == Self.otherRegion ? 1 : 0, lhs.id) < (rhs.id == Self.otherRegion ? 1 : 0, rhs.id)
        }
    }

    /// Every zone Foundation knows.
    public static var known: TimeZoneRegions { TimeZoneRegions(identifiers: TimeZone.knownTimeZoneIdentifiers) }

    /// The region `id` of the zone `identifier`, if it is among these regions.
    public func region(of identifier: String) -> String? {
        regions.first { $0.zones.contains { $0.id == identifier } }?.id
    }

    /// The catalog key of a region's name: `timeZone.region.Europe`; unknown regions keep their id.
    public static func nameKey(of region: String) -> StringKey { StringKey("timeZone.region.\(region)") }
}

/// The time zones as `GET /api/v1/time-zones` answers them: the regions with their names in one
/// language, and the zone "automatic" follows (the server's own).
public struct TimeZoneListView: Codable, Sendable, Equatable {
    /// The zone the server runs in: what "automatic" means.
    public var systemZone: String
    /// "Automatic (Europe/Berlin, the server's time zone)" in the asked language.
    public var automaticText: String
    public var regions: [Region]

    public struct Region: Codable, Sendable, Equatable {
        public var id: String
        /// The region's name in the asked language ("Europa").
        public var name: String
        public var zones: [Zone]
    }

    public struct Zone: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
    }

    public init(_ regions: TimeZoneRegions, systemZone: TimeZone, language: Language) {
        let catalog = StringCatalog.shared(for: language)
        self.systemZone = systemZone.identifier
        automaticText = catalog.format(
            .settingsTimeZoneAutomatic, ["zone": systemZone.identifier.replacingOccurrences(of: "_", with: " ")])
        self.regions = regions.regions.map { region in
            let key = TimeZoneRegions.nameKey(of: region.id)
            let name = catalog.strings[key.rawValue] ?? region.id
            return Region(id: region.id, name: name, zones: region.zones.map { Zone(id: $0.id, name: $0.name) })
        }
    }
}
