import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import MomentumServices
import MomentumStoreTestSupport
import Testing

@testable import MomentumServer

@Suite("About, the manifest's shortcuts and the practices runs log them by")
struct AboutAndManifestRoutesTests {
    @Test func aboutSaysTheVersionThePromisesAndEveryLibraryWithItsLicense() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let english = try await client.send(.get, "/api/v1/about?lang=en")
            #expect(english.status == .ok)
            let about = try english.object
            #expect(about["version"] as? String == "test-version")
            #expect((about["privacy"] as? String)?.contains("stays on your own server") == true)
            #expect((about["sounds"] as? String)?.contains("synthesized") == true)
            let libraries = try #require(about["libraries"] as? [[String: Any]])
            let licenses = Dictionary(
                uniqueKeysWithValues: libraries.map { ($0["name"] as? String ?? "", $0["license"] as? String ?? "") })
            #expect(licenses["Hummingbird"] == "Apache-2.0")
            #expect(licenses["GRDB"] == "MIT")
            #expect(licenses["ZIP Foundation"] == "MIT")
            #expect(licenses["SQLite"] == "blessing")
            #expect(licenses["Swift Argument Parser"] == "Apache-2.0 WITH Swift-exception")
            #expect(libraries.count == OpenSourceNotice.all.count)

