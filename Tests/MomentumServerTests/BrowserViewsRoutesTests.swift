import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import Testing

@testable import MomentumServer

/// The views the browser shows as they are (issue 23): it re-computes none of their rules.
@Suite("Views for the browser")
struct BrowserViewsRoutesTests {
    @Test func theMeditationFormCarriesIntervalGongsAtOffsets() async throws {
        let server = try await TestServer()
        var settings = try await server.services.settings.load()
        settings.meditation.duration = .minutes(40)
        settings.meditation.intervalGongs = .offsets([.minutes(25), .minutes(30)])
        try await server.services.settings.save(settings)
        try await server.test { client in
            let response = try await client.send(.get, "/api/v1/meditation/form?lang=en")
            #expect(response.status == .ok)
            let form = try response.object
            let interval = try #require(form["interval"] as? [String: Any])
            #expect(interval["text"] as? String == "25,30")
            #expect(interval["label"] as? String == "at 25, 30 min")
            let gongs = try #require(interval["gongs"] as? [String: Any])
            #expect(gongs["mode"] as? String == "offsets")
            #expect(gongs["offsetsMs"] as? [Int] == [1_500_000, 1_800_000])
            let choices = try #require(form["intervalChoices"] as? [[String: Any]])
            #expect(
                choices.map { $0["text"] as? String } == [
                    "off", "1", "2", "3", "5", "10", "15", "20", "30", "60", "25,30",
                ])
            let bounds = try #require(form["bounds"] as? [String: [String: Int]])
            #expect(bounds["durationMinutes"] == ["min": 1, "max": 600])
            #expect(bounds["countdownSeconds"] == ["min": 0, "max": 60])
            #expect(bounds["reflectionMinutes"] == ["min": 0, "max": 60])
        }
    }

    @Test func aTypedIntervalIsReadByTheServer() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let typed = try await client.send(.get, "/api/v1/meditation/form?lang=de&interval=5,%207")
            #expect(typed.status == .ok)
            let interval = try #require(try typed.object["interval"] as? [String: Any])
            #expect(interval["text"] as? String == "5,7")
            #expect(interval["label"] as? String == "bei 5, 7 Min.")
            let every = try await client.send(.get, "/api/v1/meditation/form?lang=en&interval=7")
            let choices = try #require(try every.object["intervalChoices"] as? [[String: Any]])
            #expect(
                choices.map { $0["text"] as? String } == ["off", "1", "2", "3", "5", "7", "10", "15", "20", "30", "60"])
            let refused = try await client.send(.get, "/api/v1/meditation/form?interval=soon")
            #expect(refused.status == .unprocessableContent)
        }
    }

    @Test func aSitStartedWithOffsetsKeepsThem() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let started = try await client.send(
                .post, "/api/v1/runs",
                json:
                    #"{"kind":"meditation","plan":{"durationMs":2400000,"intervalGongs":{"mode":"offsets","offsetsMs":[1500000,1800000]}}}"#
            )
            #expect(started.status == .created)
        }
        await #expect(try server.services.settings.load().meditation.intervalGongs.text == "25,30")
    }

    @Test func logRecordsCarryTheDayTheServerCounts() async throws {
        let server = try await TestServer()
        var settings = try await server.services.settings.load()
        settings.progress.timeZoneIdentifier = "Europe/Berlin"
        try await server.services.settings.save(settings)
        try await server.test { client in
            // 23:30 UTC on 14 January is 00:30 on the 15th in Berlin.
            let added = try await client.send(
                .post, "/api/v1/log", json: #"{"kind":"meditation","start":"2027-01-14T23:30:00Z","durationMs":600000}"#
            )
            #expect(added.status == .created)
            let listed = try await client.send(.get, "/api/v1/log")
            let body = try listed.object
            #expect(body["timeZone"] as? String == "Europe/Berlin")
            let records = try #require(body["records"] as? [[String: Any]])
            #expect(records.map { $0["day"] as? String } == ["2027-01-15"])
            #expect(records.first?["countedSeconds"] as? Int == 600)
            #expect(records.first?["countedText"] as? String == "10 min")
            let onDay = try await client.send(.get, "/api/v1/log?day=2027-01-15")
            #expect((try onDay.object["records"] as? [Any])?.count == 1)
            let dayBefore = try await client.send(.get, "/api/v1/log?day=2027-01-14")
            #expect((try dayBefore.object["records"] as? [Any])?.count == 0)
            let bad = try await client.send(.get, "/api/v1/log?day=2027-02-30")
            #expect(bad.status == .badRequest)
        }
    }

    @Test func aDayStartMovesAnEarlySessionToTheDayBefore() async throws {
        let server = try await TestServer()
        var settings = try await server.services.settings.load()
        settings.progress.timeZoneIdentifier = "Europe/Berlin"
        settings.progress.dayStartHour = 4
        try await server.services.settings.save(settings)
        try await server.test { client in
            let added = try await client.send(
                .post, "/api/v1/log", json: #"{"kind":"meditation","start":"2027-01-14T23:30:00Z","durationMs":600000}"#
            )
            #expect(added.status == .created)
            let onDay = try await client.send(.get, "/api/v1/log?day=2027-01-14")
            let records = try #require(try onDay.object["records"] as? [[String: Any]])
            #expect(records.map { $0["day"] as? String } == ["2027-01-14"])
        }
    }

    @Test func aWorkoutRunCarriesTheCoresBoard() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let started = try await client.send(
                .post, "/api/v1/runs?lang=en",
                json:
                    #"{"kind":"workout","plan":{"getReadyMs":10000,"workMs":20000,"restMs":10000,"rounds":2,"exerciseNames":["Plank","Squats"]}}"#
            )
            #expect(started.status == .created)
            let board = try #require(try started.object["board"] as? [String: Any])
            let segments = try #require(board["segments"] as? [[String: Any]])
            // Get ready, Plank, rest, Squats.
            #expect(segments.count == 4)
            #expect(segments[0]["title"] as? String == "Get ready")
            #expect(segments[0]["next"] as? String == "Next: Plank")
            #expect(segments[1]["exercise"] as? String == "Plank")
            #expect(segments[1]["round"] as? String == "Round 1 of 2")
            // A rest shows no exercise; what comes next is the next one.
            #expect(segments[2]["title"] as? String == "Rest")
            #expect(segments[2]["exercise"] == nil)
            #expect(segments[2]["next"] as? String == "Next: Squats")
            #expect(segments[3]["next"] as? String == "Next: Finish")
            let done = try #require(board["done"] as? [String: Any])
            #expect(done["title"] as? String == "Done")
            #expect(done["next"] == nil)
        }
    }

    @Test func aMeditationRunCarriesNoBoard() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let started = try await client.send(.post, "/api/v1/runs", json: #"{"kind":"meditation"}"#)
            #expect(started.status == .created)
            let body = try started.object
            #expect(body["board"] == nil)
        }
    }

    @Test func aMorseItemCarriesItsTimeWindow() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let receive = try await MorseRoutesTests.start(client, direction: "receive")
            let heard = try #require(receive.session["item"] as? [String: Any])
            #expect(heard["answerWindowMs"] as? Int == 3000)
            #expect(heard["completionPauseMs"] == nil)
            let send = try await MorseRoutesTests.start(client, direction: "send")
            let keyed = try #require(send.session["item"] as? [String: Any])
            #expect(keyed["completionPauseMs"] as? Int == 2000)
            #expect(keyed["answerWindowMs"] == nil)
        }
    }
}
