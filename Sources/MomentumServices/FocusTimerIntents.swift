import Crypto
import Foundation
import MomentumCore
import MomentumStoreContract

/// What a page did to a focus timer while the server was out of reach (docs/offline.md): started,
/// paused or reset it, or ticked an item of its checklist, at an instant of its own clock. The
/// page keeps these and sends them once the server is reached; the server applies each by the
/// core's rules at its instant and merges the result as a sync change stamped with that instant,
/// so the last change *made* wins, not the last to arrive (docs/sync.md, "The merge").
public struct FocusTimerIntent: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// Starts the timer afresh, or resumes it when paused (pausing any other running timer).
        case start
        case pause
        case reset
        /// Ticks (or unticks) an item of the timer's checklist.
        case tick(item: UUID, done: Bool)
    }

    public var timer: UUID
    public var action: Action
    /// When it was done, by the device's clock.
    public var at: Date

    public init(timer: UUID, action: Action, at: Date) {
        self.timer = timer
        self.action = action
        self.at = at
    }
}

/// What became of one intent.
public enum FocusTimerIntentOutcome: String, Sendable, Codable, Equatable {
    /// Merged: the timer or item is as the intent left it, unless a later change came since.
    case applied
    /// Sent before (an answer that never arrived): nothing changed now.
    case alreadyApplied
    /// Another device changed the same thing later: its change stays.
    case superseded
    /// The timer was not in a state for it (paused already, reset meanwhile): nothing changed.
    case notApplicable
    /// No such timer or item (deleted meanwhile, or a timer another person shared).
    case unknown
    /// Done longer ago than a report is kept (``RunReportRules/maximumAge``): not applied.
    case tooOld
    /// Its instant lies more than the sync clock's drift (``HybridLogicalClock/maximumDrift``)
    /// after the server's clock: the device's clock is wrong; not applied.
    case inTheFuture
}

/// Applies a page's focus-timer intents (``FocusTimerIntent``) through the sync merge.
public struct FocusTimerIntentService: Sendable {
    /// The most intents one sending may hold.
    public static let maximumCount = ChangeBatch.maximumCount / 4

    private let timers: FocusTimerService
    private let sync: SyncService
    private let now: @Sendable () -> Date

    public init(timers: FocusTimerService, sync: SyncService, now: @escaping @Sendable () -> Date) {
        self.timers = timers
        self.sync = sync
        self.now = now
    }

    /// Applies `intents` in the order they were done. `node` names the page as a replica
    /// (``HybridTimestamp/checkNode(_:)``, and `w-` first, so it never is a server's or a
    /// terminal's `n-` node); `device` is the page's name, shown as "changed by" (`nil`: a page
    /// without a name, stamped as the timers' own changes are).
    ///
    /// Each intent becomes changes stamped with its instant and the page's node; a field whose
    /// last change is later is left alone. The same intents sent again make the same stamps, so
    /// nothing is applied twice. The timers are taken as stored, not settled now: a timer that ran
    /// out before an intent's instant is completed at its end (its focus session logged once,
    /// under an id made from the timer and its start, so two sendings log it once) before the
    /// intent applies. What is still due after the last intent is settled as every read settles it.
    public func apply(_ intents: [FocusTimerIntent], node: String, device: String?)
        async throws(FocusTimerIntentError) -> [FocusTimerIntentOutcome]
    {
        guard intents.count <= Self.maximumCount else {
            throw .tooMany(count: intents.count, maximum: Self.maximumCount)
        }
        do {
            try HybridTimestamp.checkNode(node)
        } catch {
            throw .invalidNode
        }
        guard node.hasPrefix("w-"), node.count > 2 else { throw .invalidNode }
        let instant = now()
        let earliest = RunReportRules.window(around: instant).earliest
        let latest = instant.addingTimeInterval(HybridLogicalClock.maximumDrift.inSeconds)
        var working: [FocusTimer]
        do {
            working = try await timers.storedTimers()
        } catch {
            throw .timers(error)
        }
        var plan = IntentPlan(node: node, device: device ?? timers.device)
        var outcomes = [FocusTimerIntentOutcome](repeating: .unknown, count: intents.count)
        let order = intents.indices.sorted { (intents[$0].at, $0) < (intents[$1].at, $1) }
        for index in order {
            let intent = intents[index]
            if intent.at < earliest {
                outcomes[index] = .tooOld
                continue
            }
            if intent.at > latest {
                outcomes[index] = .inTheFuture
                continue
            }
            let at = Date(syncMilliseconds: intent.at.syncMilliseconds)
            // A timer that ran out by this instant ended then.
            for other in working.indices where working[other].settle(at: at) {
                try await completed(working[other], in: &plan)
            }
            let stamp = plan.stamp(at: at)
            outcomes[index] = try await outcome(of: intent, at: at, stamp: stamp, in: &working, plan: &plan)
        }
        do {
            _ = try await sync.acceptPush(plan.changes.map(ChangeMessage.init))
            // Settles what the intents left running and due by now, logging it as every read does.
            _ = try await timers.timers()
        } catch let error as SyncError {
            throw .sync(error)
        } catch let error as FocusTimerServiceError {
            throw .timers(error)
        } catch {
            throw .sync(.store(.database(message: "\(error)")))
        }
        return outcomes
    }

