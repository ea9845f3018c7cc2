import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import MomentumServices
import Testing

@testable import MomentumServer

@Suite("Reminders over HTTP: the plan as JSON and as an iCalendar feed, planned on every fetch")
struct RemindersRoutesTests {
    /// A daily focus reminder at 10:00, every day (the test clock stands at 08:00 GMT).
    static func withDailyReminder(_ server: TestServer) async throws {
        var settings = try await server.services.settings.load()
        settings.reminders = try settings.reminders.addingDaily(time: "10:00", weekdays: "all", category: "focus")
        try await server.services.settings.save(settings)
    }

    @Test func thePlanComesAsJSONInTheAskedLanguage() async throws {
        let server = try await TestServer()
        try await Self.withDailyReminder(server)
        try await server.test { client in
            let plan = try await client.send(.get, "/api/v1/reminders?lang=de&days=2").object
            let reminders = try #require(plan["reminders"] as? [[String: Any]])
            #expect(reminders.count == 2)
            #expect(reminders.first?["fireAt"] as? String == "2027-01-15T10:00:00.000Z")
            #expect(reminders.first?["occurrenceID"] as? String == "daily.1.2027-01-15")
            let german = try #require(reminders.first?["title"] as? String)
            let english =
                try #require(
                    try await client.send(.get, "/api/v1/reminders?lang=en&days=1").object["reminders"]
                        as? [[String: Any]]
                ).first?["title"] as? String
            #expect(german != english)
            #expect(plan["includesMorse"] as? Bool == true)
            #expect(try await client.send(.get, "/api/v1/reminders?days=0").status == .unprocessableContent)
            #expect(try await client.send(.get, "/api/v1/reminders?days=soon").status == .unprocessableContent)
        }
    }

    @Test func theFeedIsICalendarWithStableUIDsAndForgetsWhatWasPractised() async throws {
        let server = try await TestServer()
        try await Self.withDailyReminder(server)
        let (log, clock) = (server.services.practiceLog, server.clock)
        try await server.test { client in
            let first = try await client.send(.get, "/reminders.ics")
            #expect(first.status == .ok)
            #expect(first.headers[.contentType] == "text/calendar; charset=utf-8")
            let text = first.text
            #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
            #expect(text.components(separatedBy: "BEGIN:VEVENT").count - 1 == 7)
            #expect(text.components(separatedBy: "BEGIN:VALARM").count - 1 == 7)
            #expect(text.contains("UID:daily.1.2027-01-15@momentum"))
            let again = try await client.send(.get, "/reminders.ics").text
            let uids = { (feed: String) in feed.components(separatedBy: "\r\n").filter { $0.hasPrefix("UID:") } }
            #expect(uids(again) == uids(text))

            // Focus practised this morning: today's reminder is gone from the next fetch.
            try await log.addRecord(kind: .focus, start: clock.now.addingTimeInterval(-1800), length: 1500)
            let after = try await client.send(.get, "/reminders.ics").text
            #expect(!after.contains("UID:daily.1.2027-01-15@momentum"))
            #expect(after.contains("UID:daily.1.2027-01-16@momentum"))
        }
    }

    @Test func offLoopbackTheFeedTakesATokenInItsURLAndNothingElseDoes() async throws {
        let server = try await TestServer(host: "0.0.0.0")
        let token = try await server.services.accessTokens.create(name: "calendar")
        try await server.test { client in
            #expect(try await client.send(.get, "/reminders.ics").status == .unauthorized)
            #expect(try await client.send(.get, "/reminders.ics?token=wrong").status == .unauthorized)
            let feed = try await client.send(.get, "/reminders.ics?token=\(token.secret)&lang=de")
            #expect(feed.status == .ok)
            #expect(feed.text.contains("BEGIN:VCALENDAR"))
            #expect(try await client.send(.get, "/api/v1/reminders?token=\(token.secret)").status == .unauthorized)
        }
    }
}
