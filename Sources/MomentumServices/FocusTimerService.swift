import Foundation
import MomentumCore
import MomentumStoreContract

/// Focus timers: making and editing them and their checklists, and running them. Every call
/// first settles timers whose time is up — logging each completion exactly once, as focus — and
/// then acts, all in one transaction.
public struct FocusTimerService: Sendable {
    private let repository: any FocusTimerRepository
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID
    /// The name its own changes carry when the request names no device (`web@host` on the server).
    public let device: String

    public init(
        repository: any FocusTimerRepository, now: @escaping @Sendable () -> Date,
        makeID: @escaping @Sendable () -> UUID, device: String
    ) {
        self.repository = repository
        self.now = now
        self.makeID = makeID
        self.device = device
    }

    /// Every timer in order, settled as of now.
    ///
    /// Only a timer whose time is up makes this a write (that timer's completion is stored and
    /// logged); otherwise the timers are only read. (Listing them used to save every timer again,
    /// so each `GET /api/v1/timers` was a write, and a full disk answered it with a 500.) A
    /// completion the full disk refused is shown all the same, and written by the first read after
    /// there is room.
    public func timers() async throws(FocusTimerServiceError) -> [FocusTimer] {
        let instant = now()
        let stored: [FocusTimer]
        do { stored = try await repository.focusTimers() } catch { throw .store(error) }
        let settled = stored.map { timer in
            var timer = timer
            _ = timer.settle(at: instant)
            return timer
        }
        guard settled != stored else { return stored }
        do throws(FocusTimerServiceError) {
            // Only the settled timers are saved (see `write`), not every timer.
            return try await write { timers in (FocusTimerChanges(), timers) }
        } catch {
            guard case .store(.diskFull) = error else { throw error }
            return settled
        }
    }

    /// Every timer in order as stored, not settled: a timer whose time is up still shows running
    /// (for what must settle it at another instant than now, ``FocusTimerIntentService``).
    public func storedTimers() async throws(FocusTimerServiceError) -> [FocusTimer] {
        do { return try await repository.focusTimers() } catch { throw .store(error) }
    }

    /// The timer called `name` (ignoring case), else the one timer whose name or id (4+
    /// characters) begins with it.
    public func timer(named name: String) async throws(FocusTimerServiceError) -> FocusTimer {
        let timers = try await timers()
        do {
            return try Self.find(name, in: timers)
        } catch {
            throw .invalid(error)
        }
    }

    /// Makes a timer, placed last. 25 minutes unless told otherwise.
    @discardableResult
    public func addTimer(
        name: String, duration: Duration = FocusTimer.defaultDuration, items: [String] = [],
        icon: String = FocusTimer.defaultIcon, color: String = FocusTimer.defaultColor, notes: String = ""
    ) async throws(FocusTimerServiceError) -> FocusTimer {
        let instant = now()
        return try await change { timers in
            try Self.checkNameIsFree(name, in: timers, except: nil)
            let timer = try FocusTimer(
                id: makeID(), name: name, duration: duration, icon: icon, color: color, notes: notes,
                sortOrder: (timers.map(\.sortOrder).max() ?? -1) + 1, createdAt: instant,
                items: try items.enumerated().map { index, text in
                    try ChecklistItem(id: makeID(), text: text, sortOrder: index, createdAt: instant)
                })
            return ([timer], timer)
        }
    }

    /// The fields a person can edit; `nil` leaves a field as it is.
    public struct Edit: Sendable, Equatable {
        public var name: String?
        public var duration: Duration?
        public var icon: String?
        public var color: String?
        public var notes: String?
        /// Items to add at the end of the checklist.
        public var addItems: [String]
        /// Items to remove (by number from 1, text or id prefix).
        public var removeItems: [String]

        public init(
            name: String? = nil, duration: Duration? = nil, icon: String? = nil, color: String? = nil,
            notes: String? = nil, addItems: [String] = [], removeItems: [String] = []
        ) {
            self.name = name
            self.duration = duration
            self.icon = icon
            self.color = color
            self.notes = notes
            self.addItems = addItems
            self.removeItems = removeItems
        }

        public var isEmpty: Bool { self == Edit() }
    }

