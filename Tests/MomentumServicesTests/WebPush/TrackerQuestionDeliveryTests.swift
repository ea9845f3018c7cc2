import Foundation
import MomentumCore
import MomentumServices
import MomentumStoreContract
import MomentumStoreTestSupport
import Testing

/// A tracker's question as a push, on both stores: asked at its hour to every device beside the
/// practice reminder of the same minute, with Yes and No; not asked when its day was answered
/// after it was planned; a newer question of the same tracker replaces an older on the device.
@Suite("Tracker questions as pushes on both stores")
struct TrackerQuestionDeliveryTests {
    @Test(arguments: StoreKind.available)
    func theQuestionGoesToEveryDeviceAtItsHourBesideTheReminder(kind: StoreKind) async throws {
        let setup = try await PushDeliveryTests().setup(kind)
        let tracker = try await setup.anna.trackers.add(
            name: "Alcohol-free", askAt: try TimeOfDay(hour: 19), about: .today)
        #expect(await setup.delivery.plan(at: PushDeliveryTests.beforeDue) == 4)
        let outbox = try await setup.anna.store.pushOutbox()
        let questions = outbox.filter { TrackerQuestion.isQuestion($0.reminderID) }
        #expect(questions.count == 2)
        #expect(questions.allSatisfy { $0.occurrenceID == "tracker.\(tracker.id.uuidString.lowercased()).2027-01-15" })
        setup.clock.set(PushDeliveryTests.due)
        let reports = await setup.delivery.send(at: PushDeliveryTests.due)
        #expect(reports.count == 4 && reports.allSatisfy { $0.settlement == .delivered })
        let topics = Set(setup.service.received.withLock { $0.compactMap { $0.header("Topic") } })
        #expect(
            topics == [
                WebPushRequest.topic(for: "daily.evening"),
                WebPushRequest.topic(for: "tracker.\(tracker.id.uuidString.lowercased())"),
            ])
        // Asked once: planned again, nothing new.
        #expect(await setup.delivery.plan(at: PushDeliveryTests.due.addingTimeInterval(30)) == 0)
    }

    @Test(arguments: StoreKind.available)
    func aDayAnsweredAfterPlanningIsNotAsked(kind: StoreKind) async throws {
        let setup = try await PushDeliveryTests().setup(kind)
        _ = try await setup.anna.trackers.add(name: "Alcohol-free", askAt: try TimeOfDay(hour: 19), about: .today)
        #expect(await setup.delivery.plan(at: PushDeliveryTests.beforeDue) == 4)
        try await setup.anna.trackers.answer("Alcohol-free", true)
        setup.clock.set(PushDeliveryTests.due)
        let reports = await setup.delivery.send(at: PushDeliveryTests.due)
        let questions = reports.filter { TrackerQuestion.isQuestion($0.entry.reminderID) }
        #expect(questions.count == 2 && questions.allSatisfy { $0.settlement == .dropped("no-longer-planned") })
        #expect(reports.filter { $0.settlement == .delivered }.count == 2)
    }

    @Test func theQuestionCarriesYesAndNoAndWhereTheAnswerGoes() throws {
        let tracker = try Tracker(
            id: UUID(uuidString: "00000000-0000-4000-8000-000000000042") ?? UUID(), name: "Alkoholfrei",
            askAt: try TimeOfDay(hour: 8), about: .yesterday, createdAt: PushDeliveryTests.beforeDue)
        let today = try Day(parsing: "2027-01-15")
        let question = TrackerQuestion(
            trackerID: tracker.id, day: today.adding(days: -1), askAt: PushDeliveryTests.beforeDue)
        let message = PushMessage(question: question, tracker: tracker, today: today, language: .german)
        #expect(message.kind == "tracker")
        #expect(message.title == "Alkoholfrei gestern?")
        #expect(message.actions.map(\.action) == ["yes", "no"])
        #expect(message.actions.map(\.title) == ["Ja", "Nein"])
        #expect(message.answer?.path == "/api/v1/trackers/00000000-0000-4000-8000-000000000042/days/2027-01-14")
        #expect(message.tag == "tracker.00000000-0000-4000-8000-000000000042.2027-01-14")
        #expect(message.encoded().count < 4096)
    }
}
