import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer

/// What the browser gets from the server instead of rules of its own (issue 23): the locale,
/// every form's bounds, durations in words and the recent days of the log.
@Suite("Rules the browser gets from the server")
struct BrowserRulesRoutesTests {
    @Test func theCatalogCarriesTheLocaleAndEveryFormBound() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let english = try await client.send(.get, "/api/v1/catalog?lang=en").object
            #expect(english["locale"] as? String == "en-GB", "the terminal's locale too")
            let forms = try #require(english["forms"] as? [String: [String: Double]])
            #expect(forms["breathing.rounds"] == ["min": 1, "max": 99, "step": 1, "default": 10])
            #expect(forms["breathing.inhale"] == ["min": 1, "max": 60, "step": 0.5, "default": 4])
            #expect(forms["focus.minutes"] == ["min": 1, "max": 1440, "step": 1, "default": 25])
            #expect(forms["log.note"] == ["maxLength": 500])
            #expect(forms["morse.toneHertz"] == ["min": 400, "max": 1000, "step": 10, "default": 600])
            #expect(Set(forms.keys) == Set(FormBounds.all.keys))
            let german = try await client.send(.get, "/api/v1/catalog?lang=de").object
            #expect(german["locale"] as? String == "de-DE")
        }
        #expect(Language.english.localeIdentifier == "en_GB")
        #expect(Language.german.bcp47Tag == "de-DE")
    }

    @Test func theLogRefusesJustBeyondItsFormBounds() async throws {
        let server = try await TestServer()
        let minutes = try #require(FormBounds.all["log.minutes"]?.max)
        let note = try #require(FormBounds.all["log.note"]?.maxLength)
        try await server.test { client in
            let longest = try await client.send(
                .post, "/api/v1/log",
                json: #"{"kind":"meditation","start":"2027-01-13T08:00:00Z","durationMs":\#(Int(minutes) * 60_000)}"#)
            #expect(longest.status == .created, "\(longest.text)")
            let tooLong = try await client.send(
                .post, "/api/v1/log",
                json:
                    #"{"kind":"meditation","start":"2027-01-12T08:00:00Z","durationMs":\#(Int(minutes + 1) * 60_000)}"#)
            #expect(tooLong.status == .unprocessableContent)
            let id = try #require(try longest.object["id"] as? String)
            let fits = try await client.send(
                .patch, "/api/v1/log/\(id)",
                json: #"{"details":{"note":"\#(String(repeating: "a", count: note))"}}"#)
            #expect(fits.status == .ok)
            var headers = HTTPFields()
            headers[.acceptLanguage] = "de"
            let refused = try await client.send(
                .patch, "/api/v1/log/\(id)",
                json: #"{"details":{"note":"\#(String(repeating: "a", count: note + 1))"}}"#, headers: headers)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("Eine Notiz darf höchstens 500 Zeichen lang sein."), "\(refused.text)")
        }
    }

    @Test func statisticsCarryEachDurationInWords() async throws {
        let server = try await TestServer()
        try await server.test { client in
            _ = try await client.send(
                .post, "/api/v1/log",
                json: #"{"kind":"meditation","start":"2027-01-15T07:00:00Z","durationMs":1500000}"#)
            var headers = HTTPFields()
            headers[.acceptLanguage] = "de"
            let german = try await client.send(.get, "/api/v1/progress/statistics?period=week", headers: headers).object
            #expect(german["totalText"] as? String == "25 Min.")
            #expect(german["averagePerSessionText"] as? String == "25 Min.")
            #expect((german["byKindText"] as? [String: String])?["meditation"] == "25 Min.")
            #expect(german["averagePerDayText"] is String)
            let english = try await client.send(.get, "/api/v1/progress/statistics?period=week").object
            #expect(english["totalText"] as? String == "25 min", "one answer per language, not the cached German one")
            #expect(english["total"] != nil, "the fields of `momentum stats --json` stay")
        }
    }

    @Test func recentSessionsAreTheLastDaysAsTheServerCountsThem() async throws {
        let server = try await TestServer()
        var settings = try await server.services.settings.load()
        settings.progress.timeZoneIdentifier = "Europe/Berlin"
        try await server.services.settings.save(settings)
        try await server.test { client in
            // Now is 2027-01-15 09:00 in Berlin: the last 14 days begin on 2 January at 00:00 there.
            for start in ["2027-01-01T22:59:00Z", "2027-01-01T23:00:00Z", "2027-01-15T07:00:00Z"] {
                let added = try await client.send(
                    .post, "/api/v1/log", json: #"{"kind":"meditation","start":"\#(start)","durationMs":600000}"#)
                #expect(added.status == .created)
            }
            let recent = try await client.send(.get, "/api/v1/log?recent").object
            let records = try #require(recent["records"] as? [[String: Any]])
            #expect(records.compactMap { $0["day"] as? String }.sorted() == ["2027-01-02", "2027-01-15"])
        }
    }
}
