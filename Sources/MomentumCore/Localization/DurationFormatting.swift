/// How durations read to a person: on a clock face (`09:59`, `1:05:00`) and in words (`3 min 20 s`).
public enum DurationFormatting {
    /// `mm:ss`, or `h:mm:ss` from an hour up. Rounds up, so a countdown shows `00:01` until it is done.
    public static func clock(_ duration: Duration, roundingUp: Bool = true) -> String {
        let milliseconds = max(0, duration.wholeMilliseconds)
        let seconds = roundingUp ? (milliseconds + 999) / 1000 : milliseconds / 1000
        let hours = seconds / 3600
        let minutes = (seconds % 3600) / 60
        let rest = seconds % 60
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(two(minutes)):\(two(rest))"
    }

    /// A short spoken form in the catalog's language, e.g. `12 min`, `1 h 5 min`, `45 s`. Nothing
    /// at all reads `0 s`, or `0 min` with `zeroInMinutes` (a day's total: "Today: 0 min").
    public static func words(_ duration: Duration, language: Language, zeroInMinutes: Bool = false) -> String {
        let seconds = max(0, Int64(duration.inSeconds.rounded()))
        let hours = seconds / 3600
        let minutes = (seconds % 3600) / 60
        let rest = seconds % 60
        let units = language == .german ? ("Std.", "Min.", "Sek.") : ("h", "min", "s")
        var parts: [String] = []
        if hours > 0 { parts.append("\(hours) \(units.0)") }
        if minutes > 0 { parts.append("\(minutes) \(units.1)") }
        if parts.isEmpty && rest == 0 && zeroInMinutes { return "0 \(units.1)" }
        if rest > 0 || parts.isEmpty { parts.append("\(rest) \(units.2)") }
        return parts.joined(separator: " ")
    }
}