    private func outcome(
        of intent: FocusTimerIntent, at: Date, stamp: HybridTimestamp, in working: inout [FocusTimer],
        plan: inout IntentPlan
    ) async throws(FocusTimerIntentError) -> FocusTimerIntentOutcome {
        guard let index = working.firstIndex(where: { $0.id == intent.timer }) else { return .unknown }
        switch intent.action {
        case .tick(let itemID, let done):
            guard let item = working[index].items.firstIndex(where: { $0.id == itemID }) else { return .unknown }
            let key = SyncEntityKey(type: .checklistItem, id: itemID.uuidString.lowercased())
            if let decided = try await decided(key, "done", by: stamp) { return decided }
            working[index].items[item].done = done
            try plan.set(key, "done", .bool(done), stamp: stamp)
            return .applied
        case .start, .pause, .reset:
            let key = Self.runKey(intent.timer)
            if let decided = try await decided(key, "run", by: stamp) { return decided }
            var changed = working
            // Running timers another device started after this instant: they stay running.
            var laterStarts: [Date] = []
            do {
                switch intent.action {
                case .start:
                    for other in changed.indices where other != index && changed[other].run.status == .running {
                        if try await decided(Self.runKey(changed[other].id), "run", by: stamp) != nil {
                            if case .running(_, let resumedAt, _) = changed[other].run { laterStarts.append(resumedAt) }
                            continue
                        }
                        try changed[other].pause(at: at)
                    }
                    try changed[index].start(at: at)
                case .pause: try changed[index].pause(at: at)
                default: changed[index].reset(at: at)
                }
                // One timer runs at a time: a start made elsewhere later paused this one then.
                if let pausedAt = laterStarts.min(), pausedAt > at {
                    try changed[index].pause(at: pausedAt)
                }
            } catch {
                return .notApplicable
            }
            for (before, after) in zip(working, changed) where before.run != after.run {
                try plan.set(Self.runKey(after.id), "run", after.run.syncValue, stamp: stamp)
            }
            working = changed
            return .applied
        }
    }

    private static func runKey(_ timer: UUID) -> SyncEntityKey {
        SyncEntityKey(type: .focusTimer, id: timer.uuidString.lowercased())
    }

    /// A timer that ran out while the page was away: completed at its end, its session logged
    /// under an id made from the timer and its start (``completionID(of:)``), unless a later change
    /// of its run is there.
    private func completed(_ timer: FocusTimer, in plan: inout IntentPlan) async throws(FocusTimerIntentError) {
        guard case .completed(let start, let end, _) = timer.run else { return }
        let stamp = plan.stamp(at: end)
        if try await decided(Self.runKey(timer.id), "run", by: stamp) != nil { return }
        try plan.set(Self.runKey(timer.id), "run", timer.run.syncValue, stamp: stamp)
        guard
            let record = timer.completionRecord(
                id: Self.completionID(of: timer.id, startedAt: start), device: plan.device)
        else { return }
        try plan.put(record, stamp: stamp)
    }

    /// The same for every sending that completes this run: the first 16 bytes of the SHA-256 of
    /// the timer's id and its start, as a UUID (version 8, RFC 9562).
    static func completionID(of timer: UUID, startedAt: Date) -> UUID {
        let text = "focus-completion:\(timer.uuidString.lowercased()):\(startedAt.syncMilliseconds)"
        var bytes = Array(SHA256.hash(data: Data(text.utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// The outcome when the field's last change is this intent's own (sent before) or later.
    private func decided(_ key: SyncEntityKey, _ field: String, by stamp: HybridTimestamp)
        async throws(FocusTimerIntentError) -> FocusTimerIntentOutcome?
    {
        let last: FieldVersion?
        do {
            last = try await sync.lastChange(of: field, in: key)
        } catch {
            throw .sync(.store(error))
        }
        guard let last else { return nil }
        if last.stamp == stamp { return .alreadyApplied }
        return last.stamp > stamp ? .superseded : nil
    }
}

/// The changes a sending of intents makes, and their stamps: each intent's instant with a counter
/// that tells apart intents of one millisecond, on the page's node.
private struct IntentPlan {
    let node: String
    let device: String
    private(set) var changes: [Change] = []
    private var counters: [Int64: Int] = [:]

    init(node: String, device: String) {
        self.node = node
        self.device = device
    }

    mutating func stamp(at instant: Date) -> HybridTimestamp {
        let physical = instant.syncMilliseconds
        let counter = counters[physical, default: 0]
        counters[physical] = min(counter + 1, HybridTimestamp.maximumCounter)
        // The physical time lies between a month ago and five minutes ahead, the counter within
        // its bound and the node was checked: a stamp is always made.
        do {
            return try HybridTimestamp(physical: physical, counter: counter, node: node)
        } catch {
            preconditionFailure("an intent's stamp out of bounds: \(error)")
        }
    }

    mutating func set(_ key: SyncEntityKey, _ field: String, _ value: SyncValue, stamp: HybridTimestamp)
        throws(FocusTimerIntentError)
    {
        do {
            changes.append(
                try Change(
                    entityType: key.type, entityID: key.id, operation: .set(field: field, value: value), stamp: stamp,
                    device: device))
        } catch {
            throw .invalidChange(error)
        }
    }

    mutating func put(_ record: PracticeRecord, stamp: HybridTimestamp) throws(FocusTimerIntentError) {
        do {
            changes.append(
                try Change(
                    entityType: .practiceRecord, entityID: record.id.uuidString.lowercased(),
                    operation: .put(fields: record.syncFields), stamp: stamp, device: device))
        } catch {
            throw .invalidChange(error)
        }
    }
}

/// Why a sending of intents was refused whole (nothing of it applied).
public enum FocusTimerIntentError: Error, Equatable, Sendable {
    case tooMany(count: Int, maximum: Int)
    /// The page's node is not a web page's replica name (`w-` and letters, digits, `. _ @ : -`).
    case invalidNode
    /// A change the core's sync rules refuse (a device name too long).
    case invalidChange(ChangeError)
    case timers(FocusTimerServiceError)
    case sync(SyncError)
}
