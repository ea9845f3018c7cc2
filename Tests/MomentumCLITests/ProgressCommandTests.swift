import Foundation
import MomentumCore
import MomentumServices
import MomentumStore
import Testing

@testable import MomentumCLI

/// "Today" in these tests is Friday 15 January 2027, 09:00 in Berlin (the test terminal's clock).
@Suite("momentum log add/edit/delete, streak, stats and calendar")
struct ProgressCommandTests {
    /// Adds ten-minute sits on the given January 2027 days at 07:30.
    private func sits(on days: [Int], in terminal: TestTerminal) async {
        for day in days {
            let date = "2027-01-\(day < 10 ? "0" : "")\(day) 07:30"
            _ = await terminal.run(["log", "add", "--minutes", "10", "--start", date])
        }
    }

    private func records(_ terminal: TestTerminal) throws -> [PracticeRecord] {
        try MomentumDatabase.open(directory: terminal.directory.url).practiceRecords()
    }

    @Test func addingBySayingWhenAndHowLongRecordsTheSession() async throws {
        let terminal = try TestTerminal()
        let status = await terminal.run([
            "log", "add", "--kind", "workout", "--minutes", "25", "--start", "2027-01-14 18:00", "--kcal", "300",
            "--note", "hill run",
        ])
        #expect(status == 0, "\(terminal.errors.text)")
        let record = try #require(try records(terminal).first)
        #expect(record.kind == .workout)
        #expect(record.countedSeconds == 1500)
        #expect(record.start == Date(timeIntervalSince1970: 1_799_946_000))
        #expect(record.energyKilocalories == 300)
        #expect(record.details == ["note": "hill run"])
        #expect(terminal.output.lines.first?.hasPrefix("Added Workout on 2027-01-14, 25 min (id ") == true)
    }

    @Test func editingAndDeletingFindARecordByTheStartOfItsID() async throws {
        let terminal = try TestTerminal()
        await sits(on: [10], in: terminal)
        let id = try #require(try records(terminal).first?.id.uuidString.lowercased())
        #expect(await terminal.run(["log", "edit", String(id.prefix(6)), "--minutes", "42"]) == 0)
        #expect(try records(terminal).first?.countedSeconds == 2520)
        #expect(try records(terminal).first?.id.uuidString.lowercased() == id)
        #expect(await terminal.run(["log", "delete", String(id.prefix(8))]) == 0)
        #expect(try records(terminal).isEmpty)
    }

    @Test(arguments: [
        (["log", "add", "--minutes", "0"], "A session must last longer than 0 minutes."),
        (["log", "add", "--minutes", "1441"], "A session can last at most 24 hours."),
        (
            ["log", "add", "--minutes", "10", "--kind", "nap"],
            "“nap” is not a kind of practice: use meditation, guided, breathing, workout, morse, focus."
        ),
        (
            ["log", "add", "--minutes", "10", "--start", "2027-02-30 07:00"],
            "“2027-02-30 07:00” is not a date and time: use YYYY-MM-DD HH:MM (or YYYY-MM-DDTHH:MM)."
        ),
        (
            ["log", "add", "--minutes", "10", "--start", "2027-01-10 25:00"],
            "“2027-01-10 25:00” is not a date and time: use YYYY-MM-DD HH:MM (or YYYY-MM-DDTHH:MM)."
        ),
        (
            ["log", "edit", "ab", "--minutes", "3"],
            "Give at least 4 characters of the record id (see momentum log --json), not “ab”."
        ),
        (["log", "edit", "ffffffff", "--minutes", "3"], "There is no record with id “ffffffff”."),
        (["log", "delete", "ffffffff"], "There is no record with id “ffffffff”."),
        (["calendar", "--month", "2027-13"], "“2027-13” is not a month: use YYYY-MM."),
        (["calendar", "--year", "20x7"], "“20x7” is not a year: use YYYY."),
        (
            ["calendar", "--category", "napping"],
            "“napping” is not a category: use mindfulness, workout, morse, focus."
        ),
        (["settings", "set", "progress.day-start", "7"], "“7” is out of range for progress.day-start (an hour, 0–6)."),
        (["settings", "set", "goal.workout", "121"], "“121” is out of range for goal.workout (minutes a day, 1–120)."),
        (
            ["settings", "set", "progress.time-zone", "Mars/Olympus"],
            "“Mars/Olympus” is out of range for progress.time-zone (an IANA time zone like Europe/Berlin, or auto)."
        ),
    ])
    func badInputIsNamedAndChangesNothing(arguments: [String], message: String) async throws {
        let terminal = try TestTerminal()
        await sits(on: [10], in: terminal)
        let before = try records(terminal)
        let settingsBefore = try MomentumDatabase.open(directory: terminal.directory.url).settingValues()
        #expect(await terminal.run(arguments) != 0)
        #expect(terminal.errors.lines == ["momentum: " + message])
        #expect(try records(terminal) == before)
        #expect(try MomentumDatabase.open(directory: terminal.directory.url).settingValues() == settingsBefore)
    }

    @Test func streakShowsCurrentLongestJokersAndTheOpenDay() async throws {
        let terminal = try TestTerminal()
        // Seven days earn a joker; the 8th is missed and spends it, adding nothing.
        await sits(on: Array(1...7) + [9, 10, 11, 12, 13, 14], in: terminal)
        let streak = try TestTerminal(sharing: terminal)
        #expect(await streak.run(["streak"]) == 0)
        #expect(streak.output.lines.first == "Mindfulness: 13 days (longest 13 days) · jokers 0/3 · strength 49 %")
        #expect(streak.output.lines.last == "Today is still open: 2 minutes keep your Mindfulness streak going.")
        let json = try TestTerminal(sharing: terminal)
        #expect(await json.run(["streak", "--json"]) == 0)
        // The HTTP API's streaks view (GET /api/v1/progress/streaks).
        let view = try JSONDecoder().decode(StreaksView.self, from: Data(json.output.text.utf8))
        #expect(view.hidden == false)
        #expect(view.maximumJokers == 3)
        #expect(view.categories["mindfulness"]?.current == 13)
        #expect(view.categories["mindfulness"]?.todayCounts == false)
    }

