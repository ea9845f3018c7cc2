import Foundation

/// Instants as exchange files write them: ISO 8601 with milliseconds and the UTC offset,
/// `2027-01-15T09:00:00.000+01:00` (or `…Z` in UTC).
///
/// Written by hand rather than with `ISO8601DateFormatter` so that a date that does not exist
/// (`2027-02-30`) is refused instead of rolled over, and so reading and writing are exact to the
/// millisecond.
public enum InstantText {
    /// `date` in `timeZone`'s local time with its offset at that instant.
    public static func format(_ date: Date, timeZone: TimeZone = TimeZone(secondsFromGMT: 0) ?? .current) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let offsetSeconds = timeZone.secondsFromGMT(for: date)
        let localMilliseconds = milliseconds + Int64(offsetSeconds) * 1000
        let dayNumber = Int(floorDivide(localMilliseconds, 86_400_000))
        let millisecondOfDay = Int(localMilliseconds - Int64(dayNumber) * 86_400_000)
        let day = Day(number: dayNumber)
        let seconds = millisecondOfDay / 1000
        var text = day.description + "T"
        text += twoDigits(seconds / 3600) + ":" + twoDigits(seconds / 60 % 60) + ":" + twoDigits(seconds % 60)
        text += "." + String(format: "%03d", millisecondOfDay % 1000)
        if offsetSeconds == 0 { return text + "Z" }
        let sign = offsetSeconds < 0 ? "-" : "+"
        let offsetMinutes = abs(offsetSeconds) / 60
        return text + sign + twoDigits(offsetMinutes / 60) + ":" + twoDigits(offsetMinutes % 60)
    }

    /// Reads `YYYY-MM-DDTHH:MM[:SS[.fff]](Z|±HH:MM)`; a space may stand for the `T`.
    /// Without an offset, `assumedTimeZone` decides (and without one of those, the text is refused).
    public static func parse(_ text: String, assumedTimeZone: TimeZone? = nil) -> Date? {
        let characters = Array(text.trimmingCharacters(in: .whitespaces))
        guard characters.count >= 16, characters[10] == "T" || characters[10] == " " else { return nil }
        // try?: a text whose first ten characters are no date is not an instant: `nil`, as documented.
        guard let day = try? Day(parsing: String(characters[0..<10])) else { return nil }
        var index = 11
        func number(_ digits: Int) -> Int? {
            guard index + digits <= characters.count else { return nil }
            let slice = characters[index..<index + digits]
            guard slice.allSatisfy(\.isASCIIDigit) else { return nil }
            index += digits
            return Int(String(slice))
        }
        func take(_ character: Character) -> Bool {
            guard index < characters.count, characters[index] == character else { return false }
            index += 1
            return true
        }
        guard let hour = number(2), take(":"), let minute = number(2), hour < 24, minute < 60 else { return nil }
        var second = 0
        var millisecond = 0
        if take(":") {
            guard let value = number(2), value < 60 else { return nil }
            second = value
            if take(".") {
                let start = index
                while index < characters.count, characters[index].isASCIIDigit { index += 1 }
                guard index > start, index - start <= 9 else { return nil }
                let fraction = String(characters[start..<index]).padding(toLength: 9, withPad: "0", startingAt: 0)
                guard let nanoseconds = Int(fraction) else { return nil }
                millisecond = Int((Double(nanoseconds) / 1_000_000).rounded())
            }
        }
        let localMilliseconds =
            Int64(day.number) * 86_400_000 + Int64(hour * 3600 + minute * 60 + second) * 1000 + Int64(millisecond)
        if index == characters.count {
            guard let zone = assumedTimeZone else { return nil }
            return date(localMilliseconds: localMilliseconds, in: zone)
        }
        var offsetSeconds = 0
        if take("Z") || take("z") {
            offsetSeconds = 0
        } else {
            guard index < characters.count, characters[index] == "+" || characters[index] == "-" else { return nil }
            let sign = characters[index] == "-" ? -1 : 1
            index += 1
            guard let hours = number(2), take(":"), let minutes = number(2), hours <= 18, minutes < 60 else {
                return nil
            }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        }
        guard index == characters.count else { return nil }
        return Date(timeIntervalSince1970: Double(localMilliseconds - Int64(offsetSeconds) * 1000) / 1000)
    }

    /// The instant with this local wall-clock time in `zone` (the earlier one when the clock
    /// repeats an hour; a time skipped by a spring change moves forward by the gap).
    static func date(localMilliseconds: Int64, in zone: TimeZone) -> Date? {
        let dayNumber = Int(floorDivide(localMilliseconds, 86_400_000))
        let millisecondOfDay = Int(localMilliseconds - Int64(dayNumber) * 86_400_000)
        let (year, month, day) = Day(number: dayNumber).components
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(
            year: year, month: month, day: day, hour: millisecondOfDay / 3_600_000,
            minute: millisecondOfDay / 60_000 % 60, second: millisecondOfDay / 1000 % 60)
        return calendar.date(from: components)?.addingTimeInterval(Double(millisecondOfDay % 1000) / 1000)
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
