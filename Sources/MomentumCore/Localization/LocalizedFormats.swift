import Foundation

/// Dates and numbers as a language writes them: every front end formats through these, so the
/// terminal and the server never disagree about a language's locale, and a message never takes
/// the machine's own locale.
extension Language {
    /// `value` with this language's decimal mark and grouping ("12.5", "12,5"), at most
    /// `fractionDigits` decimals, none when whole.
    public func number(_ value: Double, fractionDigits: Int = 2) -> String {
        value.formatted(.number.locale(locale).precision(.fractionLength(0...fractionDigits)))
    }

    /// A formatter for `template` (a `DateFormatter` template such as `EEE d MMM HH:mm`: the
    /// fields, which the locale orders and punctuates) in `timeZone`.
    public func dateFormatter(template: String, timeZone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = timeZone
        formatter.setLocalizedDateFormatFromTemplate(template)
        return formatter
    }

    /// A formatter for a fixed `format` such as `HH:mm` in `timeZone`.
    public func dateFormatter(format: String, timeZone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = timeZone
        formatter.dateFormat = format
        return formatter
    }

    /// The stand-alone name of a month (1 … 12), e.g. "November"; the number when out of range.
    public func monthName(_ month: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = locale
        let names: [String] = formatter.standaloneMonthSymbols
        return names.indices.contains(month - 1) ? names[month - 1] : "\(month)"
    }
}
