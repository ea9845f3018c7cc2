import Foundation
import Testing

@testable import MomentumCore

@Suite("Sound interruptions: which are worth telling, how they are kept and said")
struct SoundInterruptionTests {
    func interruption(_ offsetMilliseconds: Int64, _ lengthMilliseconds: Int64) throws -> SoundInterruption {
        try SoundInterruption(offsetMilliseconds: offsetMilliseconds, lengthMilliseconds: lengthMilliseconds)
    }

    // MARK: Hostile input

    @Test(arguments: [Int64(-1), 36_000_001, .max, .min])
    func anOffsetOutsideTheLongestPracticeIsRefused(offset: Int64) {
        #expect(throws: SoundInterruptionError.offsetOutOfRange) { try interruption(offset, 4000) }
    }

    @Test(arguments: [Int64(-1), 36_000_001, .max, .min])
    func aLengthBelowZeroOrOverTenHoursIsRefused(length: Int64) {
        #expect(throws: SoundInterruptionError.lengthOutOfRange) { try interruption(0, length) }
    }

    @Test func theBoundsThemselvesAreTaken() throws {
        let longest = try interruption(36_000_000, 36_000_000)
        #expect(longest.offset == Timeline.longestRender)
        #expect(longest.length == .seconds(36_000))
        #expect(try interruption(0, 0).length == .zero)
    }

    @Test func moreThanFiveHundredReportedAtOnceAreRefusedWithTheirCount() throws {
        let many = (0...500).map { (offset: Int64($0) * 10_000, length: Int64(2000)) }
        #expect(throws: SoundInterruptionError.tooMany(count: 501, maximum: 500)) {
            try SoundInterruption.reported(milliseconds: many)
        }
        let fiveHundred = try SoundInterruption.reported(milliseconds: Array(many.prefix(500)))
        #expect(fiveHundred.count == 500)
        #expect(SoundInterruption.worthTelling(fiveHundred).count == 20)
    }

    @Test func oneBadReportRefusesThemAll() {
        #expect(throws: SoundInterruptionError.lengthOutOfRange) {
            try SoundInterruption.reported(milliseconds: [(751_000, 4000), (800_000, -1)])
        }
    }

    // MARK: The rule

    @Test func onlyAnInterruptionOverOneSecondIsWorthTelling() throws {
        #expect(try !interruption(0, 1000).isWorthTelling)
        #expect(try interruption(0, 1001).isWorthTelling)
        let told = try SoundInterruption.worthTelling([
            interruption(1_200_000, 2500), interruption(600_000, 500), interruption(751_000, 4000),
            interruption(900_000, 1000),
        ])
        #expect(try told == [interruption(751_000, 4000), interruption(1_200_000, 2500)])
    }

    @Test func stallsWithinASecondOfTheFirstAreOneInterruptionOfTheirLengthsTogether() throws {
        let told = try SoundInterruption.worthTelling([
            interruption(10_400, 600), interruption(10_000, 600), interruption(10_900, 600), interruption(11_000, 300),
        ])
        // 10.0, 10.4 and 10.9 s are one (1.8 s); 11.0 s starts a new one, too short to tell.
        #expect(try told == [interruption(10_000, 1800)])
    }

    @Test func atMostTwentyAreKeptTheFirstInOrder() throws {
        let reported = try (0..<30).reversed().map { try interruption(Int64($0) * 60_000, 2000) }
        let told = SoundInterruption.worthTelling(reported)
        #expect(told.count == 20)
        #expect(told.first?.offset == .zero)
        #expect(told.last?.offset == .seconds(19 * 60))
    }

    @Test func mergingNeverOutlastsTheLongestLength() throws {
        let told = try SoundInterruption.worthTelling([interruption(0, 36_000_000), interruption(500, 36_000_000)])
        #expect(told.map(\.length) == [SoundInterruption.longestLength])
    }

    // MARK: Kept with the record

    @Test func theDetailsTextIsOffsetPlusLengthInMillisecondsAndReadsBack() throws {
        let told = try [interruption(751_000, 4000), interruption(1_200_000, 2500)]
        let text = SoundInterruption.detailsText(told)
        #expect(text == "751000+4000,1200000+2500")
        #expect(SoundInterruption.parsing(detailsText: text) == told)
        let longest = SoundInterruption.detailsText(
            try (0..<20).map { try interruption(36_000_000 - Int64($0) * 2000, 36_000_000) })
        #expect(longest.count <= 360)
    }

    @Test(arguments: [
        "", "garbage", "751000+4000,", ",751000+4000", "751000+4000,x", "751000-4000", "-751000+4000",
        "751000++4000", "+751000+4000", "751000+4000+1", "751000+NaN", "1e3+4000", "751000.5+4000", " 751000+4000",
        "99999999999999999999+4000", "36000001+4000", "751000+36000001",
        String(repeating: "1+2000,", count: 200) + "1+2000",
    ])
    func aMalformedDetailsTextYieldsNoInterruptions(text: String) {
        #expect(SoundInterruption.parsing(detailsText: text) == [])
    }

    @Test func aRecordReadsItsInterruptionsFromItsDetails() throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var record = try PracticeRecord(
            id: UUID(), kind: .breathing, start: start, end: start.addingTimeInterval(600), countedSeconds: 600,
            details: ["soundInterruptions": "751000+4000,900000+800"], device: "d")
        #expect(try record.soundInterruptions == [interruption(751_000, 4000)])
        record.details = ["soundInterruptions": "oops"]
        #expect(record.soundInterruptions == [])
        record.details = [:]
        #expect(record.soundInterruptions == [])
    }

    // MARK: Said

    @Test func theSentenceSaysTheLengthInWordsAndThePositionAsTheClockShowsIt() throws {
        let english = StringCatalog.shared(for: .english)
        let german = StringCatalog.shared(for: .german)
        let atTwelveThirtyOne = try interruption(751_000, 4000)
        #expect(atTwelveThirtyOne.sentence(english) == "The sound was interrupted for 4 s at 12:31.")
        #expect(atTwelveThirtyOne.sentence(german) == "Der Ton war bei 12:31 für 4 Sek. unterbrochen.")
        let pastAnHour = try interruption(3_661_000, 65_000)
        #expect(pastAnHour.sentence(english) == "The sound was interrupted for 1 min 5 s at 1:01:01.")
        #expect(
            SoundInterruption.sentences([atTwelveThirtyOne, pastAnHour], catalog: english)
                == "The sound was interrupted for 4 s at 12:31. The sound was interrupted for 1 min 5 s at 1:01:01.")
        #expect(SoundInterruption.sentences([], catalog: german) == nil)
    }
}
