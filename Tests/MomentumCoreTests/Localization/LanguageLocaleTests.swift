import Foundation
import Testing

@testable import MomentumCore

@Suite("One locale per language")
struct LanguageLocaleTests {
    @Test func eachLanguageHasOneLocaleAndItsTag() {
        #expect(Language.english.bcp47Tag == "en-GB")
        #expect(Language.german.bcp47Tag == "de-DE")
        #expect(Language.english.locale.identifier == "en_GB")
        #expect(Language.german.locale.identifier == "de_DE")
        for language in Language.allCases {
            #expect(Language(localeIdentifier: language.localeIdentifier) == language)
        }
    }

    @Test func monthNamesAndDatesAreTheLanguages() {
        #expect(Language.english.monthName(11) == "November")
        #expect(Language.german.monthName(3) == "März")
        #expect(Language.german.monthName(13) == "13")
        let instant = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15T08:00:00Z
        let gmt = TimeZone(identifier: "GMT")!
        #expect(Language.english.dateFormatter(format: "HH:mm", timeZone: gmt).string(from: instant) == "08:00")
        let german = Language.german.dateFormatter(template: "d MMMM", timeZone: gmt).string(from: instant)
        #expect(german == "15. Januar")
    }

    @Test func numbersTakeTheLanguagesDecimalMarkNeverTheMachines() {
        #expect(Language.english.number(12.5) == "12.5")
        #expect(Language.german.number(12.5) == "12,5")
        #expect(Language.german.number(48_000) == "48.000")
        #expect(Language.english.number(7.26, fractionDigits: 1) == "7.3")
        #expect(Language.english.number(5) == "5")
    }
}
