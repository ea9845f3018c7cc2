/// Realistic stations drawn from a random number generator: mostly from the United States, some
/// from Canada and Europe, with a name, town, rig and weather that fit the call sign.
extension VirtualStation {
    /// A station drawn from `generator`, never with the call sign `callSign`.
    ///
    /// The same generator state gives the same station on every run and platform.
    public static func random(
        avoiding callSign: CallSign? = nil, using generator: inout some RandomNumberGenerator
    ) -> VirtualStation {
        var drawn = StationOrigin.random(using: &generator)
        // A clash needs the same region, format, district and suffix, so one redraw nearly always
        // ends it; the bound only guards against a generator that repeats itself.
        for _ in 0..<100 where drawn.callSign == callSign { drawn = StationOrigin.random(using: &generator) }
        if drawn.callSign == callSign { drawn = .fallback(avoiding: drawn.callSign) }
        let rig = rigs.randomElement(using: &generator) ?? rigs[0]
        let temperature = Int.random(in: -10...34, using: &generator)
        let weathers = temperature <= 1 ? coldWeathers : mildWeathers
        return VirtualStation(
            callSign: drawn.callSign,
            name: drawn.names.randomElement(using: &generator) ?? "OP",
            location: drawn.locations.randomElement(using: &generator) ?? "",
            rig: rig.name,
            power: rig.powers.randomElement(using: &generator) ?? 100,
            antenna: antennas.randomElement(using: &generator) ?? antennas[0],
            weather: weathers.randomElement(using: &generator) ?? "CLEAR",
            temperature: temperature,
            report: reports.randomElement(using: &generator) ?? reports[0],
            serialNumber: Int.random(in: 1...999, using: &generator))
    }

    /// Common reports, the usual 599 most often.
    static let reports: [SignalReport] = ["599", "599", "599", "599", "589", "579", "579", "569", "559", "449", "339"]
        .compactMap { SignalReport(text: $0) }

    static let rigs: [(name: String, powers: [Int])] = [
        ("IC7300", [100, 50]), ("IC7610", [100]), ("IC705", [10, 5]), ("FT991A", [100, 50]), ("FTDX10", [100]),
        ("FT710", [100]), ("TS590", [100]), ("TS890", [100]), ("K3", [100, 500]), ("K4", [100, 1000]),
        ("KX3", [10, 5]), ("KX2", [10, 5]), ("QCX", [5]),
    ]

    static let antennas = ["DIPOLE", "VERTICAL", "YAGI", "EFHW", "LOOP", "G5RV", "HEXBEAM", "WINDOM"]
    static let mildWeathers = ["SUNNY", "CLOUDY", "RAIN", "WINDY", "FOG", "CLEAR", "OVERCAST"]
    static let coldWeathers = ["SNOW", "CLEAR", "CLOUDY", "FOG"]
}

/// Where a drawn call sign comes from, with the names and towns that go with it.
private struct StationOrigin {
    let callSign: CallSign
    let names: [String]
    let locations: [String]

    /// About 70 % United States, 12 % Canada, 18 % Europe.
    static func random(using generator: inout some RandomNumberGenerator) -> StationOrigin {
        let draw = Int.random(in: 0..<100, using: &generator)
        if draw < 70 { return unitedStates(using: &generator) }
        if draw < 82 { return canada(using: &generator) }
        return europe(using: &generator)
    }

    /// FCC sequential formats: 1×2 (`W1AW`), 1×3 (`K1ABC`), 2×1 (`KA1A`), 2×2 (`AA1AB`),
    /// 2×3 (`KB1ABC`); the digit is the call district, which picks the town.
    private static func unitedStates(using generator: inout some RandomNumberGenerator) -> StationOrigin {
        let oneLetter = ["K", "N", "W"]
        let twoLetter = ["K", "N", "W"].flatMap { first in letters.map { "\(first)\($0)" } }
        let aPrefixes = "ABCDEFGHIJKL".map { "A\($0)" }
        let format = Int.random(in: 0..<100, using: &generator)
        let (prefixes, suffixLength): ([String], Int) =
            switch format {
            case ..<10: (oneLetter, 2)
            case ..<45: (oneLetter, 3)
            case ..<55: (twoLetter + aPrefixes, 1)
            case ..<70: (twoLetter + aPrefixes, 2)
            default: (twoLetter, 3)
            }
        let district = Int.random(in: 0...9, using: &generator)
        return StationOrigin(
            prefix: prefixes.randomElement(using: &generator) ?? "K", digit: district,
            suffixLength: suffixLength, names: northAmericanNames, locations: usDistricts[district],
            using: &generator)
    }

    /// `VE1`–`VE9` and `VA1`–`VA7` with a two- or three-letter suffix; the digit is the province.
    private static func canada(using generator: inout some RandomNumberGenerator) -> StationOrigin {
        let area = canadianAreas.randomElement(using: &generator) ?? canadianAreas[0]
        let prefix = area.digit <= 7 ? (["VE", "VA"].randomElement(using: &generator) ?? "VE") : "VE"
        return StationOrigin(
            prefix: prefix, digit: area.digit, suffixLength: Int.random(in: 2...3, using: &generator),
            names: northAmericanNames, locations: area.locations, using: &generator)
    }

