import Foundation
import Testing

@testable import MomentumCore

/// The send-time rules of a reminder push: due soon, useful until the end of its day, sent only
/// when the plan made just before its instant still holds it, at most two a day.
@Suite("Reminder delivery")
struct ReminderDeliveryTests {
    let zone = TimeZone(identifier: "Europe/Berlin") ?? .gmt

    /// 2026-12-01 19:00 in Berlin.
    var seven: Date { Date(timeIntervalSince1970: 1_764_612_000) }

    private func reminder(_ id: String, at instant: Date, day: Day? = nil) -> PlannedReminder {
        PlannedReminder(
            id: id, plannedDay: day ?? DayCalendar(unchecked: zone).day(of: instant), kind: .daily,
            category: .mindfulness, fireAt: instant, title: LocalizedText(.reminderDailyTitleMindfulness),
            body: LocalizedText(.reminderDailyBody, ["time": "19:00"]))
    }

    @Test func aReminderIsDueSoonWithinTwoMinutes() {
        let planned = reminder("daily.a", at: seven)
        #expect(ReminderDelivery.isDueSoon(planned, at: seven.addingTimeInterval(-120)))
        #expect(!ReminderDelivery.isDueSoon(planned, at: seven.addingTimeInterval(-121)))
        #expect(ReminderDelivery.isDueSoon(planned, at: seven.addingTimeInterval(30)))
    }

    @Test func aReminderIsUsefulUntilTheEndOfItsLocalDay() {
        // 19:00 Berlin (UTC+1) → the next local midnight, 23:00 UTC.
        #expect(ReminderDelivery.usefulUntil(seven, timeZone: zone) == seven.addingTimeInterval(5 * 3600))
        #expect(ReminderDelivery.dayStart(of: seven, timeZone: zone) == seven.addingTimeInterval(-19 * 3600))
    }

    @Test func theSameReminderAtTheSameInstantIsSent() {
        let planned = reminder("daily.a", at: seven)
        let decision = ReminderDelivery.decide(
            reminderID: "daily.a", dueAt: seven, plan: [planned], deliveredToday: [], now: seven.addingTimeInterval(2),
            timeZone: zone)
        #expect(decision == .send(planned))
    }

    @Test func aReminderThePlanNoLongerHoldsAtItsInstantIsNotSent() {
        // Practised since (the plan dropped it), or moved by new quiet hours (another instant).
        for plan in [[], [reminder("daily.a", at: seven.addingTimeInterval(3600))], [reminder("daily.b", at: seven)]] {
            #expect(
                ReminderDelivery.decide(
                    reminderID: "daily.a", dueAt: seven, plan: plan, deliveredToday: [], now: seven, timeZone: zone)
                    == .refuse(.noLongerPlanned))
        }
    }

    @Test func aDayThatHadTwoRemindersTakesNoThirdButTheSameOneReachesAnotherDevice() {
        let planned = reminder("daily.c", at: seven)
        let twoOthers: Set = ["daily.a.2026-12-01", "daily.b.2026-12-01"]
        #expect(
            ReminderDelivery.decide(
                reminderID: "daily.c", dueAt: seven, plan: [planned], deliveredToday: twoOthers, now: seven,
                timeZone: zone) == .refuse(.dayIsFull))
        #expect(
            ReminderDelivery.decide(
                reminderID: "daily.c", dueAt: seven, plan: [planned],
                deliveredToday: ["daily.a.2026-12-01", planned.occurrenceID], now: seven, timeZone: zone)
                == .send(planned))
    }

    @Test func aReminderPastItsDayIsNotSent() {
        let planned = reminder("daily.a", at: seven)
        #expect(
            ReminderDelivery.decide(
                reminderID: "daily.a", dueAt: seven, plan: [planned], deliveredToday: [],
                now: seven.addingTimeInterval(5 * 3600), timeZone: zone) == .refuse(.expired))
    }

    @Test func theSendTimeCheckPlansJustBeforeTheInstant() {
        #expect(ReminderDelivery.replanInstant(for: seven) == seven.addingTimeInterval(-1))
    }

    @Test func trackerQuestionsDoNotCountInTheDaysTwo() {
        let planned = reminder("daily.a", at: seven)
        let sent: Set<String> = ["tracker.a.2026-12-01", "tracker.b.2026-12-01", "daily.x.2026-12-01"]
        #expect(
            ReminderDelivery.decide(
                reminderID: "daily.a", dueAt: seven, plan: [planned], deliveredToday: sent, now: seven, timeZone: zone)
                == .send(planned))
        #expect(
            ReminderDelivery.decide(
                reminderID: "daily.a", dueAt: seven, plan: [planned],
                deliveredToday: sent.union(["daily.y.2026-12-01"]),
                now: seven, timeZone: zone) == .refuse(.dayIsFull))
    }
}
