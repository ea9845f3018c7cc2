import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

/// `momentum log`: the sessions recorded so far, and adding, editing and deleting them by hand.
struct Log: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, add, edit or delete practice sessions.",
        subcommands: [List.self, Add.self, Edit.self, Delete.self],
        defaultSubcommand: List.self
    )
}

extension Log {
    /// `momentum log [list]`.
    struct List: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "List recorded practice sessions, newest first.",
            discussion: """
                In a terminal the newest sessions that fit on the screen are listed (--limit N for \
                another number, --all for every one); longer output goes through $PAGER (less -FRX \
                when it is not set; PAGER=cat turns paging off). Piped, every session is listed. \
                --json prints every matching session, oldest first (--limit N: the newest N).
                """)

        @Option(
            help: ArgumentHelp(
                "Only this kind: meditation, guided, breathing, workout, morse, focus.", valueName: "kind"))
        var kind: String?

        @Option(
            help: ArgumentHelp("Only sessions on or after this day (YYYY-MM-DD, your time zone).", valueName: "date"))
        var since: String?

        @Option(
            help: ArgumentHelp("Only sessions on or before this day (YYYY-MM-DD, your time zone).", valueName: "date"))
        var until: String?

        @Option(
            help: ArgumentHelp(
                "List only the newest N sessions (1 to \(Self.largestLimit); in a terminal the default is a screenful).",
                valueName: "N"))
        var limit: String?

        @Flag(help: "List every matching session, however many.")
        var all = false

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        @OptionGroup var common: CommonOptions

        /// The most sessions `--limit` may ask for.
        static let largestLimit = 1_000_000

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                let calendar = session.settings.progress.dayCalendar(systemTimeZone: context.timeZone)
                let query = try query(catalog: catalog, calendar: calendar)
                let shown = try shownCount(catalog: catalog, context: context)
                let page = try await session.services.practiceLog.newest(shown, matching: query)
                if json {
                    context.output.write(try Self.json(page.records.reversed(), calendar: calendar) + "\n")
                } else if page.matched == 0 {
                    let filtered = kind != nil || since != nil || until != nil
                    context.output.write(catalog[filtered ? .logNoMatch : .logEmpty] + "\n")
                } else {
                    context.writeLong(Self.table(page, catalog: catalog, calendar: calendar))
                }
            }
        }

        /// How many sessions to list: `--limit`, every one with `--all`, `--json` or when the
        /// output is not a terminal, else what fits on the screen beside the header and summary.
        func shownCount(catalog: StringCatalog, context: CommandContext) throws -> Int? {
            if limit != nil, all { throw CommandFailure(catalog[.errorLogLimitWithAll]) }
            if let limit {
                guard let value = Int(limit.trimmingCharacters(in: .whitespaces)),
                    (1...Self.largestLimit).contains(value)
                else {
                    throw CommandFailure(
                        catalog.format(.errorLogLimitRange, ["value": limit, "largest": "\(Self.largestLimit)"]))
                }
                return value
            }
            guard !all, !json, context.isInteractive else { return nil }
            return max(5, (context.terminalRows ?? 24) - 5)
        }

        /// The filters as a query; days are the person's days (time zone and day start hour), the
        /// same days the calendar and streaks count.
        func query(catalog: StringCatalog, calendar: DayCalendar) throws -> PracticeLogQuery {
            var query = PracticeLogQuery()
            query.kind = try kind.map { try LogArguments.kind($0, catalog: catalog) }
            func day(_ text: String) throws -> Day {
                do {
                    return try Day(parsing: text)
                } catch {
                    throw CommandFailure(catalog.format(.errorInvalidDate, ["value": text]))
                }
            }
            query.since = try since.map { calendar.start(of: try day($0)) }
            query.until = try until.map { calendar.start(of: try day($0).adding(days: 1)) }
            if let from = query.since, let to = query.until, from >= to, let since, let until {
                throw CommandFailure(catalog.format(.errorLogSinceAfterUntil, ["since": since, "until": until]))
            }
            return query
        }

        /// The records as a table: each on the person's day (``DayCalendar/day(of:)``, the day the
        /// calendar and streaks count it on) at its start time in the person's time zone — with
        /// "+1" when that time is on the next calendar day (a sit at 01:30 when days start at 4:00).
        static func table(_ page: LogPage, catalog: StringCatalog, calendar: DayCalendar) -> String {
            let timeZone = calendar.timeZone
            let dateFormat = catalog.language.dateFormatter(template: "EEE d MMM yyyy", timeZone: timeZone)
            let timeFormat = catalog.language.dateFormatter(format: "HH:mm", timeZone: timeZone)
            let header = [
                catalog[.logColumnDate], catalog[.logColumnTime], catalog[.logColumnKind], catalog[.logColumnDuration],
            ]
            var rows = [header]
            for record in page.records {
                rows.append([
                    dateFormat.string(from: calendar.start(of: calendar.day(of: record.start))),
                    timeFormat.string(from: record.start)
                        + String(repeating: " +1", count: calendar.calendarDaysAfterItsDay(record.start)),
                    catalog[record.kind.nameKey],
                    DurationFormatting.words(.seconds(record.countedSeconds), language: catalog.language),
                ])
            }
            var text = TextTable.render(rows)
            text +=
                catalog.format(
                    page.matched == 1 ? .logSummaryOne : .logSummary,
                    [
                        "count": "\(page.matched)",
                        "total": DurationFormatting.words(.seconds(page.matchedSeconds), language: catalog.language),
                    ])
                + "\n"
            if page.isCut { text += catalog.format(.logNewestShown, ["shown": "\(page.records.count)"]) + "\n" }
            return text
        }

        static func json(_ records: some Sequence<PracticeRecord>, calendar: DayCalendar) throws -> String {
            try JSONOutput.encode(records.map { RecordJSON($0, calendar: calendar) })
        }

        /// The JSON form of a record: the record's fields plus its category and the person's day
        /// it counts on, instants in ISO 8601 with the person's offset.
        struct RecordJSON: Encodable {
            var id: String
            var kind: PracticeKind
            var category: PracticeCategory
            var day: String
            var start: String
            var end: String
            var countedSeconds: Int
            var energyKilocalories: Double?
            var details: [String: String]
            var device: String

            init(_ record: PracticeRecord, calendar: DayCalendar) {
                id = record.id.uuidString.lowercased()
                kind = record.kind
                category = record.category
                day = calendar.day(of: record.start).description
                start = InstantText.format(record.start, timeZone: calendar.timeZone)
                end = InstantText.format(record.end, timeZone: calendar.timeZone)
                countedSeconds = record.countedSeconds
                energyKilocalories = record.energyKilocalories
                details = record.details
                device = record.device
            }
        }
    }

}
