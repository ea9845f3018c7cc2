import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWebSocket
import MomentumCore
import MomentumServices
import Testing

@testable import MomentumServer

/// Sitting together (issue 45, docs/together.md): one session the host steers, joined by the
/// people invited, each logged in their own log; a person not invited sees nothing of it.
@Suite("Sit together")
struct TogetherRoutesTests {
    /// Ada (the founder) and Ben, invited, and Cleo, of the same household but not invited; each
    /// with a token, off loopback.
    struct Household {
        let server: TestServer
        let ada: HTTPFields
        let ben: HTTPFields
        let cleo: HTTPFields
        let benID: Person.ID
        let cleoID: Person.ID

        init() async throws {
            server = try await TestServer(host: "0.0.0.0")
            let ben = try await server.household.add(named: "Ben")
            let cleo = try await server.household.add(named: "Cleo")
            (benID, cleoID) = (ben.id, cleo.id)
            let tokens = server.services.accessTokens
            self.ada = SharedTimerRoutesTests.Household.bearer(try await tokens.create(name: "ada").secret)
            self.ben = SharedTimerRoutesTests.Household.bearer(
                try await tokens.create(name: "ben", personID: ben.id).secret)
            self.cleo = SharedTimerRoutesTests.Household.bearer(
                try await tokens.create(name: "cleo", personID: cleo.id).secret)
        }

        /// The records in `person`'s own log.
        func log(of person: Person.ID) async throws -> [PracticeRecord] {
            try await server.household.services(forID: person).practiceLog.records()
        }
    }

    static let tenMinutes = #"{"kind":"meditation","plan":{"durationMs":600000,"countdownMs":0},"invite":["Ben"]}"#

    static func code(_ response: TestResponse) throws -> String {
        try #require(try response.object["code"] as? String)
    }

