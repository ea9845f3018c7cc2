import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer

@Suite("Catalog, ambient sounds and settings")
struct CatalogAndSettingsTests {
    @Test func theCatalogFollowsLangThenAcceptLanguage() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let german = try await client.send(.get, "/api/v1/catalog?lang=de")
            #expect(try german.object["language"] as? String == "de")
            let strings = try #require(try german.object["strings"] as? [String: String])
            #expect(strings[StringKey.phaseCountdown.rawValue] == StringCatalog.shared(for: .german)[.phaseCountdown])
            var headers = HTTPFields()
            headers[.acceptLanguage] = "de-DE,de;q=0.9,en;q=0.8"
            let accepted = try await client.send(.get, "/api/v1/catalog", headers: headers)
            #expect(try accepted.object["language"] as? String == "de")
            #expect(try await client.send(.get, "/api/v1/catalog").object["language"] as? String == "en")
        }
    }

    @Test func anUnknownLanguageIs422() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(.get, "/api/v1/catalog?lang=fr")
            #expect(response.status == .unprocessableContent)
            #expect(response.errorMessage?.contains("en, de") == true)
        }
    }

    @Test func theAmbientCatalogListsTheBuiltInSounds() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let sounds = try #require(
                try await client.send(.get, "/api/v1/ambient").object["sounds"] as? [[String: Any]])
            #expect(sounds.compactMap { $0["id"] as? String } == AmbientCatalog.builtIn.entries.map(\.id))
        }
    }

    @Test func settingsRoundTripThroughPut() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let initial = try await client.send(.get, "/api/v1/settings")
            #expect(initial.status == .ok)
            let body = #"{"language":"de","sound":false,"meditation":{"durationMs":1200000,"countdownMs":5000}}"#
            let put = try await client.send(.put, "/api/v1/settings", json: body)
            #expect(put.status == .ok)
            #expect(try put.object["language"] as? String == "de")
        }
        let stored = try await server.services.settings.load()
        #expect(stored.language == .german)
        #expect(stored.meditation.duration == .minutes(20))
        #expect(!stored.isSoundOn)
    }

    @Test(arguments: [
        (#"{"meditation":{"durationMs":0}}"#, HTTPResponse.Status.unprocessableContent),
        (#"{"language":"fr"}"#, .unprocessableContent),
        (
            #"{"progress":{"dayStartHour":9,"jokersEnabled":true,"hideStreaks":false,"goals":{"mindfulness":10}}}"#,
            .unprocessableContent
        ),
        (#"{"sound":"loud"}"#, .badRequest),
        (#"{"meditation": {"durationMs": 60000"#, .badRequest),
        ("", .badRequest),
    ])
    func aBadSettingIsRefusedAndNothingChanges(body: String, status: HTTPResponse.Status) async throws {
        let server = try await TestServer()
        let before = try await server.services.settings.load()
        try await server.test { client in
            let response = try await client.send(.put, "/api/v1/settings", json: body)
            #expect(response.status == status, "\(response.text)")
            #expect(response.errorMessage?.isEmpty == false)
        }
        await #expect(try server.services.settings.load() == before)
    }

    @Test func reminderSettingsArePatchedStoredAndCheckedWithSettingsUnchangedOnARefusal() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let patch =
                #"{"reminders":{"quietHours":{"start":"21:30","end":"07:00"},"daily":[{"id":"1","time":"07:30","weekdays":["mon","fri"],"category":"mindfulness"}]}}"#
            let patched = try await client.send(.patch, "/api/v1/settings", json: patch)
            #expect(patched.status == .ok, "\(patched.text)")
            for bad in [
                #"{"reminders":{"quietHours":{"start":"22:00","end":"22:00"}}}"#,
                #"{"reminders":{"preferredTime":"25:00"}}"#,
                #"{"reminders":{"daily":[{"id":"2","time":"08:00","weekdays":[],"category":"mindfulness"}]}}"#,
                #"{"reminders":{"daily":[{"id":"3","time":"08:00","weekdays":["mon"],"category":"knitting"}]}}"#,
            ] {
                let refused = try await client.send(.patch, "/api/v1/settings", json: bad)
                #expect(refused.status == .unprocessableContent, "\(bad) → \(refused.status) \(refused.text)")
            }
        }
        let stored = try await server.services.settings.load().reminders
        #expect(stored.quietHours.start.description == "21:30")
        #expect(stored.dailyReminders.map(\.id) == ["1"])
    }

    @Test(arguments: [
        (
            #"{"reminders":{"quietHours":{"start":"08:00","end":"08:00"}}}"#,
            ReminderSettingsError.quietHoursZeroLength(
                start: try TimeOfDay(parsing: "08:00"), end: try TimeOfDay(parsing: "08:00"))
        ),
        (#"{"reminders":{"preferredTime":"25:00"}}"#, .invalidTime(.hourOutOfRange("25:00"))),
        (
            #"{"reminders":{"daily":[{"id":"2","time":"08:00","weekdays":[],"category":"mindfulness"}]}}"#,
            .noWeekdays(dailyID: "2")
        ),
        (
            #"{"reminders":{"daily":[{"id":"2","time":"08:00","weekdays":["moon"],"category":"focus"}]}}"#,
            .unknownWeekday("moon")
        ),
        (#"{"reminders":{"kinds":{"nagging":true}}}"#, .unknownKind("nagging")),
    ])
    func aRefusedReminderSettingSpeaksTheRequestsLanguage(body: String, error: ReminderSettingsError)
        async throws
    {
        let server = try await TestServer()
        let before = try await server.services.settings.load()
        try await server.test { client in
            var german = HTTPFields()
            german[.acceptLanguage] = "de"
            let inGerman = try await client.send(.patch, "/api/v1/settings", json: body, headers: german)
            #expect(inGerman.status == .unprocessableContent, "\(inGerman.text)")
            #expect(inGerman.errorMessage == StringCatalog.shared(for: .german).text(error.localized))
            let inEnglish = try await client.send(.patch, "/api/v1/settings", json: body)
            #expect(inEnglish.errorMessage == StringCatalog.shared(for: .english).text(error.localized))
        }
        await #expect(try server.services.settings.load() == before)
    }

    @Test func patchChangesOnlyTheNamedFieldsAndMergesNestedOnes() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let put = #"{"language":"de","sound":false,"meditation":{"durationMs":1200000,"countdownMs":5000}}"#
            #expect(try await client.send(.put, "/api/v1/settings", json: put).status == .ok)
            let patched = try await client.send(
                .patch, "/api/v1/settings", json: #"{"sound":true,"meditation":{"countdownMs":10000}}"#)
            #expect(patched.status == .ok, "\(patched.text)")
        }
        let stored = try await server.services.settings.load()
        #expect(stored.language == .german)
        #expect(stored.isSoundOn)
        #expect(stored.meditation.duration == .minutes(20))
        #expect(stored.meditation.countdown == .seconds(10))
    }

    @Test func patchingLanguageToNullFollowsTheSystemAgain() async throws {
        let server = try await TestServer()
        let settings = server.services.settings
        try await server.test { client in
            let german = try await client.send(.patch, "/api/v1/settings", json: #"{"language":"de"}"#)
            #expect(german.status == .ok)
            await #expect(try settings.load().language == .german)
            let system = try await client.send(.patch, "/api/v1/settings", json: #"{"language":null}"#)
            #expect(system.status == .ok)
        }
        await #expect(try server.services.settings.load().language == nil)
    }

    @Test(arguments: [
        (#"{"meditation":{"countdownMs":600000}}"#, HTTPResponse.Status.unprocessableContent),
        (#"{"volume":3}"#, .badRequest),
        (#"{"sound":"loud"}"#, .badRequest),
        (#"[1,2]"#, .badRequest),
        ("{", .badRequest),
        ("", .badRequest),
    ])
    func aBadPatchIsRefusedAndNothingChanges(body: String, status: HTTPResponse.Status) async throws {
        let server = try await TestServer()
        let before = try await server.services.settings.load()
        try await server.test { client in
            let response = try await client.send(.patch, "/api/v1/settings", json: body)
            #expect(response.status == status, "\(response.text)")
            #expect(response.errorMessage?.isEmpty == false)
        }
        await #expect(try server.services.settings.load() == before)
    }

    @Test func errorMessagesSpeakTheRequestsLanguage() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let body = #"{"meditation":{"countdownMs":600000}}"#
            var german = HTTPFields()
            german[.acceptLanguage] = "de-AT, en;q=0.5"
            let inGerman = try await client.send(.patch, "/api/v1/settings", json: body, headers: german)
            #expect(inGerman.errorMessage == StringCatalog.shared(for: .german)[.errorCountdownTooLong])
            let inEnglish = try await client.send(.patch, "/api/v1/settings", json: body)
            #expect(inEnglish.errorMessage == StringCatalog.shared(for: .english)[.errorCountdownTooLong])
        }
    }
}
