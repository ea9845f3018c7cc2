import Foundation

/// The focus timers and checklist items of everyone in a household but one person: what that
/// person's sync push may not name (docs/people.md).
///
/// A push merges into the pusher's own replica only. A change of another person's timer or item
/// (shared or not, its id guessed or known) would never reach theirs, and a checklist item of the
/// pusher's own whose `timerID` names another person's timer would hang under a timer the pusher
/// does not have — it would vanish from their views. Both are refused whole. An id no one has is
/// the pusher's to use: a timer made offline may arrive after its items.
///
/// ```swift
/// let others = OthersTimers(timerIDs: [adasTimer], itemIDs: [adasItem])
/// others.mayUse(timerID: bensTimer)                      // true
/// others.firstChangeNotYours(in: bensPush)               // the index of the first refused change
/// ```
public struct OthersTimers: Sendable, Equatable {
    /// Lower-case ids.
    public private(set) var timerIDs: Set<String>
    public private(set) var itemIDs: Set<String>

    public init(timerIDs: some Sequence<String> = [], itemIDs: some Sequence<String> = []) {
        self.timerIDs = Set(timerIDs.map { $0.lowercased() })
        self.itemIDs = Set(itemIDs.map { $0.lowercased() })
    }

    /// Notes another person's `timer` with its checklist.
    public mutating func insert(_ timer: FocusTimer) {
        timerIDs.insert(timer.id.uuidString.lowercased())
        for item in timer.items { itemIDs.insert(item.id.uuidString.lowercased()) }
    }

    /// Whether the person may name the timer `id` in their own data: any id but another person's.
    public func mayUse(timerID id: String) -> Bool {
        !timerIDs.contains(id.lowercased())
    }

    /// Whether `change` names another person's timer or item, by its own id or by the `timerID`
    /// it gives a checklist item.
    public func isNotYours(_ change: ChangeMessage) -> Bool {
        switch SyncEntityType(rawValue: change.type) {
        case .focusTimer?:
            return !mayUse(timerID: change.id)
        case .checklistItem?:
            if itemIDs.contains(change.id.lowercased()) { return true }
            guard change.op == "set", change.field == SyncEntityType.timerReferenceField,
                case .string(let timerID)? = change.value
            else { return false }
            return !mayUse(timerID: timerID)
        default:
            return false
        }
    }

    /// The index of the first of `changes` that names another person's timer or item, or `nil`.
    public func firstChangeNotYours(in changes: [ChangeMessage]) -> Int? {
        guard !timerIDs.isEmpty || !itemIDs.isEmpty else { return nil }
        return changes.firstIndex(where: isNotYours)
    }
}