    @Test func aLateJoinerPlaysFromThePositionAndEachPersonIsLoggedInTheirOwnLog() async throws {
        let home = try await Household()
        let (ada, ben, cleo, clock) = (home.ada, home.ben, home.cleo, home.server.clock)
        let code = try await home.server.test { client in
            let made = try await client.send(.post, "/api/v1/together", json: Self.tenMinutes, headers: ada)
            #expect(made.status == .created)
            #expect(try made.object["status"] as? String == "waiting")
            #expect(try made.object["startsAtMs"] as? Int64 == 1_800_000_005_000)
            #expect(try made.object["sitting"] as? [String] == ["Ada"])
            let code = try Self.code(made)
            // Ben is invited: he sees it; Cleo is not: nothing, by list or by code.
            let listed = try #require(
                try await client.send(.get, "/api/v1/together", headers: ben).object["sessions"] as? [[String: Any]])
            #expect(listed.map { $0["code"] as? String } == [code])
            let outsider = try await client.send(.get, "/api/v1/together", headers: cleo).object
            #expect((outsider["sessions"] as? [Any])?.isEmpty == true)
            for path in ["", "/audio"] {
                #expect(
                    try await client.send(.get, "/api/v1/together/\(code)\(path)", headers: cleo).status == .notFound)
            }
            #expect(try await client.send(.post, "/api/v1/together/\(code)/join", headers: cleo).status == .notFound)
            // Ben joins 30 s after the start and plays from 30 s.
            clock.advance(by: 35)
            let joined = try await client.send(.post, "/api/v1/together/\(code.lowercased())/join", headers: ben)
            #expect(joined.status == .ok)
            #expect(try joined.object["positionMs"] as? Int64 == 30_000)
            #expect(try joined.object["youAreIn"] as? Bool == true)
            #expect(try joined.object["sitting"] as? [String] == ["Ada", "Ben"])
            // He leaves 2 minutes in (of 10): stopped early, in his log.
            clock.advance(by: 90)
            let left = try await client.send(.post, "/api/v1/together/\(code)/leave", headers: ben)
            #expect(left.status == .ok)
            let ending = try #require(try left.object["ending"] as? [String: Any])
            #expect(ending["outcome"] as? String == "stoppedEarly")
            #expect(ending["practicedMs"] as? Int64 == 90_000)
            #expect(try left.object["satTogether"] as? [String] == ["Ada", "Ben"])
            #expect(
                try await client.send(.post, "/api/v1/together/\(code)/join", headers: ben).status == .conflict)
            // Ada sits to the end; her part is logged when anyone next asks.
            clock.advance(by: 600)
            let over = try await client.send(.get, "/api/v1/together/\(code)", headers: ada)
            #expect(try over.object["status"] as? String == "over")
            #expect(try (over.object["ending"] as? [String: Any])?["outcome"] as? String == "completed")
            return code
        }
        let adaLog = try await home.log(of: Person.founderID)
        #expect(adaLog.map(\.countedSeconds) == [600])
        #expect(adaLog.first?.details["stoppedEarly"] == nil)
        let benLog = try await home.log(of: home.benID)
        #expect(benLog.map(\.countedSeconds) == [90])
        #expect(benLog.first?.details["stoppedEarly"] == "true")
        #expect(try await home.log(of: home.cleoID).isEmpty)
        #expect(benLog.first?.id != adaLog.first?.id)
        _ = code
    }

    @Test func onlyTheHostPausesResumesAndStopsAndAStopLogsEveryoneIn() async throws {
        let home = try await Household()
        let (ada, ben, clock) = (home.ada, home.ben, home.server.clock)
        try await home.server.test { client in
            let code = try Self.code(
                try await client.send(.post, "/api/v1/together", json: Self.tenMinutes, headers: ada))
            _ = try await client.send(.post, "/api/v1/together/\(code)/join", headers: ben)
            clock.advance(by: 65)
            #expect(try await client.send(.post, "/api/v1/together/\(code)/pause", headers: ben).status == .forbidden)
            let paused = try await client.send(.post, "/api/v1/together/\(code)/pause", json: "{}", headers: ada)
            #expect(try paused.object["status"] as? String == "paused")
            #expect(try paused.object["positionMs"] as? Int64 == 60_000)
            clock.advance(by: 300)
            let still = try await client.send(.get, "/api/v1/together/\(code)", headers: ben)
            #expect(try still.object["status"] as? String == "paused")
            #expect(try still.object["positionMs"] as? Int64 == 60_000)
            #expect(try await client.send(.post, "/api/v1/together/\(code)/resume", headers: ada).status == .ok)
            clock.advance(by: 120)
            #expect(try await client.send(.post, "/api/v1/together/\(code)/stop", headers: ben).status == .forbidden)
            let stopped = try await client.send(.post, "/api/v1/together/\(code)/stop", headers: ada)
            #expect(try stopped.object["status"] as? String == "over")
            #expect(try await client.send(.get, "/api/v1/together/\(code)/audio", headers: ben).status == .conflict)
            let benView = try await client.send(.get, "/api/v1/together/\(code)", headers: ben)
            #expect(try (benView.object["ending"] as? [String: Any])?["practicedMs"] as? Int64 == 180_000)
            #expect(try await client.send(.post, "/api/v1/together/\(code)/resume", headers: ada).status == .conflict)
        }
        #expect(try await home.log(of: Person.founderID).map(\.countedSeconds) == [180])
        #expect(try await home.log(of: home.benID).map(\.countedSeconds) == [180])
    }

    @Test func theHostLeavingStopsItForEveryone() async throws {
        let home = try await Household()
        let (ada, ben, clock) = (home.ada, home.ben, home.server.clock)
        try await home.server.test { client in
            let code = try Self.code(
                try await client.send(.post, "/api/v1/together", json: Self.tenMinutes, headers: ada))
            _ = try await client.send(.post, "/api/v1/together/\(code)/join", headers: ben)
            clock.advance(by: 20)
            let left = try await client.send(.post, "/api/v1/together/\(code)/leave", headers: ada)
            #expect(try left.object["status"] as? String == "over")
            // 15 s: too short to log, for both.
            let benView = try await client.send(.get, "/api/v1/together/\(code)", headers: ben)
            #expect(try (benView.object["ending"] as? [String: Any])?["outcome"] as? String == "tooShortToLog")
        }
        #expect(try await home.log(of: home.benID).isEmpty)
    }

    @Test func refusalsAreClearAndChangeNothing() async throws {
        let home = try await Household()
        let ada = home.ada
        try await home.server.test { client in
            let openEnded = try await client.send(
                .post, "/api/v1/together", json: #"{"kind":"meditation","plan":{"durationMs":0,"countdownMs":0}}"#,
                headers: ada)
            #expect(openEnded.status == .unprocessableContent)
            let stranger = try await client.send(
                .post, "/api/v1/together",
                json: #"{"kind":"meditation","plan":{"durationMs":600000},"invite":["Zoe"]}"#, headers: ada)
            #expect(stranger.status == .unprocessableContent)
            #expect(stranger.errorMessage?.contains("Zoe") == true)
            let crowd = (1...12).map { #""Guest \#($0)""# }.joined(separator: ",")
            let tooMany = try await client.send(
                .post, "/api/v1/together",
                json: #"{"kind":"meditation","plan":{"durationMs":600000},"invite":[\#(crowd)]}"#, headers: ada)
            #expect(tooMany.status == .unprocessableContent)
            let at = try await client.send(
                .post, "/api/v1/together", json: #"{"kind":"breathing","at":"2027-01-15T08:00:00Z"}"#, headers: ada)
            #expect(at.status == .badRequest)
            let unknown = try await client.send(
                .post, "/api/v1/together", json: #"{"kind":"workout","guests":true}"#, headers: ada)
            #expect(unknown.status == .badRequest)
            for code in ["ABC", "AAAAA0", "AAAAAAAAAAAAAAAAAAAAAAAA", "%41AAAAA"] {
                #expect(try await client.send(.get, "/api/v1/together/\(code)", headers: ada).status == .notFound)
            }
            let list = try await client.send(.get, "/api/v1/together", headers: ada).object
            #expect((list["sessions"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func theClockOffsetIsTheShortestRoundTripsAndNonsenseIsRefused() async throws {
        let home = try await Household()
        let ada = home.ada
        try await home.server.test { client in
            let answer = try await client.send(
                .post, "/api/v1/together/clock",
                json: #"{"samples":[{"sentAt":1000,"serverAt":6100,"receivedAt":1200},"#
                    + #"{"sentAt":2000,"serverAt":7012,"receivedAt":2030}]}"#, headers: ada)
            #expect(answer.status == .ok)
            #expect(try answer.object["offsetMs"] as? Double == 4997)
            #expect(try answer.object["uncertaintyMs"] as? Double == 15)
            for samples in [
                "[]", #"[{"sentAt":2000,"serverAt":1,"receivedAt":1000}]"#,
                #"[{"sentAt":0,"serverAt":1,"receivedAt":20000}]"#,
            ] {
                let refused = try await client.send(
                    .post, "/api/v1/together/clock", json: #"{"samples":\#(samples)}"#, headers: ada)
                #expect(refused.status == .unprocessableContent)
            }
        }
    }

    @Test func aClockQuestionIsReadOnlyWhenItIsOne() {
        #expect(LiveFeed.clockQuestion(#"{"clock":1733150000123.5}"#) == 1_733_150_000_123.5)
        for text in [#"{"clock":true}"#, #"{"clock":1,"x":2}"#, #"{"clock":"1"}"#, "[1]", "clock", #"{"clock":1e300}"#]
        {
            #expect(LiveFeed.clockQuestion(text) == nil)
        }
        #expect(
            LiveFeed.clockAnswer(12.5, serverAt: Date(timeIntervalSince1970: 2)) == #"{"clock":12.5,"serverAt":2000}"#)
        #expect(LiveFeed.clockAnswer(12, serverAt: Date(timeIntervalSince1970: 2)) == #"{"clock":12,"serverAt":2000}"#)
    }

    /// Over a real WebSocket: a clock question is answered with the server's clock, and the host's
    /// pause reaches Ben's feed (and not Cleo's, who is not invited).
    @Test func theLiveFeedAnswersTheClockAndCarriesTheHostsSteps() async throws {
        let home = try await Household()
        let server = home.server
        let application = Application(
            router: server.router,
            server: .http1WebSocketUpgrade(
                webSocketRouter: buildLiveRouter(configuration: server.configuration, dependencies: server.dependencies)
            ),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        let (ada, ben, cleo, clock) = (home.ada, home.ben, home.cleo, server.clock)
        try await application.test(.live) { client in
            let (heard, hearing) = AsyncStream<(String, String)>.makeStream()
            let listeners = Task {
                // A listener that fails ends what is heard, so the test fails rather than waits.
                defer { hearing.finish() }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (who, headers) in [("ben", ben), ("cleo", cleo)] {
                        group.addTask {
                            try await client.ws("/api/v1/live", configuration: .init(additionalHeaders: headers)) {
                                inbound, outbound, _ in
                                for try await message in inbound.messages(maxSize: 1 << 16) {
                                    guard case .text(let text) = message else { continue }
                                    if text.hasPrefix("{\"head\"") {
                                        try await outbound.write(.text(#"{"clock":1000.5}"#))
                                        continue
                                    }
                                    hearing.yield((who, text))
                                    if text.contains("\"paused\"") { break }
                                }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            // What never comes fails the test in 60 s rather than holding the run.
            let watchdog = Task {
                try await Task.sleep(for: .seconds(60))
                hearing.finish()
            }
            defer { watchdog.cancel() }
            var iterator = heard.makeAsyncIterator()
            var clocks = 0
            while clocks < 2, let (_, text) = await iterator.next() {
                #expect(text == #"{"clock":1000.5,"serverAt":1800000000000}"#)
                clocks += 1
            }
            if clocks < 2 {
                // A listener that could not connect ended what is heard: say why.
                Issue.record("the feeds ended early: \(await listeners.result)")
                return
            }
            let made = try await client.send(.post, "/api/v1/together", json: Self.tenMinutes, headers: ada)
            let code = try Self.code(made)
            clock.advance(by: 10)
            let paused = try await client.send(.post, "/api/v1/together/\(code)/pause", json: "{}", headers: ada)
            #expect(paused.status == .ok, "\(paused.text)")
            var benHeard: [String] = []
            while let (who, text) = await iterator.next() {
                // Cleo, not invited, hears nothing of it.
                #expect(who == "ben")
                benHeard.append(text)
                if text.contains("\"paused\"") { break }
            }
            listeners.cancel()
            #expect(clocks == 2)
            #expect(benHeard.first?.contains("\"waiting\"") == true)
            #expect(
                benHeard.last
                    == #"{"together":{"code":"\#(code)","positionMs":5000,"serverAtMs":1800000010000,"status":"paused"}}"#
            )
            _ = await listeners.result
        }
    }
}
