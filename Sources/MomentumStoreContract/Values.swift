import Foundation
import MomentumCore

/// A focus timer of `ownerID` that `personID` sees and ticks too.
public struct TimerShare: Sendable, Equatable, Hashable {
    public var ownerID: Person.ID
    public var timerID: UUID
    public var personID: Person.ID

    public init(ownerID: Person.ID, timerID: UUID, personID: Person.ID) {
        self.ownerID = ownerID
        self.timerID = timerID
        self.personID = personID
    }
}

/// What one change to the focus timers writes, all in one transaction.
public struct FocusTimerChanges: Sendable, Equatable {
    /// Timers added or changed, with their whole checklists (items not listed are removed).
    public var saved: [FocusTimer]
    /// Timers deleted, their items with them.
    public var deleted: [UUID]
    /// Practice records to log (completed timers).
    public var records: [PracticeRecord]

    public init(saved: [FocusTimer] = [], deleted: [UUID] = [], records: [PracticeRecord] = []) {
        self.saved = saved
        self.deleted = deleted
        self.records = records
    }
}
