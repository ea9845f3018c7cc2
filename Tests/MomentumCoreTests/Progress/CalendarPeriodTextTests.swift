import Testing

@testable import MomentumCore

@Suite("YYYY-MM and YYYY: one strict reader for every front end")
struct CalendarPeriodTextTests {
    @Test func monthsAndYearsAreRead() {
        #expect(CalendarPeriodText.month("2026-11").map { [$0.year, $0.month] } == [2026, 11])
        #expect(CalendarPeriodText.month("0001-01").map { [$0.year, $0.month] } == [1, 1])
        #expect(CalendarPeriodText.month("9999-12").map { [$0.year, $0.month] } == [9999, 12])
        #expect(CalendarPeriodText.year("2026") == 2026)
        #expect(CalendarPeriodText.year("0001") == 1)
    }

    @Test(arguments: [
        "2026-13", "2026-00", "0000-01", "2026-1", "2026-011", "202-011", "+202-01", "2026/11", "2026-1\u{0}",
        "2026\u{7}-1", "2026-\u{1B}1", " 2026-11", "2026-11 ", "２０２６-11", "2026−11", "", "-2026-11", "2026-11-01",
    ])
    func anythingElseIsNotAMonth(text: String) {
        #expect(CalendarPeriodText.month(text) == nil)
    }

    @Test(arguments: ["0000", "202", "20266", "+202", "-202", "2026\n", "２０２６", "", "2O26", "20 6"])
    func anythingElseIsNotAYear(text: String) {
        #expect(CalendarPeriodText.year(text) == nil)
    }

    @Test func neighbouringMonthsAreNamedAcrossYearsAndStopAtTheReadableYears() {
        func named(_ year: Int, _ month: Int, _ offset: Int) -> String? {
            CalendarPeriodText.month(year: year, month: month, offset: offset)
                .map { CalendarPeriodText.monthText(year: $0.year, month: $0.month) }
        }
        #expect(named(2026, 11, 1) == "2026-12")
        #expect(named(2026, 12, 1) == "2027-01")
        #expect(named(2027, 1, -1) == "2026-12")
        #expect(named(2026, 3, -14) == "2025-01")
        #expect(named(1, 1, -1) == nil)
        #expect(named(9999, 12, 1) == nil)
        #expect(CalendarPeriodText.monthText(year: 7, month: 3) == "0007-03")
        // What is written is what the reader takes back.
        for (year, month) in [(1, 1), (2026, 11), (9999, 12)] {
            let text = CalendarPeriodText.monthText(year: year, month: month)
            #expect(CalendarPeriodText.month(text).map { [$0.year, $0.month] } == [year, month])
        }
    }
}
