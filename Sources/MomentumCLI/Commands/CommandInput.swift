import MomentumCore

/// Reading the numbers people type on the command line, with one message for what is not one.
enum CommandInput {
    /// `10` in `unit`, or `90s`, `10m`, `1.5h`.
    static func duration(_ text: String, unit: DurationText.Unit, catalog: StringCatalog) throws -> Duration {
        guard let value = DurationText.parse(text, defaultUnit: unit) else {
            let name =
                switch unit {
                case .seconds: "seconds"
                case .minutes: "minutes"
                case .hours: "hours"
                }
            throw CommandFailure(catalog.format(.errorNotANumber, ["value": text, "unit": name]))
        }
        return value
    }

    /// A whole number of `unit` (rounds, sets …).
    static func whole(_ text: String, unit: String, catalog: StringCatalog) throws -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw CommandFailure(catalog.format(.errorNotANumber, ["value": text, "unit": unit]))
        }
        return value
    }
}