    /// Changes a timer's fields and checklist. A new duration resets a run in progress.
    @discardableResult
    public func editTimer(named name: String, _ edit: Edit) async throws(FocusTimerServiceError) -> FocusTimer {
        let instant = now()
        return try await change { timers in
            var timer = try Self.find(name, in: timers)
            if let newName = edit.name {
                try Self.checkNameIsFree(newName, in: timers, except: timer.id)
                timer.name = newName.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            if let duration = edit.duration, duration != timer.duration {
                timer.duration = duration
                timer.run = .idle
            }
            if let icon = edit.icon { timer.icon = icon }
            if let color = edit.color { timer.color = color.uppercased() }
            if let notes = edit.notes { timer.notes = notes }
            for wanted in edit.removeItems {
                let item = try Self.findItem(wanted, in: timer)
                timer.items.removeAll { $0.id == item.id }
            }
            let next = (timer.items.map(\.sortOrder).max() ?? -1) + 1
            for (offset, text) in edit.addItems.enumerated() {
                timer.items.append(
                    try ChecklistItem(id: makeID(), text: text, sortOrder: next + offset, createdAt: instant))
            }
            timer.updatedAt = instant
            try timer.validate()
            return ([timer], timer)
        }
    }

    /// Deletes a timer and its checklist.
    public func deleteTimer(named name: String) async throws(FocusTimerServiceError) {
        try await write { timers in
            let timer = try Self.find(name, in: timers)
            return (FocusTimerChanges(deleted: [timer.id]), ())
        }
    }

    /// Moves a timer to `position` (from 1) and renumbers the order.
    @discardableResult
    public func moveTimer(named name: String, to position: Int) async throws(FocusTimerServiceError) -> [FocusTimer] {
        let instant = now()
        return try await change { timers in
            let timer = try Self.find(name, in: timers)
            guard (1...timers.count).contains(position) else {
                throw FocusTimerError.positionOutOfRange(position: position, count: timers.count)
            }
            var ordered = timers.filter { $0.id != timer.id }
            ordered.insert(timer, at: position - 1)
            let renumbered = ordered.enumerated().map { index, timer in
                var timer = timer
                if timer.sortOrder != index { timer.updatedAt = instant }
                timer.sortOrder = index
                return timer
            }
            return (renumbered, renumbered)
        }
    }

    /// Moves a checklist item to `position` (from 1) within its timer.
    @discardableResult
    public func moveItem(_ wanted: String, ofTimer name: String, to position: Int) async throws(FocusTimerServiceError)
        -> FocusTimer
    {
        let instant = now()
        return try await change { timers in
            var timer = try Self.find(name, in: timers)
            let item = try Self.findItem(wanted, in: timer)
            guard (1...timer.items.count).contains(position) else {
                throw FocusTimerError.positionOutOfRange(position: position, count: timer.items.count)
            }
            var items = timer.items.filter { $0.id != item.id }
            items.insert(item, at: position - 1)
            timer.items = items.enumerated().map { index, item in
                var item = item
                if item.sortOrder != index { item.updatedAt = instant }
                item.sortOrder = index
                return item
            }
            timer.updatedAt = instant
            return ([timer], timer)
        }
    }

    /// Ticks (or unticks) a checklist item.
    @discardableResult
    public func setItem(_ wanted: String, ofTimer name: String, done: Bool) async throws(FocusTimerServiceError)
        -> FocusTimer
    {
        let instant = now()
        return try await change { timers in
            var timer = try Self.find(name, in: timers)
            let item = try Self.findItem(wanted, in: timer)
            guard let index = timer.items.firstIndex(where: { $0.id == item.id }) else {
                throw FocusTimerError.unknownItem(wanted)
            }
            timer.items[index].done = done
            timer.items[index].updatedAt = instant
            timer.updatedAt = instant
            return ([timer], timer)
        }
    }

    /// Changes a checklist item's text.
    @discardableResult
    public func renameItem(_ wanted: String, ofTimer name: String, to text: String) async throws(FocusTimerServiceError)
        -> FocusTimer
    {
        let instant = now()
        return try await change { timers in
            var timer = try Self.find(name, in: timers)
            let item = try Self.findItem(wanted, in: timer)
            guard let index = timer.items.firstIndex(where: { $0.id == item.id }) else {
                throw FocusTimerError.unknownItem(wanted)
            }
            timer.items[index] = try ChecklistItem(
                id: item.id, text: text, done: item.done, sortOrder: item.sortOrder, createdAt: item.createdAt,
                updatedAt: instant)
            timer.updatedAt = instant
            try timer.validate()
            return ([timer], timer)
        }
    }

    /// Starts (or resumes) a timer; any other running timer is paused first.
    @discardableResult
    public func start(named name: String) async throws(FocusTimerServiceError) -> FocusTimer {
        try await start(named: name, requirePaused: false)
    }

    private func start(named name: String, requirePaused: Bool) async throws(FocusTimerServiceError) -> FocusTimer {
        let instant = now()
        return try await change { timers in
            var timer = try Self.find(name, in: timers)
            if requirePaused, timer.run.status != .paused { throw FocusTimerError.notPaused(timer.name) }
            var saved: [FocusTimer] = []
            for var other in timers where other.id != timer.id && other.run.status == .running {
                try other.pause(at: instant)
                saved.append(other)
            }
            try timer.start(at: instant)
            return (saved + [timer], timer)
        }
    }

    @discardableResult
    public func pause(named name: String) async throws(FocusTimerServiceError) -> FocusTimer {
        try await act(on: name) { timer, instant throws(FocusTimerError) in try timer.pause(at: instant) }
    }

    @discardableResult
    public func resume(named name: String) async throws(FocusTimerServiceError) -> FocusTimer {
        try await start(named: name, requirePaused: true)
    }

    @discardableResult
    public func reset(named name: String) async throws(FocusTimerServiceError) -> FocusTimer {
        try await act(on: name) { timer, instant throws(FocusTimerError) in timer.reset(at: instant) }
    }

    /// Marks a running or paused timer done now, logging the time counted.
    @discardableResult
    public func complete(named name: String) async throws(FocusTimerServiceError) -> FocusTimer {
        let instant = now()
        return try await write { timers in
            var timer = try Self.find(name, in: timers)
            if case .completed = timer.run { return (FocusTimerChanges(), timer) }
            try timer.complete(at: instant)
            let record = timer.completionRecord(id: makeID(), device: device)
            return (FocusTimerChanges(saved: [timer], records: record.map { [$0] } ?? []), timer)
        }
    }

    // MARK: - Helpers

    private func act(on name: String, _ action: (inout FocusTimer, Date) throws(FocusTimerError) -> Void)
        async
        throws(FocusTimerServiceError) -> FocusTimer
    {
        let instant = now()
        return try await change { timers in
            var timer = try Self.find(name, in: timers)
            try action(&timer, instant)
            return ([timer], timer)
        }
    }

    /// Runs `body` on the settled timers in one transaction: timers whose time ran out are saved
    /// completed and their records logged (`body` sees them), together with whatever `body` saves.
    private func change<Result: Sendable>(
        _ body: ([FocusTimer]) throws -> ([FocusTimer], Result)
    ) async throws(FocusTimerServiceError) -> Result {
        try await write { timers in
            let (saved, result) = try body(timers)
            return (FocusTimerChanges(saved: saved), result)
        }
    }

    /// As ``change(_:)``, for a body that also deletes timers or logs records.
    private func write<Result: Sendable>(
        _ body: ([FocusTimer]) throws -> (FocusTimerChanges, Result)
    ) async throws(FocusTimerServiceError) -> Result {
        let instant = now()
        let makeID = self.makeID
        let device = self.device
        do {
            return try await repository.changeFocusTimers(at: instant) { stored in
                var settled: [FocusTimer] = []
                var records: [PracticeRecord] = []
                for var timer in stored {
                    if timer.settle(at: instant) {
                        if let record = timer.completionRecord(id: makeID(), device: device) { records.append(record) }
                    }
                    settled.append(timer)
                }
                var (changes, result) = try body(settled)
                changes.records = records + changes.records
                // Settled timers are written even when the action leaves them alone.
                let savedIDs = Set(changes.saved.map(\.id)).union(changes.deleted)
                for (before, after) in zip(stored, settled) where before != after && !savedIDs.contains(after.id) {
                    changes.saved.append(after)
                }
                return (changes, result)
            }
        } catch let error as FocusTimerError {
            throw .invalid(error)
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.database(message: "\(error)"))
        }
    }

