import Testing

@testable import MomentumCore

@Suite("QSO virtual stations: seeded, realistic, and always keyable")
struct QSOVirtualStationTests {
    static func stations(seeds: Range<UInt64>) -> [VirtualStation] {
        seeds.map { seed in
            var generator = SeededRandomNumberGenerator(seed: seed)
            return VirtualStation.random(using: &generator)
        }
    }

    @Test func theSameSeedDrawsTheSameStationsInTheSameOrder() {
        var first = SeededRandomNumberGenerator(seed: 2024)
        var second = SeededRandomNumberGenerator(seed: 2024)
        let one = (0..<50).map { _ in VirtualStation.random(using: &first) }
        let other = (0..<50).map { _ in VirtualStation.random(using: &second) }
        #expect(one == other)
        #expect(Set(one.map(\.callSign)).count > 45)
    }

    @Test func aSeedAlwaysDrawsThisStation() throws {
        // Pins the generator: a changed draw order would silently change every replayed contact.
        var generator = SeededRandomNumberGenerator(seed: 1)
        let station = VirtualStation.random(using: &generator)
        let expected = VirtualStation(
            callSign: try CallSign("NI9LTW"), name: "RICK", location: "MADISON WI", rig: "TS590", power: 100,
            antenna: "EFHW", weather: "WINDY", temperature: 2, report: try #require(SignalReport(text: "589")),
            serialNumber: 167)
        #expect(station == expected)
    }

    @Test func callSignsHaveThreeToSevenLettersAndDigitsWithAtLeastOneOfEachOverThousandsOfSeeds() throws {
        for station in Self.stations(seeds: 0..<5000) {
            let call = station.callSign.text
            #expect((3...7).contains(call.count), "\(call)")
            let onlyLettersAndDigits = call.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber) }
            #expect(onlyLettersAndDigits, "\(call)")
            let hasLetter = call.contains(where: \.isLetter)
            let hasDigit = call.contains(where: \.isNumber)
            #expect(hasLetter && hasDigit, "\(call)")
            #expect(try CallSign(call) == station.callSign)
        }
    }

    @Test func mostStationsAreFromTheUnitedStatesSomeFromEuropeAndCanada() {
        let calls = Self.stations(seeds: 0..<5000).map(\.callSign.text)
        let usPrefix = calls.filter { ["K", "N", "W", "A"].contains($0.first) }.count
        let canada = calls.filter { $0.hasPrefix("VE") || $0.hasPrefix("VA") }.count
        let europe = calls.count - usPrefix - canada
        #expect((3300...3700).contains(usPrefix))
        #expect((450...750).contains(canada))
        #expect((700...1100).contains(europe))
    }

    @Test func aUnitedStatesStationLivesInItsCallDistrict() {
        let districts: [Character: Set<String>] = [
            "1": ["MA", "CT", "ME", "VT"], "6": ["CA"], "4": ["GA", "FL", "TN", "NC"], "0": ["CO", "NE", "MN", "IA"],
        ]
        for station in Self.stations(seeds: 0..<2000) {
            let call = station.callSign.text
            guard ["K", "N", "W"].contains(call.first), let digit = call.first(where: \.isNumber),
                let states = districts[digit], let state = station.location.split(separator: " ").last
            else { continue }
            #expect(states.contains(String(state)), "\(call) in \(station.location)")
        }
    }

    @Test func everyStationTextCanBeKeyedInMorse() throws {
        for station in Self.stations(seeds: 0..<2000) {
            let texts = [
                station.callSign.text, station.name, station.location, station.rigText, station.weatherText,
                station.report.text, station.serialNumberText,
            ]
            for text in texts {
                #expect(try MorseText(text).skipped.isEmpty, "\(text)")
                #expect(!text.isEmpty)
            }
            #expect((1...999).contains(station.serialNumber))
            #expect((-10...34).contains(station.temperature))
            #expect(station.power > 0)
        }
    }

    @Test func reportsAreMostly599AndNeverOutOfRange() {
        let reports = Self.stations(seeds: 0..<2000).map(\.report.text)
        let share599 = Double(reports.filter { $0 == "599" }.count) / Double(reports.count)
        #expect((0.3...0.45).contains(share599))
        #expect(Set(reports).count >= 6)
    }

    @Test(arguments: [(5, "005"), (42, "042"), (999, "999"), (1234, "1234")])
    func serialNumbersAreSentWithAtLeastThreeDigits(_ number: Int, _ text: String) throws {
        var station = try #require(Self.stations(seeds: 0..<1).first)
        station.serialNumber = number
        #expect(station.serialNumberText == text)
    }

    @Test func aStationNeverHasTheCallSignItMustAvoid() throws {
        // Every seed's first draw, made the call to avoid: the station must draw another.
        var redrawn: Set<CallSign> = []
        for seed in UInt64(0)..<300 {
            var probe = SeededRandomNumberGenerator(seed: seed)
            let avoided = VirtualStation.random(using: &probe).callSign
            var generator = SeededRandomNumberGenerator(seed: seed)
            let station = VirtualStation.random(avoiding: avoided, using: &generator)
            #expect(station.callSign != avoided)
            redrawn.insert(station.callSign)
        }
        // Drawn again, not replaced by one fixed call.
        #expect(redrawn.count > 290)
    }
}
