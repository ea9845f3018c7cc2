import MomentumCore

/// The argument parser's usage errors in the person's words (issue 38): its English sentences
/// ("Unexpected argument 'medtate'", "Value to be set with flag '--all' had already been set with
/// flag '--year'") are recognised by their shape and said again from the catalog, in the
/// language `--lang` or the environment asks for. A shape not known here is shown as the parser
/// said it.
enum UsageErrors {
    /// The language of a message given before the command line is understood: `--lang` if it
    /// is anywhere among the arguments and names one, else the environment's.
    static func catalog(arguments: [String], environment: [String: String]) -> StringCatalog {
        let chosen = value(of: "--lang", in: arguments).flatMap { Language(rawValue: $0.lowercased()) }
        return .shared(for: chosen ?? Language.preferred(in: environment))
    }

    /// The value given to `option` (`--data DIR` or `--data=DIR`; the last one counts) in a
    /// command line the parser has not read (a refused one, or the words of a Tab completion).
    static func value(of option: String, in arguments: [String]) -> String? {
        var found: String?
        for (index, argument) in arguments.enumerated() {
            if argument == option, index + 1 < arguments.count { found = arguments[index + 1] }
            if argument.hasPrefix(option + "=") { found = String(argument.dropFirst(option.count + 1)) }
        }
        return found
    }

    static func message(_ parser: String, catalog: StringCatalog) -> String {
        let text = parser.replacingOccurrences(of: "Error: ", with: "")
        if let match = text.wholeMatch(of: /Unexpected argument '(.+)'/) {
            return catalog.format(.errorUsageUnexpectedArgument, ["value": String(match.1)])
        }
        if let match = text.firstMatch(of: /^Unknown option '(.+?)'/) {
            return catalog.format(.errorUsageUnknownOption, ["option": String(match.1)])
        }
        if let match = text.wholeMatch(of: /Missing expected argument '(--?[^ ']+)( <.*>)?'/) {
            return catalog.format(.errorUsageMissingOption, ["option": String(match.1)])
        }
        if let match = text.wholeMatch(of: /Missing expected argument '<?(.+?)>?'/) {
            return catalog.format(.errorUsageMissingArgument, ["name": String(match.1)])
        }
        if let match = text.wholeMatch(of: /Missing value for '(\S+)( <.*>)?'/) {
            return catalog.format(.errorUsageMissingValue, ["option": String(match.1)])
        }
        if let match = text.wholeMatch(of: /Value to be set with flag '(.+)' had already been set with flag '(.+)'/) {
            return catalog.format(.errorUsageConflictingFlags, ["first": String(match.2), "second": String(match.1)])
        }
        if let match = text.firstMatch(of: /^The value '(.*)' is invalid for '(--?[^ ']+)( <[^']*>)?'/) {
            let value = String(match.1)
            // An option that takes any word (`--snr`, which may be negative) took the next option
            // as its value: the value was left out.
            if value.hasPrefix("-"), Double(value) == nil {
                return catalog.format(.errorUsageValueIsOption, ["option": String(match.2), "value": value])
            }
            return catalog.format(.errorUsageInvalidValue, ["value": value, "name": String(match.2)])
        }
        if let match = text.firstMatch(of: /^The value '(.*)' is invalid for '<?(.+?)>?'/) {
            return catalog.format(.errorUsageInvalidValue, ["value": String(match.1), "name": String(match.2)])
        }
        return text
    }
}
