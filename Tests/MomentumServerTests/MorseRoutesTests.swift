import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumCore
import MomentumServices
import MomentumStoreTestSupport
import Testing

@testable import MomentumServer
@testable import MomentumStore

@Suite("Morse routes: sessions keyed, decoded and scored by the core, saved once")
struct MorseRoutesTests {
    /// The elements of a JSON item or attempt as key signals, as a browser would key them back.
    static func signals(_ elements: Any?) throws -> [MorseKeySignal] {
        let list = try #require(elements as? [[String: Any]])
        return try list.map { element in
            let ms = try #require(element["ms"] as? Double)
            let duration = Duration.microseconds(Int64((ms * 1000).rounded()))
            return try #require(element["on"] as? Bool) ? .pressed(duration) : .released(duration)
        }
    }

    /// Reads what a receive item sounds like with the core's decoder: the answer a person who
    /// copies perfectly would type.
    static func copy(_ item: Any?) throws -> String {
        let elements = try #require(item as? [String: Any])["elements"]
        var decoder = try MorseTimingDecoder(expectedWPM: 20)
        return try decoder.decode(signals(elements)).text
    }

    static func start(
        _ client: some TestClientProtocol, direction: String, seed: Int = 7
    ) async throws -> (id: String, session: [String: Any]) {
        let created = try await client.send(
            .post, "/api/v1/morse/sessions", json: #"{"direction":"\#(direction)","seed":\#(seed)}"#)
        #expect(created.status == .created, "\(created.text)")
        let id = try #require(try created.object["id"] as? String)
        #expect(try created.object["phase"] as? String == "introduction")
        let started = try await client.send(.post, "/api/v1/morse/sessions/\(id)/start")
        #expect(started.status == .ok, "\(started.text)")
        return (id, try started.object)
    }

    @Test func aReceiveSessionCopiedPerfectlyLevelsUpAndIsSavedOnce() async throws {
        let server = try await TestServer()
        let clock = server.clock
        try await server.test { client in
            var (id, session) = try await Self.start(client, direction: "receive")
            let introduction = try #require(session["introduction"] as? [[String: Any]])
            // Level 1 practises K and M (SPEC §7), introduced newest first.
            #expect(introduction.compactMap { ($0["symbol"] as? [String: Any])?["text"] as? String } == ["M", "K"])
            #expect((session["item"] as? [String: Any])?["text"] == nil, "a receive item must not show its text")
            for _ in 0..<20 {
                let answer = try Self.copy(session["item"])
                clock.advance(by: 3)  // a minute of training: logged
                let answered = try await client.send(
                    .post, "/api/v1/morse/sessions/\(id)/answer", json: #"{"answer":"\#(answer)","responseMs":900}"#)
                #expect(answered.status == .ok, "\(answered.text)")
                session = try answered.object
                #expect((session["lastAttempt"] as? [String: Any])?["isCorrect"] as? Bool == true)
            }
            #expect(session["attempts"] as? Int == 20)
            let ended = try await client.send(.post, "/api/v1/morse/sessions/\(id)/end")
            #expect(ended.status == .ok, "\(ended.text)")
            let ending = try ended.object
            #expect(ending["leveledUp"] as? Bool == true)
            #expect(ending["nextLevel"] as? Int == 2)
            #expect(ending["saved"] as? Bool == true)
            #expect(((ending["progress"] as? [String: Any])?["receive"] as? [String: Any])?["level"] as? Int == 2)
            let again = try await client.send(.post, "/api/v1/morse/sessions/\(id)/end")
            #expect(again.status == .notFound)
            let history = try #require(
                try await client.send(.get, "/api/v1/morse/sessions").object["sessions"] as? [Any])
            #expect(history.count == 1)
        }
        let records = try await server.services.practiceLog.records()
        #expect(records.count == 1)
        #expect(records.first?.kind == .morse)
        #expect(records.first?.details["accuracy"] == "100%")
        #expect(records.first?.countedSeconds == 60)
        await #expect(try server.services.morse.progress().receive.level == 2)
    }

    @Test func theSameSeedDrawsTheSameItems() async throws {
        let server = try await TestServer()
        try await server.test { client in
            // Level 1 already has two characters to draw from: K and M.
            var runs: [[String]] = []
            for _ in 0..<2 {
                var (id, session) = try await Self.start(client, direction: "receive", seed: 42)
                var heard: [String] = []
                for _ in 0..<12 {
                    let answer = try Self.copy(session["item"])
                    heard.append(answer)
                    session = try await client.send(
                        .post, "/api/v1/morse/sessions/\(id)/answer", json: #"{"answer":"\#(answer)"}"#
                    ).object
                }
                runs.append(heard)
            }
            #expect(runs[0] == runs[1])
            #expect(Set(runs[0]) == ["K", "M"])
        }
    }

    @Test func aSendSessionTakesPatternsAndStraightKeyTimings() async throws {
        let server = try await TestServer()
        try await server.test { client in
            // Level 1 practises K and M; each answer keys the item shown.
            let patterns = ["K": "-.-", "M": "--"]
            let (id, session) = try await Self.start(client, direction: "send")
            let item = try #require(session["item"] as? [String: Any])
            let first = try #require(item["text"] as? String)
            #expect(patterns[first] != nil)
            #expect(item["elements"] == nil, "a send item gives no pattern hint")

            let byPattern = try await client.send(
                .post, "/api/v1/morse/sessions/\(id)/answer", json: #"{"patterns":["\#(patterns[first] ?? "")"]}"#)
            let afterPattern = try byPattern.object
            #expect((afterPattern["lastAttempt"] as? [String: Any])?["isCorrect"] as? Bool == true)
            let second = try #require((afterPattern["item"] as? [String: Any])?["text"] as? String)

            // The keyer's own character at 15 wpm, keyed with ±20 % jitter, read back by the session's decoder.
            let timing = try MorseTiming(characterWPM: 15, effectiveWPM: 15)
            var generator = SeededRandomNumberGenerator(seed: 3)
            let keyed = MorseKeyer(timing: timing).elements(forWord: [try MorseText(second).words[0][0]]).map {
                element in
                let ms = element.duration.inSeconds * 1000 * Double.random(in: 0.8...1.2, using: &generator)
                return element.isKeyDown ? #"{"down":\#(ms)}"# : #"{"up":\#(ms)}"#
            }
            let bySignals = try await client.send(
                .post, "/api/v1/morse/sessions/\(id)/answer",
                json: #"{"signals":[\#(keyed.joined(separator: ","))]}"#)
            let afterSignals = try bySignals.object
            let attempt = try #require(afterSignals["lastAttempt"] as? [String: Any])
            #expect(attempt["answer"] as? String == second)
            #expect(attempt["isCorrect"] as? Bool == true)
            // How it was keyed: about 15 wpm, nothing wrong; a typed answer carries no report.
            let keyingReport = try #require(afterSignals["lastKeying"] as? [String: Any])
            #expect(abs((keyingReport["wpm"] as? Double ?? 0) - 15) < 3.5, "\(keyingReport)")
            #expect((keyingReport["characters"] as? [Any])?.isEmpty == true)
            #expect(afterPattern["lastKeying"] == nil)
            let third = try #require((afterSignals["item"] as? [String: Any])?["text"] as? String)
            let other = third == "K" ? "M" : "K"

            let wrong = try await client.send(
                .post, "/api/v1/morse/sessions/\(id)/answer", json: #"{"patterns":["\#(patterns[other] ?? "")"]}"#)
            let missed = try #require(try wrong.object["lastAttempt"] as? [String: Any])
            #expect(missed["isCorrect"] as? Bool == false)
            #expect(missed["answer"] as? String == other)
            #expect((missed["symbols"] as? [[String: Any]])?.first?["pattern"] as? String == patterns[third])
            #expect(try wrong.object["attempts"] as? Int == 3)
        }
    }

    @Test(arguments: [
        (#"{"signals":[{"down":4},{"up":4},{"down":12}]}"#, "faster than 60 wpm"),
        (#"{"signals":[{"down":900},{"up":900},{"down":2700}]}"#, "slower than 5 wpm"),
        (#"{"signals":[{"up":100}]}"#, "No key press"),
        (#"{"signals":[{"down":0}]}"#, "more than 0 and at most 60000 ms"),
        (#"{"signals":[{"down":60,"up":60}]}"#, "down"),
        (#"{"patterns":["-.x"]}"#, "not a pattern"),
        (#"{"answer":"K","patterns":["-.-"]}"#, "not several"),
    ])
    func badKeyingIsRefusedClearlyAndTheSessionIsUnchanged(body: String, message: String) async throws {
        let server = try await TestServer()
        try await server.test { client in
            let (id, before) = try await Self.start(client, direction: "send")
            let response = try await client.send(.post, "/api/v1/morse/sessions/\(id)/answer", json: body)
            #expect([.badRequest, .unprocessableContent].contains(response.status), "\(response.text)")
            #expect(response.errorMessage?.contains(message) == true, "\(response.errorMessage ?? "")")
            let after = try await client.send(.get, "/api/v1/morse/sessions/\(id)").object
            #expect(after["attempts"] as? Int == 0)
            #expect(
                (after["item"] as? [String: Any])?["text"] as? String
                    == (before["item"] as? [String: Any])?["text"] as? String)
        }
    }

    @Test func theDecoderReadsKeyedTextAndRefusesImpossibleSpeeds() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let keying = try MorseKeyer(timing: MorseTiming(characterWPM: 25, effectiveWPM: 25)).keying("CQ DE K1ABC")
            let signals = keying.elements.map {
                $0.isKeyDown
                    ? #"{"down":\#($0.duration.inSeconds * 1000)}"# : #"{"up":\#($0.duration.inSeconds * 1000)}"#
            }
            let decoded = try await client.send(
                .post, "/api/v1/morse/decode", json: #"{"signals":[\#(signals.joined(separator: ","))]}"#)
            #expect(try decoded.object["text"] as? String == "CQ DE K1ABC")
            // With what it meant to send, the report names what came out wrong and why.
            let compared = try await client.send(
                .post, "/api/v1/morse/decode",
                json:
                    #"{"signals":[{"down":180},{"up":60},{"down":60},{"up":250},{"down":180},{"up":60},{"down":60}],"expected":"c"}"#
            )
            let report = try #require(try compared.object["report"] as? [String: Any])
            #expect(report["text"] as? String == "NN")
            let diagnosis = try #require((report["characters"] as? [[String: Any]])?.first)
            #expect(diagnosis["expected"] as? String == "C")
            #expect(diagnosis["readAs"] as? String == "N N")
            #expect(diagnosis["reasons"] as? [String] == ["gapInsideTooLong"])
            let notMorse = try await client.send(
                .post, "/api/v1/morse/decode", json: #"{"signals":[{"down":60}],"expected":"<XY>"}"#)
            #expect(notMorse.status == .unprocessableContent)
            let tooLong = String(repeating: "E", count: MorseController.answerLimit + 1)
            let overlong = try await client.send(
                .post, "/api/v1/morse/decode", json: #"{"signals":[{"down":60}],"expected":"\#(tooLong)"}"#)
            #expect(overlong.status == .unprocessableContent)
            // The keyer the page keys paddles with: the course's unit, tone and the modes.
            let keyer = try await client.send(.get, "/api/v1/morse/keyer").object
            #expect(keyer["unitMilliseconds"] as? Double == 60)
            #expect(keyer["modes"] as? [String] == ["iambicA", "iambicB", "ultimatic"])
            let tooFast = try await client.send(
                .post, "/api/v1/morse/decode", json: #"{"signals":[{"down":3},{"up":3},{"down":9}]}"#)
            #expect(tooFast.status == .unprocessableContent)
            var german = HTTPFields()
            german[.acceptLanguage] = "de"
            let slow = try await client.send(
                .post, "/api/v1/morse/decode", json: #"{"signals":[{"down":900},{"up":900},{"down":2700}]}"#,
                headers: german)
            #expect(slow.errorMessage?.contains("langsamer als 5 WpM") == true, "\(slow.text)")
        }
    }

    @Test func anAnswerAfterTheTimeRanOutCountsAndThenOnlyEndingIsLeft() async throws {
        let server = try await TestServer()
        try await server.services.morse.saveCourseSettings(try MorseCourseSettings(sessionLength: .minutes(1)))
        let clock = server.clock
        try await server.test { client in
            let (id, _) = try await Self.start(client, direction: "receive")
            clock.advance(by: 30)
            let paused = try await client.send(.post, "/api/v1/morse/sessions/\(id)/pause")
            #expect(try paused.object["phase"] as? String == "paused")
            #expect(try await client.send(.post, "/api/v1/morse/sessions/\(id)/pause").status == .conflict)
            #expect(
                try await client.send(.post, "/api/v1/morse/sessions/\(id)/answer", json: #"{"answer":"K"}"#).status
                    == .conflict)
            clock.advance(by: 600)
            _ = try await client.send(.post, "/api/v1/morse/sessions/\(id)/resume")
            clock.advance(by: 35)
            let late = try await client.send(.post, "/api/v1/morse/sessions/\(id)/answer", json: #"{"answer":"K"}"#)
            #expect(late.status == .ok, "\(late.text)")
            #expect(try late.object["isTimeUp"] as? Bool == true)
            #expect(try late.object["item"] == nil)
            #expect(try late.object["attempts"] as? Int == 1)
            let more = try await client.send(.post, "/api/v1/morse/sessions/\(id)/answer", json: #"{"answer":"K"}"#)
            #expect(more.status == .conflict)
            let ended = try await client.send(.post, "/api/v1/morse/sessions/\(id)/end").object
            #expect(ended["trainingMs"] as? Int == 60_000)
            #expect(ended["trainingText"] as? String == "1 min", "the core's words, in the request's language")
            #expect(ended["saved"] as? Bool == true)
        }
        await #expect(try server.services.practiceLog.records().first?.countedSeconds == 60)
    }

    @Test func aSessionEndedWithoutAttemptsSavesNothing() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let (id, _) = try await Self.start(client, direction: "receive")
            let ended = try await client.send(.post, "/api/v1/morse/sessions/\(id)/end").object
            #expect(ended["saved"] as? Bool == false)
            #expect(ended["record"] == nil)
        }
        await #expect(try server.services.practiceLog.records().isEmpty)
        #expect(try server.services.sqlite.morseCourseJSON() == nil)
    }

    @Test func settingsAreCheckedAndABadValueChangesNothing() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let saved = try await client.send(
                .patch, "/api/v1/morse/settings",
                json: #"{"characterWPM":25,"effectiveWPM":15,"toneHertz":700,"order":"extended"}"#)
            #expect(saved.status == .ok, "\(saved.text)")
            #expect(try saved.object["order"] as? String == "extended")
            let tooFast = try await client.send(.patch, "/api/v1/morse/settings", json: #"{"characterWPM":80}"#)
            #expect(tooFast.status == .unprocessableContent, "\(tooFast.text)")
            #expect(try await client.send(.get, "/api/v1/morse/settings").object["characterWPM"] as? Double == 25)
            let unknown = try await client.send(.patch, "/api/v1/morse/settings", json: #"{"speed":20}"#)
            #expect(unknown.errorMessage?.contains("“speed”") == true)
            let whole = try await client.send(
                .put, "/api/v1/morse/settings",
                json:
                    #"{"characterWPM":20,"effectiveWPM":13,"toneHertz":600,"riseMilliseconds":5,"order":"standard","sessionSeconds":300}"#
            )
            #expect(whole.status == .ok, "\(whole.text)")
        }
    }

    @Test func unknownSessionsAndDirectionsAreClearErrors() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let unknown = try await client.send(
                .post, "/api/v1/morse/sessions/00000000-0000-0000-0000-00000000abcd/answer", json: #"{"answer":"K"}"#)
            #expect(unknown.status == .notFound)
            let notAnID = try await client.send(.get, "/api/v1/morse/sessions/abc")
            #expect(notAnID.status == .notFound)
            let direction = try await client.send(.post, "/api/v1/morse/sessions", json: #"{"direction":"sideways"}"#)
            #expect([.badRequest, .unprocessableContent].contains(direction.status))
            let group = try await client.send(
                .post, "/api/v1/morse/sessions", json: #"{"direction":"receive","groupSize":40}"#)
            #expect(group.status == .unprocessableContent, "\(group.text)")
        }
    }

    @Test func corruptProgressIsReportedAndLeftAsItIs() async throws {
        let server = try await TestServer()
        let corrupt = #"{"order":"standard","receive":{"level":99}}"#
        try server.services.sqlite.write { db in
            try db.execute(
                sql: "INSERT INTO morseCourse (id, progress, updatedAtMs) VALUES (1, ?, 0)", arguments: [corrupt])
        }
        try await server.test { client in
            let progress = try await client.send(.get, "/api/v1/morse/progress")
            #expect(progress.status == .unprocessableContent, "\(progress.text)")
            #expect(progress.errorMessage?.contains("left as it is") == true, "\(progress.errorMessage ?? "")")
            let start = try await client.send(.post, "/api/v1/morse/sessions", json: #"{"direction":"send"}"#)
            #expect(start.status == .unprocessableContent)
        }
        #expect(try server.services.sqlite.morseCourseJSON() == corrupt)
    }
}