    private static func europe(using generator: inout some RandomNumberGenerator) -> StationOrigin {
        let country = europeanCountries.randomElement(using: &generator) ?? europeanCountries[0]
        return StationOrigin(
            prefix: country.prefixes.randomElement(using: &generator) ?? "DL",
            digit: country.digits.randomElement(using: &generator) ?? 1,
            suffixLength: Int.random(in: 2...3, using: &generator), names: country.names,
            locations: country.locations, using: &generator)
    }

    private init(
        prefix: String, digit: Int, suffixLength: Int, names: [String], locations: [String],
        using generator: inout some RandomNumberGenerator
    ) {
        let suffix = (0..<suffixLength).map { _ in Self.letters.randomElement(using: &generator) ?? "A" }
        // Prefix 1–3 letters, one digit, suffix 1–3 letters: 3–7 characters with both kinds.
        self.callSign = CallSign(checked: prefix + String(digit) + String(suffix))
        self.names = names
        self.locations = locations
    }

    private init(callSign: CallSign, names: [String], locations: [String]) {
        self.callSign = callSign
        self.names = names
        self.locations = locations
    }

    /// The ARRL's W1AW, or K1ABC when the person is W1AW.
    static func fallback(avoiding callSign: CallSign) -> StationOrigin {
        StationOrigin(
            callSign: CallSign(checked: callSign.text == "W1AW" ? "K1ABC" : "W1AW"), names: northAmericanNames,
            locations: usDistricts[1])
    }

    private static let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")

    private static let northAmericanNames = [
        "BOB", "JIM", "JOHN", "TOM", "BILL", "MIKE", "DAVE", "STEVE", "ANN", "MARY", "SUE", "LINDA", "JOE",
        "PETE", "KEN", "RON", "DON", "GARY", "AL", "ED", "RICK", "CHUCK", "JAN", "KAREN", "CAROL", "PAUL",
    ]

    /// Towns by US call district 0–9.
    private static let usDistricts: [[String]] = [
        ["DENVER CO", "OMAHA NE", "ST PAUL MN", "DES MOINES IA"],
        ["BOSTON MA", "HARTFORD CT", "PORTLAND ME", "BURLINGTON VT"],
        ["ALBANY NY", "TRENTON NJ", "BUFFALO NY"],
        ["PITTSBURGH PA", "BALTIMORE MD", "DOVER DE"],
        ["ATLANTA GA", "MIAMI FL", "NASHVILLE TN", "RALEIGH NC"],
        ["AUSTIN TX", "DALLAS TX", "TULSA OK", "JACKSON MS"],
        ["SAN DIEGO CA", "FRESNO CA", "SACRAMENTO CA"],
        ["SEATTLE WA", "PHOENIX AZ", "BOISE ID", "RENO NV"],
        ["DETROIT MI", "COLUMBUS OH", "CHARLESTON WV"],
        ["CHICAGO IL", "MADISON WI", "INDIANAPOLIS IN"],
    ]

    private static let canadianAreas: [(digit: Int, locations: [String])] = [
        (1, ["HALIFAX NS"]), (2, ["MONTREAL QC", "QUEBEC QC"]), (3, ["TORONTO ON", "OTTAWA ON"]),
        (4, ["WINNIPEG MB"]), (5, ["REGINA SK", "SASKATOON SK"]), (6, ["CALGARY AB", "EDMONTON AB"]),
        (7, ["VANCOUVER BC", "VICTORIA BC"]), (9, ["MONCTON NB", "FREDERICTON NB"]),
    ]

    private static let europeanCountries: [(prefixes: [String], digits: [Int], names: [String], locations: [String])] =
        [
            (["G", "M"], [0, 3, 4, 7], ["JOHN", "DAVID", "IAN", "NIGEL", "SARAH"], ["LONDON", "LEEDS", "BRISTOL"]),
            (
                ["DL", "DK", "DJ"], Array(1...9), ["HANS", "KLAUS", "UWE", "PETER", "ANKE"],
                ["BERLIN", "HAMBURG", "MUNICH"]
            ),
            (["F"], [4, 5, 6, 8], ["JEAN", "PIERRE", "MICHEL", "ALAIN"], ["PARIS", "LYON", "NANTES"]),
            (["I", "IK", "IZ"], Array(0...9), ["MARCO", "LUCA", "PAOLO", "GIULIA"], ["ROME", "MILAN", "TURIN"]),
            (["EA"], Array(1...9), ["JUAN", "JOSE", "CARLOS", "ANA"], ["MADRID", "VALENCIA", "SEVILLE"]),
            (["PA", "PD"], Array(0...9), ["JAN", "PIET", "KEES", "ANNEKE"], ["AMSTERDAM", "UTRECHT"]),
            (["OH"], Array(1...9), ["JUHA", "MATTI", "PEKKA"], ["HELSINKI", "TAMPERE"]),
            (["SM", "SA"], Array(0...7), ["LARS", "ANDERS", "NILS", "KARIN"], ["STOCKHOLM", "GOTHENBURG"]),
            (["HB"], [9], ["URS", "BEAT", "THOMAS"], ["ZURICH", "BERN"]),
            (["OK"], [1, 2], ["JIRI", "PAVEL", "PETR"], ["PRAGUE", "BRNO"]),
            (["SP"], Array(1...9), ["PIOTR", "TOMASZ", "MAREK"], ["KRAKOW", "WARSAW"]),
        ]
}
