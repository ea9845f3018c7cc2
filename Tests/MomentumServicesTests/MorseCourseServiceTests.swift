import Foundation
import MomentumCore
import MomentumStoreTestSupport
import MomentumTestSupport
import Testing

@testable import MomentumServices
@testable import MomentumStore

@Suite("Morse course service: sessions move the stored progress and write one practice record")
struct MorseCourseServiceTests {
    let clock = ManualWallClock(Date(timeIntervalSince1970: 1_800_000_000))

    /// The services on a fresh store of `kind`.
    private func services(_ kind: StoreKind) async throws -> LogServices {
        let clock = self.clock
        return await LogServices(store: try StoreUnderTest(kind), device: "test-device", now: { clock.now })
    }

    /// Trains `session` with `count` answers, the first `right` of them correct, 2 s apart.
    func train(_ session: inout MorseSession, count: Int, right: Int, seed: UInt64 = 7) throws {
        var generator = SeededRandomNumberGenerator(seed: seed)
        try session.startTraining(at: clock.now)
        for index in 0..<count {
            clock.advance(by: 2)
            let item = try session.nextItem(at: clock.now, using: &generator)
            let answer = index < right ? item.text : "?"
            try session.record(
                MorseAttempt(item: item, answer: answer, responseTime: .milliseconds(800)), at: clock.now)
        }
    }

    @Test(arguments: StoreKind.available)
    func aPassingSessionAdvancesTheLevelAndIsLoggedAsMorse(kind: StoreKind) async throws {
        let services = try await services(kind)
        let morse = services.morse
        var session = try await morse.startSession(.receive)
        #expect(session.level == 1)
        #expect(session.length == .minutes(5))
        try train(&session, count: 20, right: 20)
        clock.advance(by: 20)  // a minute of training: logged (stopped early, before its 5 minutes)
        let finished = try await morse.finish(&session)
        #expect(finished.progress[.receive].level == 2)
        #expect(finished.progress[.send].level == 1)
        await #expect(try morse.progress() == finished.progress)

        let record = try #require(finished.record)
        #expect(record.kind == .morse)
        #expect(record.details["accuracy"] == "100%")
        #expect(record.details["direction"] == "receive")
        #expect(record.countedSeconds == 60)
        #expect(record.details["stoppedEarly"] == "true")
        await #expect(try services.practiceLog.records() == [record])
        let history = try await morse.sessions()
        #expect(history.map(\.attempts) == [20])
        #expect(history.map(\.nextLevel) == [2])

        // The next session starts at the new level.
        await #expect(try morse.startSession(.receive).level == 2)
    }

    /// The rule every kind follows: stopped within its first minute, a session is not logged —
    /// but its answers still count for the course, and it stays in the course's history.
    @Test(arguments: StoreKind.available)
    func aSessionStoppedWithinAMinuteCountsForTheCourseButIsNotLogged(kind: StoreKind) async throws {
        let services = try await services(kind)
        let morse = services.morse
        var session = try await morse.startSession(.receive)
        try train(&session, count: 2, right: 2)
        let finished = try await morse.finish(&session)
        #expect(finished.result.trainingTime == .seconds(4))
        #expect(finished.record == nil)
        await #expect(try services.practiceLog.records().isEmpty)
        await #expect(try morse.sessions().map(\.attempts) == [2])
        await #expect(try morse.progress().receive.characterStatistics.values.map(\.attempts).reduce(0, +) == 2)
    }

    @Test(arguments: StoreKind.available)
    func aSessionWithoutAttemptsChangesNothingAndLogsNothing(kind: StoreKind) async throws {
        let services = try await services(kind)
        let morse = services.morse
        var session = try await morse.startSession(.send)
        clock.advance(by: 30)
        let finished = try await morse.finish(&session)
        #expect(finished.record == nil)
        await #expect(try services.practiceLog.records().isEmpty)
        await #expect(try morse.sessions().isEmpty)
        await #expect(try services.store.store.morseCourseJSON() == nil)
    }

    @Test(arguments: StoreKind.available)
    func corruptStoredProgressIsReportedAndLeftAsItIs(kind: StoreKind) async throws {
        let services = try await services(kind)
        let morse = services.morse
        let corrupt = #"{"order":"standard","receive":{"level":99}}"#
        switch kind {
        case .sqlite:
            let database = try #require(services.store.store as? MomentumDatabase)
            try database.write { db in
                try db.execute(
                    sql: "INSERT INTO morseCourse (id, progress, updatedAtMs) VALUES (1, ?, 0)", arguments: [corrupt])
            }
        case .postgres:
            try await services.store.postgres(
                "INSERT INTO morse_course (person_id, progress, updated_at_ms) VALUES (\(services.store.personID), '\(corrupt)', 0)"
            )
        }
        await #expect(throws: MorseCourseServiceError.self) { try await morse.progress() }
        await #expect(throws: MorseCourseServiceError.self) { try await morse.startSession(.receive) }
        await #expect(try services.store.store.morseCourseJSON() == corrupt)
    }

    @Test(arguments: StoreKind.available)
    func courseSettingsAreKeptAndTheirLengthShapesTheSession(kind: StoreKind) async throws {
        let services = try await services(kind)
        let morse = services.morse
        #expect(try await morse.courseSettings() == MorseCourseService.defaultSettings)
        let chosen = try MorseCourseSettings(
            characterWPM: 25, effectiveWPM: 10, toneHertz: 700, riseTime: .milliseconds(8), order: .extended,
            sessionLength: .minutes(2))
        try await morse.saveCourseSettings(chosen)
        #expect(try await morse.courseSettings() == chosen)
        let session = try await morse.startSession(.receive)
        #expect(session.length == .minutes(2))
        #expect(session.order == .extended)
    }

    @Test(arguments: StoreKind.available)
    func theCallSignIsKeptWithTheSettingsAndAnUnreadableOneCountsAsUnset(kind: StoreKind) async throws {
        let services = try await services(kind)
        let morse = services.morse
        #expect(try await morse.callSign() == nil)
        try await morse.saveCallSign(try CallSign("dl1abc/p"))
        #expect(try await morse.callSign()?.text == "DL1ABC/P")
        #expect(try await services.store.store.settingValues()[MorseCourseService.callSignKey] == #""DL1ABC/P""#)
        try await services.store.store.saveSettingValues([MorseCourseService.callSignKey: #""K1""#], at: clock.now)
        #expect(try await morse.callSign() == nil)
        try await morse.saveCallSign(try CallSign("K1ABC"))
        try await morse.saveCallSign(nil)
        #expect(try await morse.callSign() == nil)
    }

    @Test(arguments: StoreKind.available)
    func aSessionLengthGivenForOneSessionWinsOverTheSetting(kind: StoreKind) async throws {
        let services = try await services(kind)
        let morse = services.morse
        #expect(try await morse.startSession(.send, length: .minutes(2)).length == .minutes(2))
        await #expect(throws: MorseCourseServiceError.session(.lengthOutOfRange(.minutes(61)))) {
            try await morse.startSession(.send, length: .minutes(61))
        }
    }
}
