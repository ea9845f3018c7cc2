import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MomentumAudio
import MomentumCore
import MomentumStoreTestSupport
import Synchronization
import Testing

@testable import MomentumServer

@Suite("Run reports: a practice played away from the server is logged once, by the rule of every run")
struct RunReportsRoutesTests {
    // The server's clock stands at 2027-01-15T08:00:00Z; these practices were played days before.
    let reportID = "6f1c2a4e-0b7d-4c51-9a3e-2f8d5c7b1a90"

    func report(
        id: String? = nil, practice: String, steps: [(String, String)], extra: String = ""
    ) -> String {
        let steps = steps.map { #"{"action":"\#($0.0)","at":"\#($0.1)"}"# }.joined(separator: ",")
        return #"{"id":"\#(id ?? reportID)","practice":\#(practice),"steps":[\#(steps)]\#(extra)}"#
    }

    let twentyMinuteSit = #"{"kind":"meditation","meditation":{"durationMs":1200000,"countdownMs":0}}"#

    @Test func aSitPlayedOfflineIsLoggedOnceUnderItsOwnIdEvenWhenSentTwice() async throws {
        let server = try await TestServer()
        // Paused for five minutes; it played to its end (07:25) with no stop to report.
        let body = report(
            practice: twentyMinuteSit,
            steps: [
                ("start", "2027-01-12T07:00:00Z"), ("pause", "2027-01-12T07:05:00Z"),
                ("resume", "2027-01-12T07:10:00Z"),
            ])
        try await server.test { client in
            let first = try await client.send(.post, "/api/v1/runs/reports", json: body)
            #expect(first.status == .created, "\(first.text)")
            #expect(try first.object["alreadyLogged"] as? Bool == false)
            #expect(try first.object["id"] as? String == reportID)
            let ending = try #require(try first.object["ending"] as? [String: Any])
            #expect(ending["outcome"] as? String == "completed")
            #expect(ending["text"] as? String == "Logged 20 min of meditation.")
            #expect(((try first.object["record"] as? [String: Any])?["id"] as? String)?.lowercased() == reportID)

            // The answer was lost on the way: the device sends the same report again.
            let again = try await client.send(.post, "/api/v1/runs/reports", json: body)
            #expect(again.status == .ok, "\(again.text)")
            #expect(try again.object["alreadyLogged"] as? Bool == true)
            #expect((try again.object["ending"] as? [String: Any])?["outcome"] as? String == "completed")
            #expect(((try again.object["record"] as? [String: Any])?["id"] as? String)?.lowercased() == reportID)
        }
        let records = try await server.services.practiceLog.records()
        #expect(records.count == 1)
        let record = try #require(records.first)
        #expect(record.id == UUID(uuidString: reportID))
        #expect(record.start == WireDate.date("2027-01-12T07:00:00Z"))
        #expect(record.end == WireDate.date("2027-01-12T07:25:00Z"))
        #expect(record.countedSeconds == 1200)
        // A practice played offline leaves the person's defaults alone.
        await #expect(try server.services.settings.load() == MomentumSettings())
    }

    @Test func aSavedSitChangedOrDeletedSinceIsStillLoggedWithTheNameItHadWhenPrepared() async throws {
        let server = try await TestServer()
        let practice = #"""
            {"kind":"meditation","meditation":{"durationMs":600000,"countdownMs":0},
             "preset":{"id":"evening","name":"Evening","plan":{"durationMs":600000,"countdownMs":0},
                       "createdAt":"2027-01-01T00:00:00Z","updatedAt":"2027-01-01T00:00:00Z"}}
            """#
        try await server.test { client in
            let response = try await client.send(
                .post, "/api/v1/runs/reports",
                json: report(
                    practice: practice, steps: [("start", "2027-01-14T20:00:00Z"), ("stop", "2027-01-14T20:04:00Z")]))
            #expect(response.status == .created, "\(response.text)")
            #expect((try response.object["ending"] as? [String: Any])?["outcome"] as? String == "stoppedEarly")
        }
        let record = try #require(try await server.services.practiceLog.records().first)
        #expect(record.details["preset"] == "Evening")
        #expect(record.details["stoppedEarly"] == "true")
        #expect(record.countedSeconds == 240)
    }

    @Test func aWorkoutAndABreathingSessionAreLoggedAsTheirRunsWouldBe() async throws {
        let server = try await TestServer()
        let workout = #"""
            {"kind":"workout","workout":{"plan":{"getReadyMs":0,"warmUpMs":0,"workMs":20000,"restMs":10000,"rounds":8,
             "sets":1,"setRestMs":0,"coolDownMs":0},"programName":"Tabata","programID":"tabata"}}
            """#
        let breathing = #"""
            {"kind":"breathing","breathing":{"inhaleMs":4000,"holdAfterInhaleMs":7000,"exhaleMs":8000,
             "holdAfterExhaleMs":0,"rounds":4,"presetName":"Relax","presetID":"relax"}}
            """#
        try await server.test { client in
            let first = try await client.send(
                .post, "/api/v1/runs/reports",
                json: report(
                    id: "00000000-0000-4000-8000-000000000001", practice: workout,
                    steps: [("start", "2027-01-13T18:00:00Z")]))
            #expect(first.status == .created, "\(first.text)")
            let second = try await client.send(
                .post, "/api/v1/runs/reports",
                json: report(
                    id: "00000000-0000-4000-8000-000000000002", practice: breathing,
                    steps: [("start", "2027-01-13T21:00:00Z"), ("stop", "2027-01-13T21:00:30Z")]))
            #expect(second.status == .ok, "\(second.text)")
            #expect((try second.object["ending"] as? [String: Any])?["outcome"] as? String == "tooShortToLog")
            #expect(try second.object["record"] == nil)
        }
        let records = try await server.services.practiceLog.records()
        #expect(records.map(\.kind) == [.workout])
        // Eight rounds of 20 s work with 10 s rest between them (none after the last).
        #expect(records.first?.countedSeconds == 230)
        #expect(records.first?.details[PracticeOrigin.programIDKey] == "tabata")
    }

    @Test func aStopAfterTheEndCountsTheWholeSitAndTheNoteGoesWithTheReport() async throws {
        let server = try await TestServer()
        // The device notes its stop when it sees the end, a moment after it: the core ends the run
        // at its end, so the sit counts whole.
        let steps = [("start", "2027-01-14T07:00:00Z"), ("stop", "2027-01-14T07:20:00.250Z")]
        try await server.test { client in
            let tooLong = String(repeating: "a", count: PracticeRecord.maximumNoteLength + 1)
            let refused = try await client.send(
                .post, "/api/v1/runs/reports",
                json: report(practice: twentyMinuteSit, steps: steps, extra: #","note":"\#(tooLong)""#))
            #expect(refused.status.code >= 400 && refused.status.code < 500, "\(refused.text)")
            // A note the log would refuse (a control character inside) is refused before anything is logged.
            let marked = try await client.send(
                .post, "/api/v1/runs/reports",
                json: report(practice: twentyMinuteSit, steps: steps, extra: #","note":"Bird\u0007song""#))
            #expect(marked.status.code >= 400 && marked.status.code < 500, "\(marked.text)")

            let first = try await client.send(
                .post, "/api/v1/runs/reports",
                json: report(practice: twentyMinuteSit, steps: steps, extra: #","note":"  Birdsong  ""#))
            // Created: the refused report logged nothing.
            #expect(first.status == .created, "\(first.text)")
            #expect((try first.object["ending"] as? [String: Any])?["outcome"] as? String == "completed")
            let details = (try first.object["record"] as? [String: Any])?["details"] as? [String: Any]
            #expect(details?["note"] as? String == "Birdsong")

            // Written after the first sending, the note comes with the same report again.
            let again = try await client.send(
                .post, "/api/v1/runs/reports",
                json: report(practice: twentyMinuteSit, steps: steps, extra: #","note":"Birdsong, then rain""#))
            #expect(again.status == .ok, "\(again.text)")
            #expect(try again.object["alreadyLogged"] as? Bool == true)
        }
        let records = try await server.services.practiceLog.records()
        #expect(records.count == 1)
        #expect(records.first?.countedSeconds == 1200)
        #expect(records.first?.details["note"] == "Birdsong, then rain")
        #expect(records.first?.details["stoppedEarly"] == nil)
    }

    @Test func aDiscardedEarlyStopIsAnsweredAndNotLogged() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(
                .post, "/api/v1/runs/reports",
                json: report(
                    practice: twentyMinuteSit,
                    steps: [("start", "2027-01-14T07:00:00Z"), ("stop", "2027-01-14T07:08:00Z")],
                    extra: #","keep":false"#))
            #expect(response.status == .ok)
            let ending = try #require(try response.object["ending"] as? [String: Any])
            #expect(ending["outcome"] as? String == "stoppedEarly")
            #expect(ending["logged"] as? Bool == false)
        }
        await #expect(try server.services.practiceLog.records().isEmpty)
    }

    @Test(arguments: [
        // Out of order, nothing after a stop, no start at all.
        (
            [("start", "2027-01-14T07:00:00Z"), ("pause", "2027-01-14T06:59:00Z")], "", HTTPResponse.Status.conflict,
            "error.run.instantBeforeStart"
        ),
        (
            [("start", "2027-01-14T07:00:00Z"), ("stop", "2027-01-14T07:02:00Z"), ("pause", "2027-01-14T07:03:00Z")],
            "",
            .conflict, "error.run.alreadyStopped"
        ),
        ([("stop", "2027-01-14T07:02:00Z")], "", .conflict, "error.run.notStarted"),
        ([], "", .conflict, "error.run.notStarted"),
        // Older than a month; from the far future.
        ([("start", "2026-12-01T07:00:00Z"), ("stop", "2026-12-01T07:30:00Z")], "", .unprocessableContent, ""),
        (
            [("start", "2027-01-17T07:00:00Z"), ("stop", "2027-01-17T07:30:00Z")], "", .unprocessableContent,
            "error.runReport.inTheFuture"
        ),
        // Still going: paused and never stopped; started ten minutes ago.
        (
            [("start", "2027-01-14T07:00:00Z"), ("pause", "2027-01-14T07:05:00Z")], "", .unprocessableContent,
            "error.runReport.notEnded"
        ),
        ([("start", "2027-01-15T07:50:00Z")], "", .unprocessableContent, "error.runReport.notEnded"),
        // An unknown field; interruptions out of range.
        ([("start", "2027-01-14T07:00:00Z")], #","when":"now""#, .badRequest, ""),
        (
            [("start", "2027-01-14T07:00:00Z")], #","soundInterruptions":[{"atMs":-1,"durationMs":5}]"#,
            .unprocessableContent, ""
        ),
    ])
    func aRefusedReportSaysWhyAndLogsNothing(
        steps: [(String, String)], extra: String, status: HTTPResponse.Status, key: String
    ) async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.send(
                .post, "/api/v1/runs/reports", json: report(practice: twentyMinuteSit, steps: steps, extra: extra))
            #expect(response.status == status, "\(response.text)")
            let message = try #require(response.errorMessage)
            if !key.isEmpty {
                let expected = StringCatalog.shared(for: .english)[try #require(StringKey(rawValue: key))]
                #expect(message == expected)
            }
        }
        await #expect(try server.services.practiceLog.records().isEmpty)
    }

    @Test func tooManyStepsAndAMissingPlanAreRefusedInTheRequestsLanguage() async throws {
        let server = try await TestServer()
        let steps =
            [("start", "2027-01-14T07:00:00Z")]
            + (0..<500).flatMap { _ in [("pause", "2027-01-14T07:01:00Z"), ("resume", "2027-01-14T07:01:00Z")] }
        try await server.test { client in
            let many = try await client.send(
                .post, "/api/v1/runs/reports", json: report(practice: twentyMinuteSit, steps: steps))
            #expect(many.status == .unprocessableContent)
            #expect(many.errorMessage?.contains("1001") == true, "\(many.text)")
            let missing = try await client.send(
                .post, "/api/v1/runs/reports?lang=de",
                json: report(practice: #"{"kind":"workout"}"#, steps: [("start", "2027-01-14T07:00:00Z")]))
            #expect(missing.status == .unprocessableContent)
            #expect(
                missing.errorMessage
                    == "Die gemeldete Übung ist vom Typ workout, enthält aber keinen Plan „practice.workout“.")
            let old = try await client.send(
                .post, "/api/v1/runs/reports?lang=de",
                json: report(practice: twentyMinuteSit, steps: [("start", "2026-12-10T07:00:00Z")]))
            #expect(old.status == .unprocessableContent)
            #expect(
                old.errorMessage
                    == "Diese Übung liegt mehr als 30 Tage zurück; eine offline gespielte Übung wird bis zu 30 Tage später gespeichert."
            )
        }
        await #expect(try server.services.practiceLog.records().isEmpty)
    }
}

@Suite("Prepared practices: what a device keeps to practise offline")
struct PreparedPracticesRoutesTests {
    @Test func savedSitsPresetsAndProgramsArePreparedAndOneReportsBackAsPlayed() async throws {
        let server = try await TestServer()
        let firstVersion = Mutex<String?>(nil)
        _ = try await server.services.meditationPresets.addPreset(
            name: "Morning", plan: MeditationPlan(duration: .minutes(15), countdown: .zero))
        try await server.test { client in
            let ownPreset = try await client.send(
                .post, "/api/v1/breathing/presets", json: #"{"name":"Own","pattern":"4-0-6-0","rounds":7}"#)
            #expect(ownPreset.status == .created, "\(ownPreset.text)")
            let ownProgram = try await client.send(
                .post, "/api/v1/workouts/programs", json: #"{"name":"Own circuit","plan":{"workMs":30000}}"#)
            #expect(ownProgram.status == .created, "\(ownProgram.text)")
            let list = try await client.send(.get, "/api/v1/runs/prepared?lang=de")
            #expect(list.status == .ok, "\(list.text)")
            let practices = try #require(try list.object["practices"] as? [[String: Any]])
            let keys = practices.compactMap { $0["key"] as? String }
            // What the person made comes first (a device keeps the list's order while it fits):
            // the saved sit, the usual sit Meditate starts with, the own preset and program, then
            // the built-in ones.
            let usualMinutes = Int(MomentumSettings().meditation.duration.inSeconds / 60)
            #expect(
                Array(practices.prefix(4).compactMap { $0["name"] as? String }) == [
                    "Morning", "Deine gewohnte Meditation · \(usualMinutes) Min.", "Own", "Own circuit",
                ])
            #expect(keys[1] == "sit.usual")
            #expect(keys.count > 4)
            let sit = try #require(practices.first { ($0["key"] as? String)?.hasPrefix("sit.") == true })
            #expect(sit["name"] as? String == "Morning")
            #expect(keys.contains { $0.hasPrefix("breathing.") })
            #expect(keys.contains { $0.hasPrefix("workout.") })
            #expect(Set(keys).count == keys.count)
            let run = try #require(sit["run"] as? [String: Any])
            #expect(run["status"] as? String == "idle")
            #expect((run["timeline"] as? [String: Any])?["totalMs"] as? Int == 900_000)
            #expect(run["summary"] as? String != nil)
            let workout = try #require(practices.first { $0["kind"] as? String == "workout" })
            #expect((workout["run"] as? [String: Any])?["board"] != nil)
            #expect((sit["version"] as? String)?.count == 16)
            firstVersion.withLock { $0 = sit["version"] as? String }

            // The prepared practice goes back with the report exactly as it came.
            let practice = try JSONSerialization.data(withJSONObject: try #require(sit["practice"]))
            let body =
                #"{"id":"0d9f7a1e-3c2b-4a5d-8e6f-7a8b9c0d1e2f","practice":"#
                + String(decoding: practice, as: UTF8.self)
                + #","steps":[{"action":"start","at":"2027-01-14T06:30:00Z"}]}"#
            let reported = try await client.send(.post, "/api/v1/runs/reports", json: body)
            #expect(reported.status == .created, "\(reported.text)")

            // Changing the sit changes its version; the list itself started and saved nothing.
            let again = try await client.send(.get, "/api/v1/runs/prepared?lang=de")
            let same = try #require(try again.object["practices"] as? [[String: Any]])
            #expect(
                same.first { $0["key"] as? String == sit["key"] as? String }?["version"] as? String == sit["version"]
                    as? String)
        }
        let record = try #require(try await server.services.practiceLog.records().first)
        #expect(record.details["preset"] == "Morning")
        #expect(record.countedSeconds == 900)
        await #expect(try server.services.settings.load() == MomentumSettings())
        let preset = try await server.services.meditationPresets.preset(named: "Morning")
        _ = try await server.services.meditationPresets.editPreset(
            preset, plan: MeditationPlan(duration: .minutes(25), countdown: .zero))
        try await server.test { client in
            let list = try await client.send(.get, "/api/v1/runs/prepared")
            let practices = try #require(try list.object["practices"] as? [[String: Any]])
            let sit = try #require(practices.first { ($0["key"] as? String)?.hasPrefix("sit.") == true })
            #expect(((sit["run"] as? [String: Any])?["timeline"] as? [String: Any])?["totalMs"] as? Int == 1_500_000)
            let version = try #require(sit["version"] as? String)
            #expect(firstVersion.withLock { $0 } != version)
        }
    }
}

@Suite("A prepared practice's sound as FLAC, for a device to keep")
struct PreparedAudioRoutesTests {
    @Test func aSavedSitsSoundIsTheRenderersTimelineAsFLAC() async throws {
        let server = try await TestServer()
        let preset = try await server.services.meditationPresets.addPreset(
            name: "Short", plan: MeditationPlan(duration: .minutes(1), countdown: .seconds(5)))
        try await server.test { client in
            let response = try await client.send(.get, "/api/v1/runs/prepared/sit.\(preset.id)/audio")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "audio/flac")
            let timeline = try MeditationSit<WallInstant>(
                plan: preset.plan, affirmations: Affirmations(rotationIndex: 0, catalog: .shared(for: .english))
            ).run.timeline
            var expected = FLACByteStream(
                source: TimelineReader(blocks: try TimelineBlocks(timeline: timeline, format: .runStream)))
            var bytes: [UInt8] = []
            while let chunk = expected.next() { bytes += chunk }
            #expect(Array(response.body.readableBytesView) == bytes)
            // 5 s + 1 min + the end gong's ring, silent between the gongs: far under its 3 MB of WAV.
            #expect(bytes.count < 300_000)
        }
    }

    @Test func anOpenEndedSitAndAnUnknownPracticeHaveNoSoundToKeep() async throws {
        let server = try await TestServer()
        let open = try await server.services.meditationPresets.addPreset(
            name: "Open", plan: MeditationPlan(isOpenEnded: true))
        try await server.test { client in
            let openEnded = try await client.send(.get, "/api/v1/runs/prepared/sit.\(open.id)/audio")
            #expect(openEnded.status == .unprocessableContent)
            #expect(openEnded.errorMessage?.hasPrefix("An open-ended sit has no end to prepare") == true)
            let unknown = try await client.send(.get, "/api/v1/runs/prepared/sit.nothing/audio?lang=de")
            #expect(unknown.status == .notFound)
            #expect(unknown.errorMessage == "Es gibt keine Übung „sit.nothing“, die für offline behalten werden kann.")
        }
    }
}
