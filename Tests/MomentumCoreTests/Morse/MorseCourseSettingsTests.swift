import Foundation
import Testing

@testable import MomentumCore

@Suite("Morse course settings: defaults, bounds and stored values checked")
struct MorseCourseSettingsTests {
    @Test func theDefaultsAreTheSpecs() throws {
        let settings = try MorseCourseSettings()
        #expect(settings.timing.characterWPM == 20)
        #expect(settings.timing.effectiveWPM == 13)
        #expect(settings.tone == MorseTone.standard)
        #expect(settings.order == .standard)
        #expect(settings.sessionLength == .minutes(5))
        #expect(settings.keyer.timing == settings.timing)
    }

    @Test func valuesOutOfBoundsNameTheirCause() {
        #expect(throws: MorseCourseSettingsError.timing(.characterSpeedOutOfRange(61))) {
            try MorseCourseSettings(characterWPM: 61)
        }
        #expect(throws: MorseCourseSettingsError.timing(.effectiveSpeedOutOfRange(25))) {
            try MorseCourseSettings(characterWPM: 20, effectiveWPM: 25)
        }
        #expect(throws: MorseCourseSettingsError.tone(.toneOutOfRange(399))) { try MorseCourseSettings(toneHertz: 399) }
        #expect(throws: MorseCourseSettingsError.tone(.riseOutOfRange(.milliseconds(21)))) {
            try MorseCourseSettings(riseTime: .milliseconds(21))
        }
        #expect(throws: MorseCourseSettingsError.sessionLengthOutOfRange(.minutes(61))) {
            try MorseCourseSettings(sessionLength: .minutes(61))
        }
    }

    @Test func settingsRoundTripThroughJSONAndCorruptValuesAreRefused() throws {
        let settings = try MorseCourseSettings(
            characterWPM: 25, effectiveWPM: 15, toneHertz: 700, riseTime: .milliseconds(8), order: .extended,
            sessionLength: .minutes(10))
        let json = try JSONEncoder().encode(settings)
        #expect(try JSONDecoder().decode(MorseCourseSettings.self, from: json) == settings)
        let corrupt = Data(String(decoding: json, as: UTF8.self).replacingOccurrences(of: "700", with: "1700").utf8)
        #expect {
            try JSONDecoder().decode(MorseCourseSettings.self, from: corrupt)
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.underlyingError as? MorseCourseSettingsError == .tone(.toneOutOfRange(1700))
        }
    }
}
