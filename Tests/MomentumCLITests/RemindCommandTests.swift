import Foundation
import MomentumCore
import MomentumStoreContract
import Testing

@testable import MomentumCLI

@Suite("momentum remind settings: checked first, a bad value changes nothing")
struct RemindCommandTests {
    static func stored(_ terminal: TestTerminal) async throws -> [String: Any] {
        let shown = try TestTerminal(sharing: terminal)
        #expect(await shown.run(["remind", "settings", "--json"]) == 0)
        return try #require(try JSONSerialization.jsonObject(with: Data(shown.output.text.utf8)) as? [String: Any])
    }

    @Test func settingsShowTheDefaultsAndChangeWhatIsGiven() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["remind", "settings"]) == 0)
        #expect(terminal.output.lines.contains("Quiet hours: 22:00–08:00"))
        #expect(terminal.output.lines.contains("Preferred time: 09:00"))
        let change = try TestTerminal(sharing: terminal)
        let status = await change.run([
            "remind", "settings", "--off", "streak", "--quiet", "21:30-07:00", "--preferred", "08:15",
            "--add-daily", "07:30 workdays mindfulness", "--add-daily", "18:00 mon,thu morse evening",
        ])
        #expect(status == 0, "\(change.errors.text)")
        #expect(change.output.lines.contains("  streak        off"))
        #expect(change.output.lines.contains("  evening  18:00  mon,thu  morse"))
        let stored = try await Self.stored(terminal)
        #expect((stored["kinds"] as? [String: Bool])?["streak"] == false)
        #expect((stored["quietHours"] as? [String: String])?["start"] == "21:30")
        #expect(stored["preferredTime"] as? String == "08:15")
        #expect((stored["daily"] as? [Any])?.count == 2)

        let removed = try TestTerminal(sharing: terminal)
        #expect(await removed.run(["remind", "settings", "--remove-daily", "evening"]) == 0)
        #expect((try await Self.stored(terminal)["daily"] as? [Any])?.count == 1)
    }

    @Test(arguments: [
        (["--quiet", "08:00-08:00"], "zero or 24 hours"),
        (["--quiet", "22:00"], "not a time of day"),
        (["--add-daily", "25:00 all focus"], "from 00 to 23"),
        (["--add-daily", "07:00 none focus"], "not a weekday"),
        (["--add-daily", "07:00 mon yoga"], "yoga"),
        (["--off", "nagging"], "nagging"),
        (["--remove-daily", "nope"], "nope"),
        (["--preferred", "7:60"], "7:60"),
    ])
    func badInputIsRefusedClearlyAndNothingChanges(arguments: [String], message: String) async throws {
        let terminal = try TestTerminal()
        let before = try await Self.stored(terminal)
        let bad = try TestTerminal(sharing: terminal)
        // A good change before the bad one is not kept either.
        #expect(await bad.run(["remind", "settings", "--off", "streak"] + arguments) != 0)
        #expect(bad.errors.text.contains(message), "\(bad.errors.text)")
        let after = try await Self.stored(terminal)
        #expect(NSDictionary(dictionary: after) == NSDictionary(dictionary: before))
    }

    @Test func thePlanListsTheComingRemindersAsTextAndJSON() async throws {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["remind"]) == 0)
        #expect(terminal.output.text.hasPrefix("No reminders in the coming days."))
        _ = await terminal.run(["remind", "settings", "--add-daily", "10:00 all focus"])
        let text = try TestTerminal(sharing: terminal)
        #expect(await text.run(["remind", "--days", "2"]) == 0)
        #expect(text.output.lines.count == 2, "\(text.output.text)")
        #expect(text.output.lines.first?.hasPrefix("Fri 15 Jan at 10:00") == true, "\(text.output.text)")
        let json = try TestTerminal(sharing: terminal)
        #expect(await json.run(["remind", "--json", "--days", "1"]) == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.output.text.utf8)) as? [[String: Any]])
        #expect(rows.count == 1)
        #expect(rows.first?["fireAt"] as? String == "2027-01-15T09:00:00Z")
        #expect(rows.first?["occurrenceID"] as? String == "daily.1.2027-01-15")
        let bad = try TestTerminal(sharing: terminal)
        #expect(await bad.run(["remind", "--days", "29"]) != 0)
        #expect(bad.errors.text.contains("1–28"))
    }

    @Test func watchingDeliversEachReminderOnceWhenItIsDue() async throws {
        let terminal = try TestTerminal()
        _ = await terminal.run(["remind", "settings", "--add-daily", "10:00 all focus"])
        let watching = try TestTerminal(sharing: terminal)
        // Three hours pass in microseconds: the 10:00 reminder comes once, then q stops.
        #expect(await watching.run(["remind", "--watch"], keys: [(at: .seconds(3 * 3600), key: "q")]) == 0)
        let bells = watching.output.lines.filter { $0.hasPrefix("🔔") }
        #expect(bells.count == 1, "\(watching.output.text)")
        #expect(bells.first?.contains("10:00") == true)
    }

    @Test func waitingIsAtMostAMinuteAndNeverNothing() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(ReminderWatch.wait(until: nil, now: now) == .seconds(60))
        #expect(ReminderWatch.wait(until: now.addingTimeInterval(5), now: now) == .seconds(5))
        #expect(ReminderWatch.wait(until: now.addingTimeInterval(600), now: now) == .seconds(60))
        #expect(ReminderWatch.wait(until: now.addingTimeInterval(-5), now: now) == .milliseconds(1))
    }
}