            let german = try await client.send(.get, "/api/v1/about?lang=de")
            #expect((try german.object["sounds"] as? String)?.contains("erzeugt") == true)
        }
    }

    /// The manifest keeps every field the static file had.
    static func checkBaseFields(_ manifest: [String: Any]) {
        #expect(manifest["name"] as? String == "Momentum")
        #expect(manifest["short_name"] as? String == "Momentum")
        #expect(manifest["description"] as? String == "A calm practice companion")
        #expect(manifest["start_url"] as? String == "/#meditate")
        #expect(manifest["scope"] as? String == "/")
        #expect(manifest["display"] as? String == "standalone")
        #expect(manifest["background_color"] as? String == "#f6efe6")
        #expect(manifest["theme_color"] as? String == "#8a4b2a")
        let icons = manifest["icons"] as? [[String: String]] ?? []
        #expect(icons.map { $0["src"] ?? "" } == ["/icon.svg", "/icon-512.png", "/icon.svg"])
        #expect(icons.map { $0["purpose"] ?? "" } == ["any", "any", "maskable"])
    }

    static func shortcutURLs(_ response: TestResponse) throws -> [String]? {
        (try response.object["shortcuts"] as? [[String: Any]])?.map { $0["url"] as? String ?? "" }
    }

    /// Seeds the log: the breathing preset `calming` three times, the saved sit "Morning 20" twice
    /// (once long ago, outside the window), Tabata twice, Core circuit once.
    static func seed(_ server: TestServer) async throws -> MeditationPreset {
        let sit = try await server.services.meditationPresets.addPreset(
            name: "Morning 20", plan: MeditationPlan(duration: .minutes(20)))
        let now = server.clock.now
        var number = 0
        func log(_ kind: PracticeKind, _ details: [String: String], daysAgo: Double) throws {
            number += 1
            let start = now.addingTimeInterval(-daysAgo * 86_400)
            let record = try PracticeRecord(
                id: UUID(), kind: kind, start: start, end: start.addingTimeInterval(300), countedSeconds: 300,
                details: details, device: "test")
            try server.services.sqlite.savePracticeRecord(record, at: start.addingTimeInterval(300))
        }
        for day in [1.0, 2, 3] {
            try log(.breathing, ["preset": "Calming breath", "presetID": "calming"], daysAgo: day)
        }
        try log(.meditation, ["preset": sit.name, "presetID": sit.id], daysAgo: 1)
        try log(.meditation, ["preset": sit.name, "presetID": sit.id], daysAgo: 120)
        try log(.workout, ["program": "Tabata", "programID": "tabata"], daysAgo: 5)
        try log(.workout, ["program": "Tabata", "programID": "tabata"], daysAgo: 6)
        try log(.workout, ["program": "Core circuit", "programID": "core-circuit"], daysAgo: 0.5)
        try log(.meditation, [:], daysAgo: 0.2)
        return sit
    }

    @Test func onLoopbackTheManifestOffersTheThreeMostUsedPractices() async throws {
        let server = try await TestServer()
        _ = try await Self.seed(server)
        try await server.test { client in
            let response = try await client.send(.get, "/manifest.webmanifest")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/manifest+json") == true)
            #expect(response.headers[.cacheControl]?.contains("private") == true)
            #expect(response.headers[.vary]?.contains("Cookie") == true)
            Self.checkBaseFields(try response.object)
            // calming 3; Tabata 2; then Core circuit (1, most recent) over Morning 20 (1 in the window).
            let urls = try Self.shortcutURLs(response)
            #expect(urls == ["/#breathe?preset=calming", "/#workout?program=tabata", "/#workout?program=core-circuit"])
            let names = (try response.object["shortcuts"] as? [[String: Any]])?.map { $0["name"] as? String }
            #expect(names == ["Calming breath", "Tabata", "Core circuit"])
        }
    }

    @Test func anEmptyLogOffersTheFirstSavedSitBoxBreathingAndTabata() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let bare = try await client.send(.get, "/manifest.webmanifest")
            #expect(try Self.shortcutURLs(bare) == ["/#breathe?preset=box", "/#workout?program=tabata"])
        }
        _ = try await server.services.meditationPresets.addPreset(
            name: "Zazen 40", plan: MeditationPlan(duration: .minutes(40)))
        _ = try await server.services.meditationPresets.addPreset(
            name: "Morning 20", plan: MeditationPlan(duration: .minutes(20)))
        try await server.test { client in
            let response = try await client.send(.get, "/manifest.webmanifest")
            #expect(
                try Self.shortcutURLs(response) == [
                    "/#meditate/preset/Morning%2020", "/#breathe?preset=box", "/#workout?program=tabata",
                ])
        }
    }

    @Test func offLoopbackOnlyALiveFullCredentialSeesTheShortcutsHoweverThePathIsSpelled() async throws {
        let server = try await TestServer(host: "0.0.0.0")
        _ = try await Self.seed(server)
        let tokens = server.services.accessTokens
        let full = try await tokens.create(name: "phone")
        let feed = try await tokens.create(name: "calendar", scope: .feed)
        let revoked = try await tokens.create(name: "old")
        try await tokens.revoke(id: revoked.token.id)
        let sessionID = try await #require(try tokens.startSession(secret: full.secret))
        try await server.test { client in
            let spellings = [
                "/manifest.webmanifest", "/manifest.webmanifest/", "/manifest.webmanifest?x=1",
                "/%6Danifest.webmanifest", "/manifest%2Ewebmanifest", "/MANIFEST.webmanifest",
                "/./manifest.webmanifest", "//manifest.webmanifest",
            ]
            let refused: [HTTPFields] = [
                [:], [.authorization: "Bearer not-a-token"], [.authorization: "Bearer \(revoked.secret)"],
                [.authorization: "Bearer \(feed.secret)"], [.cookie: "momentum_session=not-a-session"],
            ]
            for path in spellings {
                for headers in refused {
                    let response = try await client.send(.get, path, headers: headers)
                    #expect(!response.text.contains("shortcuts"), "\(path) \(headers)")
                    #expect(!response.text.contains("calming"), "\(path) \(headers)")
                    #expect(response.status.code < 500, "\(path)")
                }
            }
            let bare = try await client.send(.get, "/manifest.webmanifest")
            #expect(bare.status == .ok)
            Self.checkBaseFields(try bare.object)
            #expect(try bare.object["shortcuts"] == nil)

            for headers: HTTPFields in [
                [.authorization: "Bearer \(full.secret)"], [.cookie: "momentum_session=\(sessionID)"],
            ] {
                let response = try await client.send(.get, "/manifest.webmanifest", headers: headers)
                #expect(try Self.shortcutURLs(response)?.first == "/#breathe?preset=calming")
            }
        }
    }

    @Test func runsLogTheSavedSitPresetAndProgramTheyStartedFrom() async throws {
        let server = try await TestServer()
        let (clock, settings) = (server.clock, server.services.settings)
        let sit = try await server.services.meditationPresets.addPreset(
            name: "Morning 20", plan: MeditationPlan(duration: .minutes(2), countdown: .zero))
        try await server.test { client in
            func run(_ json: String) async throws {
                let started = try await client.send(.post, "/api/v1/runs", json: json)
                #expect(started.status == .created, "\(json): \(started.text)")
                let id = try #require(try started.object["id"] as? String)
                clock.advance(by: 600)
                let stopped = try await client.send(.post, "/api/v1/runs/\(id)/stop")
                #expect((try stopped.object["ending"] as? [String: Any])?["logged"] as? Bool == true)
            }
            let lastSit = try await settings.load().meditation
            try await run(#"{"kind":"meditation","preset":"\#(sit.id)"}"#)
            // A saved sit leaves "your last sit" as it was (issue 38).
            await #expect(try settings.load().meditation == lastSit)
            try await run(#"{"kind":"breathing","plan":{"preset":"box","rounds":2}}"#)
            try await run(#"{"kind":"workout","program":"tabata"}"#)

            let both = try await client.send(
                .post, "/api/v1/runs", json: #"{"kind":"workout","program":"tabata","plan":{}}"#)
            #expect(both.status == .badRequest)
            let wrongKind = try await client.send(
                .post, "/api/v1/runs", json: #"{"kind":"breathing","program":"tabata"}"#)
            #expect(wrongKind.status == .badRequest)
            let unknown = try await client.send(.post, "/api/v1/runs", json: #"{"kind":"workout","program":"nope"}"#)
            #expect(unknown.status == .notFound)

            let manifest = try await client.send(.get, "/manifest.webmanifest")
            #expect(
                Set(try Self.shortcutURLs(manifest) ?? []) == [
                    "/#meditate/preset/Morning%2020", "/#breathe?preset=box", "/#workout?program=tabata",
                ])
        }
        let records = try await server.services.practiceLog.records()
        let meditation = try #require(records.first { $0.kind == .meditation })
        #expect(meditation.details["presetID"] == sit.id)
        #expect(meditation.details["preset"] == "Morning 20")
        #expect(records.first { $0.kind == .breathing }?.details["presetID"] == "box")
        let workout = try #require(records.first { $0.kind == .workout })
        #expect(workout.details["programID"] == "tabata")
        #expect(workout.details["program"] == "Tabata")
    }
}
