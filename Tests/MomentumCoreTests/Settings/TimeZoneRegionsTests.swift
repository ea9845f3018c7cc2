import Foundation
import Testing

@testable import MomentumCore

@Suite("Time zones by region")
struct TimeZoneRegionsTests {
    @Test func zonesGroupByTheirRegionAndAreNamedWithoutIt() {
        let regions = TimeZoneRegions(identifiers: [
            "Europe/Berlin", "Europe/Amsterdam", "America/Argentina/Buenos_Aires", "Asia/Tokyo", "America/New_York",
        ])
        #expect(regions.regions.map(\.id) == ["America", "Asia", "Europe"])
        #expect(regions.regions[0].zones.map(\.name) == ["Argentina – Buenos Aires", "New York"])
        #expect(regions.regions[2].zones.map(\.id) == ["Europe/Amsterdam", "Europe/Berlin"])
        #expect(regions.region(of: "Europe/Berlin") == "Europe")
    }

    @Test func offsetsAndOldAliasesGoUnderOtherLastAndUnknownZonesAreLeftOut() {
        let regions = TimeZoneRegions(identifiers: ["UTC", "Etc/GMT+1", "US/Eastern", "Europe/Berlin", "Mars/Olympus"])
        #expect(regions.regions.map(\.id) == ["Europe", TimeZoneRegions.otherRegion])
        #expect(regions.regions.last?.zones.map(\.id) == ["Etc/GMT+1", "US/Eastern", "UTC"])
        #expect(regions.region(of: "Mars/Olympus") == nil)
    }

    @Test func everyKnownZoneIsOfferedOnceAndBerlinIsInEurope() {
        let regions = TimeZoneRegions.known
        let offered = regions.regions.flatMap(\.zones).map(\.id)
        #expect(Set(offered) == Set(TimeZone.knownTimeZoneIdentifiers.filter { TimeZone(identifier: $0) != nil }))
        #expect(offered.count == Set(offered).count)
        #expect(regions.region(of: "Europe/Berlin") == "Europe")
        #expect(regions.regions.contains { $0.id == "America" })
    }

    @Test func theViewNamesRegionsInTheLanguageAndSaysWhatAutomaticFollows() throws {
        let regions = TimeZoneRegions(identifiers: ["Europe/Berlin", "Indian/Maldives", "UTC"])
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        let german = TimeZoneListView(regions, systemZone: zone, language: .german)
        #expect(german.regions.map(\.name) == ["Europa", "Indischer Ozean", "Weitere"])
        #expect(german.systemZone == "America/New_York")
        #expect(german.automaticText == "Automatisch (America/New York, die Zeitzone dieses Servers)")
        let english = TimeZoneListView(regions, systemZone: zone, language: .english)
        #expect(english.regions.map(\.name) == ["Europe", "Indian Ocean", "Other"])
    }
}
