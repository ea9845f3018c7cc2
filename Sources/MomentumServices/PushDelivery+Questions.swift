import Foundation
import MomentumCore
import MomentumStoreContract

/// What leaves for each due outbox entry: a practice reminder the anti-nag policy still holds,
/// or a tracker's question still asked (docs/notifications.md).
extension PushDelivery {
    /// A tracker's question asked again: still there, its hour unchanged, its day unanswered,
    /// not in the quiet hours.
    func ask(
        _ due: ReminderInstant, usefulUntil: Date, services: MomentumServices, language: Language, now: Date
    ) async throws(StoreError) -> Outgoing {
        let asked = try await services.trackers.questions(
            from: due.dueAt.addingTimeInterval(-1), through: due.dueAt.addingTimeInterval(1))
        let decision = TrackerQuestion.stillAsked(
            reminderID: due.reminderID, dueAt: due.dueAt, questions: asked.questions, now: now,
            usefulUntil: usefulUntil, timeZone: asked.timeZone, quietHours: asked.quietHours)
        switch decision {
        case .refuse(let refusal): return .refuse(refusal.rawValue)
        case .ask(let question):
            guard let tracker = try await services.trackers.tracker(id: question.trackerID) else {
                return .refuse(ReminderDelivery.Refusal.noLongerPlanned.rawValue)
            }
            let today = try await services.progress.dayCalendar().day(of: now)
            return .send(
                PushMessage(question: question, tracker: tracker, today: today, language: language),
                topic: WebPushRequest.topic(for: question.reminderID))
        }
    }

    /// What leaves for one reminder or question: its message, or why nothing does.
    enum Outgoing {
        case send(PushMessage, topic: String?)
        case refuse(String)

        init(_ decision: ReminderDelivery.Decision, language: Language) {
            switch decision {
            case .refuse(let refusal): self = .refuse(refusal.rawValue)
            case .send(let reminder):
                self = .send(
                    PushMessage(reminder: reminder, language: language), topic: WebPushRequest.topic(for: reminder.id))
            }
        }
    }
}
