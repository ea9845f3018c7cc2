import Foundation

/// The planned reminders as an iCalendar feed (RFC 5545) that calendar apps subscribe to
/// (`/reminders.ics`): one event with an alarm per reminder, in the person's time zone.
///
/// Pure and deterministic: the same plan, language, zone and `now` give the same text, byte for
/// byte. An event's UID is its reminder's ``PlannedReminder/occurrenceID``, so a calendar that
/// fetches the feed again updates the event instead of adding another, even when the anti-nag
/// policy moved it.
///
/// ```swift
/// let feed = ReminderCalendarFeed(reminders: plan, language: .german, timeZone: zone, now: now)
/// response.body = feed.text       // "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n…"
/// ```
public struct ReminderCalendarFeed: Sendable {
    public static let productID = "-//Momentum//Reminders//EN"
    /// How long an event lasts; a reminder is a moment, but calendars show zero-length events badly.
    public static let eventDuration = "PT5M"
    /// How often a subscribing calendar should fetch again: the plan changes as the person practises.
    public static let refreshInterval = "PT1H"
    /// The suffix that makes an occurrence id a UID unique beyond this feed.
    public static let uidDomain = "momentum"

    public var reminders: [PlannedReminder]
    public var language: Language
    /// The zone of the person's day calendar: events are written in its wall-clock time.
    public var timeZone: TimeZone
    /// When the feed is made (each event's DTSTAMP).
    public var now: Date
    public var calendarName: String

    /// A feed of `reminders`; without a `calendarName`, the catalog's ("Momentum reminders").
    public init(
        reminders: [PlannedReminder], language: Language, timeZone: TimeZone, now: Date, calendarName: String? = nil
    ) {
        self.reminders = reminders
        self.language = language
        self.timeZone = timeZone
        self.now = now
        self.calendarName = calendarName ?? StringCatalog.shared(for: language)[.reminderFeedCalendarName]
    }

    /// The VCALENDAR, CRLF line ends, folded at 75 octets.
    public var text: String {
        let catalog = StringCatalog.shared(for: language)
        let events = reminders.sorted { ($0.fireAt, $0.occurrenceID) < ($1.fireAt, $1.occurrenceID) }
        var lines = ICalendarLines()
        lines.add("BEGIN", "VCALENDAR")
        lines.add("VERSION", "2.0")
        lines.add("PRODID", Self.productID)
        lines.add("CALSCALE", "GREGORIAN")
        lines.add("METHOD", "PUBLISH")
        lines.add("X-WR-CALNAME", text: calendarName)
        lines.add("X-WR-TIMEZONE", timeZone.identifier)
        lines.add("REFRESH-INTERVAL;VALUE=DURATION", Self.refreshInterval)
        lines.add("X-PUBLISHED-TTL", Self.refreshInterval)
        if !isUTC {
            let instants = [now] + events.map(\.fireAt)
            let span = (instants.min() ?? now)...(instants.max() ?? now)
            ICalendarTimeZone(zone: timeZone, covering: span).add(to: &lines)
        }
        for reminder in events {
            add(reminder, catalog: catalog, to: &lines)
        }
        lines.add("END", "VCALENDAR")
        return lines.text
    }

    private func add(_ reminder: PlannedReminder, catalog: StringCatalog, to lines: inout ICalendarLines) {
        let title = catalog.text(reminder.title)
        lines.add("BEGIN", "VEVENT")
        lines.add("UID", "\(reminder.occurrenceID)@\(Self.uidDomain)")
        lines.add("DTSTAMP", ICalendarFormat.utc(now))
        if isUTC {
            lines.add("DTSTART", ICalendarFormat.utc(reminder.fireAt))
        } else {
            lines.add(
                "DTSTART;TZID=\(ICalendarLines.parameterValue(timeZone.identifier))",
                ICalendarFormat.local(reminder.fireAt, in: timeZone))
        }
        lines.add("DURATION", Self.eventDuration)
        lines.add("SUMMARY", text: title)
        lines.add("DESCRIPTION", text: catalog.text(reminder.body))
        if let category = reminder.category {
            lines.add("CATEGORIES", text: catalog[category.nameKey])
        }
        lines.add("TRANSP", "TRANSPARENT")
        lines.add("BEGIN", "VALARM")
        lines.add("ACTION", "DISPLAY")
        lines.add("TRIGGER", "PT0S")
        lines.add("DESCRIPTION", text: title)
        lines.add("END", "VALARM")
        lines.add("END", "VEVENT")
    }

    /// Whether the zone is UTC itself: then times are written as UTC (`…Z`) and no VTIMEZONE is
    /// needed. A zone that merely has offset 0 (Europe/London in winter) keeps its TZID.
    private var isUTC: Bool {
        Self.utcIdentifiers.contains(timeZone.identifier)
    }

    private static let utcIdentifiers: Set<String> = [
        "UTC", "GMT", "Etc/UTC", "Etc/GMT", "Etc/Universal", "Universal", "Etc/Zulu", "Zulu", "UCT", "Etc/UCT",
        "GMT0", "Etc/GMT0", "Etc/GMT+0", "Etc/GMT-0", "Greenwich", "Etc/Greenwich",
    ]
}
