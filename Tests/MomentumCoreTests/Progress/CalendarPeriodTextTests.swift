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
}
