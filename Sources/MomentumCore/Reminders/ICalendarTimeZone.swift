import Foundation

/// A VTIMEZONE (RFC 5545 §3.6.5) for a Foundation `TimeZone`, covering a span of instants.
///
/// Each observance is written out once, with the real offsets before and after it, rather than as
/// a rule (`RRULE`): Foundation knows the transitions, not the rules behind them, and a feed only
/// needs the few days it plans. The first observance is the one in effect at the span's start;
/// a zone without transitions near the span (Asia/Tokyo) gets a single STANDARD observance.
///
/// ```swift
/// ICalendarTimeZone(zone: berlin, covering: start...end).add(to: &lines)
/// // BEGIN:VTIMEZONE / TZID:Europe/Berlin / BEGIN:STANDARD / DTSTART:20261025T030000 / …
/// ```
struct ICalendarTimeZone: Sendable {
    /// One switch of the zone's offset.
    struct Observance: Sendable, Equatable {
        var isDaylight: Bool
        /// The wall-clock time of the switch, in the offset before it.
        var start: String
        var offsetFrom: Int
        var offsetTo: Int
    }

    /// How far before the span's start to look for the observance in effect: a year holds every
    /// transition of a zone that has daylight saving time.
    static let lookBehind: TimeInterval = 366 * 86_400
    /// A guard against a zone reporting transitions without end.
    static let maximumTransitions = 64
    /// The onset of an observance older than anything in the span (RFC 5545 examples use 1970).
    static let timelessStart = "19700101T000000"

    let zone: TimeZone
    let observances: [Observance]

    init(zone: TimeZone, covering span: ClosedRange<Date>) {
        self.zone = zone
        var transitions: [Date] = []
        var cursor = span.lowerBound.addingTimeInterval(-Self.lookBehind)
        while transitions.count < Self.maximumTransitions,
            let next = zone.nextDaylightSavingTimeTransition(after: cursor), next <= span.upperBound, next > cursor
        {
            transitions.append(next)
            cursor = next
        }
        // Transitions before the span matter only for the last of them, the one in effect at its start.
        let inEffect = transitions.lastIndex { $0 <= span.lowerBound }
        let relevant = inEffect.map { Array(transitions[$0...]) } ?? transitions
        var observances = relevant.map { transition in
            let before = zone.secondsFromGMT(for: transition.addingTimeInterval(-1))
            return Observance(
                isDaylight: zone.isDaylightSavingTime(for: transition),
                start: ICalendarFormat.local(transition, in: TimeZone(secondsFromGMT: before) ?? .gmt),
                offsetFrom: before, offsetTo: zone.secondsFromGMT(for: transition))
        }
        if inEffect == nil {
            let offset = zone.secondsFromGMT(for: span.lowerBound)
            observances.insert(
                Observance(
                    isDaylight: zone.isDaylightSavingTime(for: span.lowerBound), start: Self.timelessStart,
                    offsetFrom: offset, offsetTo: offset),
                at: 0)
        }
        self.observances = observances
    }

    /// The VTIMEZONE's lines.
    func add(to lines: inout ICalendarLines) {
        lines.add("BEGIN", "VTIMEZONE")
        lines.add("TZID", zone.identifier)
        for observance in observances {
            let name = observance.isDaylight ? "DAYLIGHT" : "STANDARD"
            lines.add("BEGIN", name)
            lines.add("DTSTART", observance.start)
            lines.add("TZOFFSETFROM", ICalendarFormat.offset(seconds: observance.offsetFrom))
            lines.add("TZOFFSETTO", ICalendarFormat.offset(seconds: observance.offsetTo))
            lines.add("END", name)
        }
        lines.add("END", "VTIMEZONE")
    }
}
