import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import MomentumServices
import Testing

@testable import MomentumServer

/// What the Settings page needs from the server: a refusal that names its field and speaks the
/// page's language, the focus goal, the time zones by region, the clock the language reads and
/// the streaks' and reminders' own sentences.
@Suite("Settings: refused fields, goals, time zones and sentences")
struct SettingsFieldsRoutesTests {
    static var german: HTTPFields {
        var headers = HTTPFields()
        headers[.acceptLanguage] = "de"
        return headers
    }

    static func field(_ response: TestResponse) -> String? {
        ((try? response.object)?["error"] as? [String: Any])?["field"] as? String
    }

    @Test(arguments: [
        (
            #"{"progress":{"goals":{"focus":500}}}"#, "progress.goals.focus",
            "Wähle ein Tagesziel für Fokus von 1 bis 480 ganzen Minuten."
        ),
        (
            #"{"progress":{"goals":{"mindfulness":0}}}"#, "progress.goals.mindfulness",
            "Wähle ein Tagesziel für Achtsamkeit von 1 bis 120 ganzen Minuten."
        ),
        (
            #"{"progress":{"dayStartHour":9}}"#, "progress.dayStartHour",
            "Ein neuer Tag kann zwischen 00:00 und 06:00 Uhr beginnen."
        ),
        (
            #"{"progress":{"timeZoneIdentifier":"Mars/Olympus"}}"#, "progress.timeZoneIdentifier",
            "„Mars/Olympus“ ist keine Zeitzone, die Momentum kennt: wähle eine aus der Liste."
        ),
        (
            #"{"reminders":{"preferredTime":"25:00"}}"#, "reminders.preferredTime",
            "„25:00“ ist keine Uhrzeit: Stunden gehen von 00 bis 23."
        ),
        (
            #"{"reminders":{"quietHours":{"start":"8 Uhr","end":"07:00"}}}"#, "reminders.quietHours.start",
            "„8 Uhr“ ist keine Uhrzeit: nutze HH:MM, etwa 07:30."
        ),
        (#"{"reminders":{"quietHours":{"start":"08:00","end":"08:00"}}}"#, "reminders.quietHours", nil),
        (
            #"{"reminders":{"daily":[{"id":"1","time":"07:00","weekdays":["mon"],"category":"focus"},{"id":"2","time":"7","weekdays":["mon"],"category":"focus"}]}}"#,
            "reminders.daily[1].time", nil
        ),
        (
            #"{"reminders":{"daily":[{"id":"1","time":"07:00","weekdays":[],"category":"focus"}]}}"#,
            "reminders.daily[0].weekdays", nil
        ),
    ])
    func aRefusedValueNamesItsFieldAndSpeaksGerman(body: String, field: String, message: String?) async throws {
        let server = try await TestServer()
        let before = try await server.services.settings.load()
        try await server.test { client in
            let response = try await client.send(.patch, "/api/v1/settings", json: body, headers: Self.german)
            #expect(response.status == .unprocessableContent, "\(response.text)")
            #expect(Self.field(response) == field, "\(response.text)")
            if let message { #expect(response.errorMessage == message) }
            #expect(response.errorMessage?.contains("`") == false, "no field names in the sentence")
        }
        await #expect(try server.services.settings.load() == before)
    }

    @Test func theFocusGoalIsSavedThroughPatch() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(
                .patch, "/api/v1/settings", json: #"{"progress":{"goals":{"focus":90}}}"#)
            #expect(response.status == .ok, "\(response.text)")
            let goals = (try response.object["progress"] as? [String: Any])?["goals"] as? [String: Int]
            #expect(goals == ["mindfulness": 10, "workout": 10, "focus": 90])
        }
        await #expect(try server.services.settings.load().progress.goal(for: .focus) == 90)
    }

    @Test func timeZonesComeByRegionInTheRequestsLanguage() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(.get, "/api/v1/time-zones?lang=de")
            #expect(response.status == .ok)
            let regions = try #require(try response.object["regions"] as? [[String: Any]])
            let europe = try #require(regions.first { $0["id"] as? String == "Europe" })
            #expect(europe["name"] as? String == "Europa")
            let zones = try #require(europe["zones"] as? [[String: String]])
            #expect(zones.contains { $0["id"] == "Europe/Berlin" && $0["name"] == "Berlin" })
            #expect(regions.last?["id"] as? String == TimeZoneRegions.otherRegion)
            #expect((try response.object["automaticText"] as? String)?.hasPrefix("Automatisch") == true)
        }
    }

    @Test func theCatalogSaysWhichClockTheLanguageReads() async throws {
        let server = try await TestServer()
        try await server.test { client in
            for language in ["en", "de"] {
                let catalog = try await client.send(.get, "/api/v1/catalog?lang=\(language)")
                #expect(try catalog.object["hourCycle"] as? String == "h23")
            }
        }
    }

    @Test func streaksSayTheirDaysWithTheLanguagesPluralAndTodayCounts() async throws {
        let server = try await TestServer()
        try await server.services.practiceLog.addRecord(
            kind: .focus, start: server.clock.now.addingTimeInterval(-900), length: 600)
        try await server.test { client in
            let german = try await client.send(.get, "/api/v1/progress/streaks", headers: Self.german)
            let focus = try #require((try german.object["categories"] as? [String: Any])?["focus"] as? [String: Any])
            #expect(focus["currentText"] as? String == "1 Tag")
            let today = try #require(try german.object["today"] as? [[String: Any]])
            let focusToday = try #require(today.first { $0["category"] as? String == "focus" })
            #expect(focusToday["countsText"] as? String == "Heute zählt")
            #expect(focusToday["goalMinutes"] as? Int == 25)
            #expect((focusToday["minutesText"] as? String)?.hasPrefix("Heute: 10") == true)
            let english = try await client.send(.get, "/api/v1/progress/streaks")
            let mindfulness = try #require(
                (try english.object["categories"] as? [String: Any])?["mindfulness"] as? [String: Any])
            #expect(mindfulness["currentText"] as? String == "0 days")
        }
    }
}

extension SettingsFieldsRoutesTests {
    @Test func aDayWithNothingYetSaysSoInWords() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let english = try await client.send(.get, "/api/v1/progress/today?category=focus")
            #expect(try english.object["minutesText"] as? String == "Nothing yet today; your goal is 25 min.")
            let german = try await client.send(.get, "/api/v1/progress/today?category=focus", headers: Self.german)
            #expect(
                (try german.object["minutesText"] as? String)?.hasPrefix("Heute noch nichts – dein Ziel: 25") == true)
        }
    }
}