    @Test func hiddenStreaksShowOnlyStrength() async throws {
        let terminal = try TestTerminal()
        await sits(on: [13, 14], in: terminal)
        _ = await terminal.run(["settings", "set", "progress.hide-streaks", "on"])
        let streak = try TestTerminal(sharing: terminal)
        #expect(await streak.run(["streak"]) == 0)
        #expect(!streak.output.text.contains("days"))
        #expect(streak.output.lines.last == "Streaks are hidden (progress.hide-streaks).")
        let json = try TestTerminal(sharing: terminal)
        #expect(await json.run(["streak", "--json"]) == 0)
        #expect(!json.output.text.contains("current"))
    }

    @Test func statsAddUpTheWeek() async throws {
        let terminal = try TestTerminal()
        await sits(on: [4, 11, 12, 13], in: terminal)
        _ = await terminal.run(["log", "add", "--kind", "workout", "--minutes", "30", "--start", "2027-01-14 18:00"])
        let stats = try TestTerminal(sharing: terminal)
        #expect(await stats.run(["stats", "--week"]) == 0)
        #expect(stats.output.lines.first == "This week (2027-01-11 – 2027-01-15)")
        #expect(stats.output.lines[1] == "Total         1 h     4 sessions  4 active days")
        let json = try TestTerminal(sharing: terminal)
        #expect(await json.run(["stats", "--month", "--json"]) == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.text.utf8)) as? [String: Any])
        #expect((object["total"] as? [String: Int])?["seconds"] == 4200)
        #expect((object["byCategory"] as? [String: [String: Int]])?["workout"]?["sessions"] == 1)
        #expect(object["days"] as? Int == 15)
    }

    @Test func calendarDrawsTheMonthWithPlainMarksWhenNotATerminal() async throws {
        let terminal = try TestTerminal()
        await sits(on: [1, 2, 3, 4, 5, 6, 7, 9, 10, 11], in: terminal)
        let calendar = try TestTerminal(sharing: terminal)
        #expect(await calendar.run(["calendar", "--month", "2027-01"]) == 0)
        #expect(
            calendar.output.lines == [
                "January 2027 · Mindfulness",
                " Mo  Tu  We  Th  Fr  Sa  Su",
                "                [ 1][ 2][ 3]",
                "[ 4][ 5][ 6][ 7]( 8)[ 9][10]",
                "[11] 12  13  14  15  16  17",
                " 18  19  20  21  22  23  24",
                " 25  26  27  28  29  30  31",
                "[d] counted · (d) joker",
            ])
        #expect(!calendar.output.text.contains("\u{1B}"))
        // In colour the legend is the colours themselves.
        let coloured = try TestTerminal(sharing: terminal)
        #expect(await coloured.run(["calendar", "--month", "2027-01"], interactive: true) == 0)
        let legend = try #require(coloured.output.lines.last)
        #expect(legend.contains("\u{1B}[48;5;94m"))
        #expect(legend.contains("goal met"))
        #expect(legend.contains("joker"))
        #expect(!legend.contains("[d]"))
    }

    @Test func calendarYearIsAHeatMapAndJSONListsEveryDay() async throws {
        let terminal = try TestTerminal()
        await sits(on: [4], in: terminal)
        let year = try TestTerminal(sharing: terminal)
        #expect(await year.run(["calendar", "--year", "2027"]) == 0)
        // Two halves of the year, each under its months' names, fit 40 columns.
        #expect(year.output.lines.count == 19)
        #expect(year.output.lines[1] == "   Jan  Feb Mar Apr May  Jun")
        #expect(year.output.lines[2].hasPrefix("Mo  █"))
        #expect(year.output.lines[9] == "")
        #expect(year.output.lines[10] == "   Jul Aug  Sep Oct  Nov Dec")
        #expect(year.output.lines.last == "less · ░ ▒ ▓ █ · more")
        #expect(year.output.lines.allSatisfy { $0.terminalWidth <= 40 })
        let json = try TestTerminal(sharing: terminal)
        #expect(await json.run(["calendar", "--year", "2027", "--json"]) == 0)
        // The HTTP API's year view (GET /api/v1/progress/year).
        let view = try JSONDecoder().decode(YearHeatMapView.self, from: Data(json.output.text.utf8))
        #expect(view.year == 2027)
        #expect(view.category == .mindfulness)
        #expect(view.days.count == 365)
        #expect(view.days.first { $0.day.description == "2027-01-04" }?.level == 4)

        let month = try TestTerminal(sharing: terminal)
        #expect(await month.run(["calendar", "--month", "2027-01", "--json"]) == 0)
        let grid = try JSONDecoder().decode(CalendarMonthView.self, from: Data(month.output.text.utf8))
        #expect(grid.year == 2027)
        #expect(grid.month == 1)
        let fourth = grid.weeks.joined().compactMap { $0 }.first { $0.day.description == "2027-01-04" }
        #expect(fourth?.counts == ["mindfulness"])
        #expect(fourth?.isFuture == false)

        for bad in ["2027-13", "0000-01", "2027-1", "2027-0\u{7}"] {
            let refused = try TestTerminal(sharing: terminal)
            #expect(await refused.run(["calendar", "--month", bad]) == 64, "\(bad)")
        }
    }
}