    static func find(_ wanted: String, in timers: [FocusTimer]) throws(FocusTimerError) -> FocusTimer {
        let folded = wanted.trimmingCharacters(in: .whitespaces).lowercased()
        if let byName = timers.first(where: { $0.name.lowercased() == folded }) { return byName }
        // Else the one timer whose name begins so ("morning" for "Morning pages"), or whose id does.
        let byPrefix = timers.filter { $0.name.lowercased().hasPrefix(folded) }
        let byID = timers.filter { IDPrefix.matches(folded, id: $0.id) }
        let found = folded.isEmpty ? [] : byPrefix + byID
        guard let first = found.first else { throw .unknownTimer(wanted) }
        guard found.count == 1 else { throw .ambiguousTimer(wanted) }
        return first
    }

    /// An item by its number (from 1), its text (ignoring case), or its id prefix.
    static func findItem(_ wanted: String, in timer: FocusTimer) throws(FocusTimerError) -> ChecklistItem {
        let trimmed = wanted.trimmingCharacters(in: .whitespaces)
        if let number = Int(trimmed), timer.items.indices.contains(number - 1) { return timer.items[number - 1] }
        let folded = trimmed.lowercased()
        if let byText = timer.items.first(where: { $0.text.lowercased() == folded }) { return byText }
        if let byID = timer.items.first(where: { IDPrefix.matches(folded, id: $0.id) }) {
            return byID
        }
        throw .unknownItem(wanted)
    }

    static func checkNameIsFree(_ name: String, in timers: [FocusTimer], except id: UUID?) throws(FocusTimerError) {
        let folded = name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if timers.contains(where: { $0.id != id && $0.name.lowercased() == folded }) {
            throw .nameTaken(name.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}
