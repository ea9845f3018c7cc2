import MomentumCore

/// Reading the numbers people type on the command line, with one message for what is not one.
enum CommandInput {
    /// What a number counts, named in the person's language in "“x” is not a number of …".
    enum Unit {
        case seconds, minutes, hours, rounds, sets, hertz

        var key: StringKey {
            switch self {
            case .seconds: .inputUnitSeconds
            case .minutes: .inputUnitMinutes
            case .hours: .inputUnitHours
            case .rounds: .inputUnitRounds
            case .sets: .inputUnitSets
            case .hertz: .inputUnitHertz
            }
        }
    }

    /// `10` in `unit`, or `90s`, `10m`, `1.5h`.
    static func duration(_ text: String, unit: DurationText.Unit, catalog: StringCatalog) throws -> Duration {
        guard let value = DurationText.parse(text, defaultUnit: unit) else {
            let name: Unit =
                switch unit {
                case .seconds: .seconds
                case .minutes: .minutes
                case .hours: .hours
                }
            throw notANumber(text, name, catalog: catalog)
        }
        return value
    }

    /// A whole number of `unit` (rounds, sets …). One too large to hold is as good as any number
    /// above the command's range, which then names that range.
    static func whole(_ text: String, unit: Unit, catalog: StringCatalog) throws -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let value = Int(trimmed) { return value }
        guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw notANumber(text, unit, catalog: catalog)
        }
        return Int.max
    }

    static func notANumber(_ text: String, _ unit: Unit, catalog: StringCatalog) -> CommandFailure {
        CommandFailure(catalog.format(.errorNotANumber, ["value": text, "unit": catalog[unit.key]]))
    }
}
