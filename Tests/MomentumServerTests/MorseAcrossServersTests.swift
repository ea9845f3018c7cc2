import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import MomentumPostgres
import MomentumServices
import MomentumStoreTestSupport
import MomentumTestSupport
import Testing

@testable import MomentumServer

/// Two servers on one PostgreSQL database: a Morse training session started through one is
/// answered through the other and finished through the first, saved once; a QSO contact started
/// on one goes on through the other.
@Suite("Morse sessions and QSO contacts across two servers on one PostgreSQL database")
struct MorseAcrossServersTests {
    typealias TwoServers = RunsAcrossServersTests.TwoServers

    @Test(.enabled(if: StoreKind.postgresURL != nil))
    func aSessionStartedThroughOneServerIsAnsweredThroughTheOtherAndSavedOnce() async throws {
        let servers = try await TwoServers()
        let clock = servers.clock
        try await servers.test { a, b in
            var (id, session) = try await MorseRoutesTests.start(a, direction: "receive")
            // Answered through both servers by turns, each reading what the other wrote.
            for turn in 0..<20 {
                let answer = try MorseRoutesTests.copy(session["item"])
                clock.advance(by: 3)
                let client = turn.isMultiple(of: 2) ? b : a
                let answered = try await client.send(
                    .post, "/api/v1/morse/sessions/\(id)/answer", json: #"{"answer":"\#(answer)","responseMs":900}"#)
                #expect(answered.status == .ok, "\(answered.text)")
                session = try answered.object
                #expect((session["lastAttempt"] as? [String: Any])?["isCorrect"] as? Bool == true)
                #expect(session["attempts"] as? Int == turn + 1)
            }
            // Both servers show the same session.
            let shownA = try await a.send(.get, "/api/v1/morse/sessions/\(id)")
            let shownB = try await b.send(.get, "/api/v1/morse/sessions/\(id)")
            #expect(shownA.text == shownB.text)
            let paused = try await b.send(.post, "/api/v1/morse/sessions/\(id)/pause")
            #expect(try paused.object["phase"] as? String == "paused")
            let resumed = try await a.send(.post, "/api/v1/morse/sessions/\(id)/resume")
            #expect(try resumed.object["phase"] as? String == "training")

            let ended = try await a.send(.post, "/api/v1/morse/sessions/\(id)/end")
            #expect(ended.status == .ok, "\(ended.text)")
            let ending = try ended.object
            #expect(ending["saved"] as? Bool == true)
            #expect(ending["logged"] as? Bool == true)
            #expect(ending["leveledUp"] as? Bool == true)
            // Finished on one server, gone from both: no second ending.
            for client in [a, b] {
                let again = try await client.send(.post, "/api/v1/morse/sessions/\(id)/end")
                #expect(again.status == .notFound)
                let shown = try await client.send(.get, "/api/v1/morse/sessions/\(id)")
                #expect(shown.status == .notFound)
            }
            let history = try #require(try await b.send(.get, "/api/v1/morse/sessions").object["sessions"] as? [Any])
            #expect(history.count == 1)
        }
        let records = try await servers.households[1].founder.practiceLog.records()
        #expect(records.map(\.kind) == [.morse])
        await #expect(try servers.store.postgres("SELECT count(*)::int FROM morse_exchange") == 0)
    }

    @Test(.enabled(if: StoreKind.postgresURL != nil))
    func aContactStartedOnOneServerGoesOnThroughTheOther() async throws {
        let servers = try await TwoServers()
        try await servers.test { a, b in
            let body = #"{"mode":"answer","style":"firstContact","callSign":"DL1ABC","seed":11}"#
            let started = try await a.send(.post, "/api/v1/morse/qso", json: body)
            #expect(started.status == .created, "\(started.text)")
            let id = try #require(try started.object["id"] as? String)
            let sent = try await b.send(.post, "/api/v1/morse/qso/\(id)/send", json: #"{"text":"DE DL1ABC K"}"#)
            #expect(sent.status == .ok, "\(sent.text)")
            let reply = try #require(try sent.object["lastReply"] as? [String: Any])
            #expect(reply["advanced"] as? Bool == false)
            let shown = try await a.send(.get, "/api/v1/morse/qso/\(id)")
            #expect(shown.text == sent.text)
            #expect((try shown.object["transcript"] as? [Any])?.count == 3)
            // A training session's routes do not know a contact's id.
            let wrong = try await b.send(.get, "/api/v1/morse/sessions/\(id)")
            #expect(wrong.status == .notFound)
        }
    }

    @Test(.enabled(if: StoreKind.postgresURL != nil))
    func aPersonsSessionsGoWithThem() async throws {
        let servers = try await TwoServers()
        let ben = try await servers.households[0].add(named: "Ben")
        let bens = try #require(servers.households[1].morseExchangeStore(for: ben.id))
        let founders = try #require(servers.households[1].morseExchangeStore(for: Person.founderID))
        let id = UUID()
        try await bens.insertMorseExchange(id: id, kind: "qso", state: "{}", lastActivityMs: 0, forgettingIdleBefore: 0)
        await #expect(try founders.morseExchange(id: id, kind: "qso") == nil)
        await #expect(try bens.morseExchange(id: id, kind: "qso") == "{}")
        try await servers.households[0].remove("Ben")
        await #expect(
            try servers.store.postgres("SELECT count(*)::int FROM morse_exchange WHERE person_id = \(ben.id)") == 0)
    }
}
