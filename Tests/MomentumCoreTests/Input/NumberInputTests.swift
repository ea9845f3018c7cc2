import Foundation
import Testing

@testable import MomentumCore

@Suite("Numbers from outside are converted only when finite and in range")
struct NumberInputTests {
    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func aNumberThatIsNotFiniteIsRefused(_ value: Double) {
        #expect(throws: NumberInputError.notFinite(field: "x")) { try Int64(checking: value, field: "x") }
        #expect(throws: NumberInputError.notFinite(field: "x")) {
            try Duration(checkingMilliseconds: value, field: "x")
        }
        #expect(throws: NumberInputError.notFinite(field: "x")) { try Duration(checkingSeconds: value, field: "x") }
    }

    @Test(arguments: [1e300, -1.7e308, 9_223_372_036_854_775_808.0, -9_223_372_036_854_775_809.0 * 2])
    func aHugeNumberIsOutOfRangeInsteadOfATrap(_ value: Double) {
        #expect(throws: NumberInputError.self) { try Int64(checking: value, field: "x") }
        #expect(throws: NumberInputError.self) { try Duration(checkingMilliseconds: value, field: "x") }
        #expect(throws: NumberInputError.self) { try Duration(checkingMinutes: value, field: "x") }
    }

    @Test func wholeNumbersAreRoundedToTheNearest() throws {
        #expect(try Int64(checking: 12.6, field: "x") == 13)
        #expect(try Int32(checking: -2.4, field: "x") == -2)
        #expect(try UInt8(checking: 255.4, field: "x") == 255)
        #expect(throws: NumberInputError.outOfRange(field: "x", value: 255.6, bounds: 0...255)) {
            try UInt8(checking: 255.6, field: "x")
        }
        #expect(try Int64(checking: -9_223_372_036_854_775_808.0, field: "x") == .min)
    }

    @Test func durationsKeepMicroseconds() throws {
        #expect(try Duration(checkingMilliseconds: 5.5, field: "rise") == .microseconds(5500))
        #expect(try Duration(checkingSeconds: 1.25, field: "x") == .milliseconds(1250))
        #expect(try Duration(checkingMinutes: 2, field: "x") == .seconds(120))
        #expect(try Duration(checkingMilliseconds: 1e-320, field: "x") == .zero)
        #expect(try Duration(checkingMilliseconds: Duration.largestInputMilliseconds, field: "x") > .seconds(1e8))
    }

    @Test func theErrorNamesTheFieldAndTheBounds() {
        #expect(throws: NumberInputError.outOfRange(field: "responseMs", value: 1e300, bounds: -1e12...1e12)) {
            try Duration(checkingMilliseconds: 1e300, field: "responseMs")
        }
    }

    @Test func courseSettingsRefuseAHugeRiseTimeWithoutStopping() {
        let json =
            #"{"characterWPM":20,"effectiveWPM":13,"toneHertz":600,"riseMilliseconds":1e300,"order":"standard","sessionSeconds":300}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(MorseCourseSettings.self, from: Data(json.utf8))
        }
    }

    @Test func aToneRefusesAHugeRiseTimeWithoutStopping() {
        #expect(throws: NumberInputError.self) {
            try JSONDecoder().decode(MorseTone.self, from: Data(#"{"hertz":600,"riseMs":-1.7e308}"#.utf8))
        }
    }

    @Test func energyHasAnUpperBound() throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        func record(_ energy: Double) throws(PracticeRecordError) -> PracticeRecord {
            try PracticeRecord(
                id: UUID(), kind: .workout, start: start, end: start.addingTimeInterval(600), countedSeconds: 600,
                energyKilocalories: energy, device: "test")
        }
        #expect(try record(PracticeRecord.maximumEnergyKilocalories).energyKilocalories == 10_000)
        #expect(throws: PracticeRecordError.invalidEnergy) { try record(10_000.5) }
        #expect(throws: PracticeRecordError.invalidEnergy) { try record(.nan) }
        #expect(throws: PracticeRecordError.invalidEnergy) { try record(1e300) }
    }
}
