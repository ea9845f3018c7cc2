import Foundation
import MomentumCore
import MomentumStoreContract

/// Why a focus timer could not be found, made, changed or run. Nothing is changed in any case.
public enum FocusTimerServiceError: Error, Equatable, Sendable {
    case invalid(FocusTimerError)
    case store(StoreError)
}

/// A focus timer with its checklist, as every front end shows it: `GET /api/v1/focus-timers`
/// answers it and `momentum timer list|show --json` prints it. Times are milliseconds (`…Ms`),
/// instants ISO 8601; `sortOrder` counts from 0 (the API's), `position` from 1 (what
/// `timer move` takes).
public struct FocusTimerView: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var durationMs: Int64
    public var icon: String
    public var color: String
    public var notes: String
    public var sortOrder: Int
    public var position: Int
    public var status: FocusRun.Status
    public var elapsedMs: Int64
    public var remainingMs: Int64
    public var startedAt: Date?
    public var dueAt: Date?
    public var items: [Item]
    /// The owner's name, for a timer another person shared (absent for one's own).
    public var owner: String?

    public struct Item: Codable, Sendable, Equatable {
        public var id: String
        public var text: String
        public var done: Bool
    }

    public init(_ timer: FocusTimer, at now: Date, owner: String? = nil) {
        self.owner = owner
        id = timer.id.uuidString.lowercased()
        name = timer.name
        durationMs = timer.duration.wholeMilliseconds
        icon = timer.icon
        color = timer.color
        notes = timer.notes
        sortOrder = timer.sortOrder
        position = timer.sortOrder + 1
        status = timer.status(at: now)
        elapsedMs = timer.elapsed(at: now).wholeMilliseconds
        remainingMs = timer.remaining(at: now).wholeMilliseconds
        startedAt = timer.run.startedAt
        dueAt = timer.dueAt
        items = timer.items.map { Item(id: $0.id.uuidString.lowercased(), text: $0.text, done: $0.done) }
    }
}
