import Foundation
import Testing

@testable import MomentumCore

@Suite("Morse course progress: applying a session, and stored progress read back or refused")
struct MorseCourseProgressTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt
    static let dayCalendar = DayCalendar(unchecked: berlin)
    /// 2027-01-15 09:00 in Berlin.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let day: TimeInterval = 86_400

    /// A finished session of `direction` at `level` that began at `start` + `days`, with `right` of
    /// 20 single-character attempts right (newest character included in every miss-free stretch).
    static func result(
        _ direction: MorseDirection = .receive, level: Int = 1, right: Int = 20, attempts: Int = 20, days: Double = 0
    ) throws -> MorseSessionResult {
        let begin = start.addingTimeInterval(days * day)
        var session = try MorseSession(direction: direction, order: .standard, level: level, at: begin)
        try session.startTraining(at: begin)
        let newest = MorseDrillItem(symbols: [session.newestCharacter])
        for index in 0..<attempts {
            let answer = index < right ? session.newestCharacter.displayText : "?"
            try session.record(
                MorseAttempt(item: newest, answer: answer, responseTime: .milliseconds(700)),
                at: begin.addingTimeInterval(Double(index)))
        }
        return try session.end(at: begin.addingTimeInterval(120))
    }

    @Test func aSessionThatEarnsTheLevelAdvancesItAndSchedulesAReviewSevenDaysLater() throws {
        let result = try Self.result()
        let progress = try MorseCourseProgress().applying(result, dayCalendar: Self.dayCalendar)
        let receive = progress[.receive]
        #expect(receive.level == 2)
        #expect(receive.levelHistory == [MorseLevelChange(level: 2, date: result.endedAt)])
        #expect(receive.levelReviewDue == result.endedAt.addingTimeInterval(7 * Self.day))
        #expect(receive.schedule.intervalDays == 2)
        #expect(receive.schedule.nextPractice == result.endedAt.addingTimeInterval(2 * Self.day))
        #expect(receive.nextDue == receive.schedule.nextPractice)
        // Level 1's newest character is M; the session answered it 20 times.
        let m = try #require(MorseCode.symbol(for: "M"))
        #expect(receive.characterStatistics[m]?.attempts == 20)
        #expect(receive.characterStatistics[m]?.averageResponseTime == .milliseconds(700))
        #expect(progress[.send] == MorseDirectionProgress())
        #expect(progress.courseStart == result.startedAt)
    }

    @Test func aWeakSessionKeepsTheLevelAndResetsTheInterval() throws {
        let progress = try MorseCourseProgress().applying(Self.result(right: 13), dayCalendar: Self.dayCalendar)
        #expect(progress[.receive].level == 1)
        #expect(progress[.receive].levelHistory.isEmpty)
        #expect(progress[.receive].schedule.intervalDays == 1)
        #expect(progress[.receive].characterStatistics.values.map(\.correct) == [13])
    }

    @Test func sessionsOnFollowingDaysMoveTheLevelsAndTheReviewIsClearedWhenDone() throws {
        var progress = MorseCourseProgress()
        progress = try progress.applying(Self.result(level: 1), dayCalendar: Self.dayCalendar)
        progress = try progress.applying(Self.result(.send, days: 1), dayCalendar: Self.dayCalendar)
        progress = try progress.applying(Self.result(level: 2, right: 18, days: 2), dayCalendar: Self.dayCalendar)
        #expect(progress[.receive].level == 3)
        #expect(progress[.send].level == 2)
        let review = try #require(progress[.send].levelReviewDue)
        progress = try progress.applying(
            Self.result(.send, level: 2, right: 10, days: 8), dayCalendar: Self.dayCalendar)
        #expect(review <= progress[.send].schedule.lastPractice ?? review)
        #expect(progress[.send].levelReviewDue == nil)
    }

    @Test func aSessionWithoutAttemptsChangesNothing() throws {
        let progress = MorseCourseProgress()
        #expect(try progress.applying(Self.result(attempts: 0), dayCalendar: Self.dayCalendar) == progress)
    }

    @Test func resultsThatDoNotFitTheProgressAreRefused() throws {
        let progress = try MorseCourseProgress().applying(Self.result(days: 5), dayCalendar: Self.dayCalendar)
        #expect(throws: MorseCourseProgressError.levelMismatch(progress: 2, session: 1)) {
            try progress.applying(Self.result(days: 6), dayCalendar: Self.dayCalendar)
        }
        #expect(throws: MorseCourseProgressError.sessionBeforeLastPractice) {
            try progress.applying(Self.result(level: 2, days: 4), dayCalendar: Self.dayCalendar)
        }
        #expect(throws: MorseCourseProgressError.orderMismatch(progress: .extended, session: .standard)) {
            try MorseCourseProgress(order: .extended).applying(Self.result(), dayCalendar: Self.dayCalendar)
        }
    }

    @Test func progressRoundTripsThroughJSON() throws {
        var progress = MorseCourseProgress()
        progress = try progress.applying(Self.result(), dayCalendar: Self.dayCalendar)
        progress = try progress.applying(Self.result(.send, right: 15, days: 1), dayCalendar: Self.dayCalendar)
        let json = try progress.encodedJSON()
        #expect(try MorseCourseProgress.decoded(fromJSON: json) == progress)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""characterStatistics":{"M":{"#))
    }

    /// The JSON of a progress after one session, with the first `old` replaced by `new`.
    static func corrupted(_ old: String, _ new: String) throws -> Data {
        let progress = try MorseCourseProgress().applying(Self.result(), dayCalendar: Self.dayCalendar)
        let text = String(decoding: try progress.encodedJSON(), as: UTF8.self)
        let range = try #require(text.range(of: old))
        return Data(text.replacingCharacters(in: range, with: new).utf8)
    }

    @Test(
        arguments: [
            (#""level":2"#, #""level":27"#, MorseCourseProgressError.levelOutOfRange(27, order: .standard)),
            (#""level":2"#, #""level":0"#, .levelOutOfRange(0, order: .standard)),
            (#""level":2"#, #""level":3"#, .levelHistoryInconsistent),
            (#""correct":20"#, #""correct":21"#, .impossibleStatistics(attempts: 20, correct: 21, timedAttempts: 20)),
            (#""attempts":20"#, #""attempts":-1"#, .impossibleStatistics(attempts: -1, correct: 20, timedAttempts: 20)),
            (#""intervalDays":2"#, #""intervalDays":0"#, .intervalOutOfRange(0)),
        ] as [(String, String, MorseCourseProgressError)])
    func corruptProgressIsATypedError(_ old: String, _ new: String, _ error: MorseCourseProgressError) throws {
        let data = try Self.corrupted(old, new)
        #expect(throws: error) { try MorseCourseProgress.decoded(fromJSON: data) }
    }

    @Test func progressStoredWithTheOldCourseStreakStillReads() throws {
        let progress = try MorseCourseProgress().applying(Self.result(), dayCalendar: Self.dayCalendar)
        let text = String(decoding: try progress.encodedJSON(), as: UTF8.self)
        #expect(!text.contains("streak"))
        let old = Data(
            text.replacingOccurrences(
                of: #"{"courseStart""#,
                with: #"{"streak":{"current":1,"longest":1,"lastDay":"2026-11-02"},"courseStart""#
            ).utf8)
        #expect(old != Data(text.utf8))
        #expect(try MorseCourseProgress.decoded(fromJSON: old) == progress)
    }

    @Test func progressStoredWhenLevelOneHadOneCharacterKeepsItsCharacters() throws {
        // Receive: levels 2 and 3 reached; send never practised.
        var progress = try MorseCourseProgress().applying(Self.result(), dayCalendar: Self.dayCalendar)
        progress = try progress.applying(Self.result(level: 2, days: 1), dayCalendar: Self.dayCalendar)
        let text = String(decoding: try progress.encodedJSON(), as: UTF8.self)
        #expect(text.contains(#""firstLevelCharacters":2,"#))
        // The same numbers as stored before issue 25, when level n practised the first n characters.
        let old = try MorseCourseProgress.decoded(
            fromJSON: Data(text.replacingOccurrences(of: #""firstLevelCharacters":2,"#, with: "").utf8))
        // Old level 3 practised K M R: now level 2 does; reaching old level 2 (K M) is the start now.
        #expect(old[.receive].level == 2)
        #expect(progress.order.characters(atLevel: old[.receive].level).map(\.displayText) == ["K", "M", "R"])
        #expect(old[.receive].levelHistory.map(\.level) == [2])
        #expect(old[.receive].levelHistory.map(\.date) == [progress[.receive].levelHistory[1].date])
        #expect(old[.receive].characterStatistics == progress[.receive].characterStatistics)
        #expect(old[.receive].schedule == progress[.receive].schedule)
        // Old level 1 (K alone) is level 1, which now practises K M.
        #expect(old[.send].level == 1)
        // Once read, it is stored with the marker and reads back unchanged.
        let again = try MorseCourseProgress.decoded(fromJSON: old.encodedJSON())
        #expect(again == old)

        let unknown = Data(
            text.replacingOccurrences(of: #""firstLevelCharacters":2"#, with: #""firstLevelCharacters":3"#).utf8)
        #expect {
            try MorseCourseProgress.decoded(fromJSON: unknown)
        } throws: { error in
            if case MorseCourseProgressError.unreadable = error { true } else { false }
        }
    }

    @Test(arguments: ["", "{}", "[1]", "not json", #"{"order":"morse"}"#])
    func unreadableProgressIsATypedError(_ text: String) {
        #expect {
            try MorseCourseProgress.decoded(fromJSON: Data(text.utf8))
        } throws: { error in
            if case MorseCourseProgressError.unreadable = error { true } else { false }
        }
    }

    @Test func anUnknownCharacterInTheStatisticsIsUnreadable() throws {
        let data = try Self.corrupted(#""M":{"#, #""Ä":{"#)
        #expect {
            try MorseCourseProgress.decoded(fromJSON: data)
        } throws: { error in
            if case MorseCourseProgressError.unreadable = error { true } else { false }
        }
    }
}
