/// The one reader of the month (`YYYY-MM`) and year (`YYYY`) people and browsers name a calendar
/// by: `momentum calendar --month/--year` and `GET /api/v1/progress/calendar?month=` and
/// `year?year=` read them here.
///
/// Strict on purpose: four ASCII digits for the year (0001–9999), two for the month (01–12),
/// nothing else — no sign, no space, no control character, no `2026-1`, no `2026-13`, no
/// `0000-01`.
public enum CalendarPeriodText {
    /// The year and month of `text` (`2026-11`), or `nil` when it is not one.
    public static func month(_ text: String) -> (year: Int, month: Int)? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 7, scalars[4] == "-",
            let year = number(scalars[0..<4]), let month = number(scalars[5..<7]),
            year >= 1, (1...12).contains(month)
        else { return nil }
        return (year, month)
    }

    /// The year of `text` (`2026`), or `nil` when it is not one.
    public static func year(_ text: String) -> Int? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 4, let year = number(scalars[0..<4]), year >= 1 else { return nil }
        return year
    }

    /// `2026-11` for November 2026: how a month is named in `?month=` and in views.
    public static func monthText(year: Int, month: Int) -> String {
        let digits = String(year)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits + (month < 10 ? "-0" : "-") + "\(month)"
    }

    /// The month `offset` months after (before, when negative) `month` of `year`, or `nil` outside
    /// the years 0001–9999 that `month(_:)` reads.
    public static func month(year: Int, month: Int, offset: Int) -> (year: Int, month: Int)? {
        let index = year * 12 + (month - 1) + offset
        let shifted = (year: index / 12, month: index % 12 + 1)
        guard (1...9999).contains(shifted.year), index >= 0 else { return nil }
        return shifted
    }

    /// The number written by ASCII digits only.
    private static func number(_ digits: ArraySlice<Unicode.Scalar>) -> Int? {
        var value = 0
        for scalar in digits {
            guard ("0"..."9").contains(scalar) else { return nil }
            value = value * 10 + Int(scalar.value - 48)
        }
        return value
    }
}
