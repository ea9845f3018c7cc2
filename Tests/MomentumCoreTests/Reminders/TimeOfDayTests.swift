import Foundation
import MomentumCore
import Testing

@Suite("Times of day as people type them")
struct TimeOfDayTests {
    @Test(arguments: [
        ("07:30", "07:30"), ("7:30", "07:30"), ("00:00", "00:00"), ("23:59", "23:59"), (" 9:05 ", "09:05"),
    ])
    func aTimeReadsAndWritesBackAsHHMM(text: String, written: String) throws {
        #expect(try TimeOfDay(parsing: text).description == written)
    }

    @Test(arguments: [
        ("25:00", TimeOfDayError.hourOutOfRange("25:00")),
        ("24:00", .hourOutOfRange("24:00")),
        ("9:60", .minuteOutOfRange("9:60")),
        ("12:99", .minuteOutOfRange("12:99")),
        ("noon", .unreadable("noon")),
        ("7", .unreadable("7")),
        ("07:5", .unreadable("07:5")),
        ("", .unreadable("")),
        ("7:30pm", .unreadable("7:30pm")),
        ("-1:00", .unreadable("-1:00")),
        ("07:30:00", .unreadable("07:30:00")),
        ("１２:００", .unreadable("１２:００")),
    ])
    func aTimeThatIsNotOneIsRefusedWithItsCause(text: String, error: TimeOfDayError) {
        #expect(throws: error) { try TimeOfDay(parsing: text) }
    }

    @Test func theMessageNamesTheTextAndTheRangeInBothLanguages() {
        let error = ReminderSettingsError.invalidTime(.hourOutOfRange("25:00"))
        #expect(error.description == "“25:00” is not a time of day: hours go from 00 to 23.")
        #expect(StringCatalog.shared(for: .german).text(error.localized).contains("„25:00“"))
    }
}
