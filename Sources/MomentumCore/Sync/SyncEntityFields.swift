import Foundation

/// The synced fields of the app's own values, and the values a replica's merged fields make.
///
/// A replica stores what the merge keeps (``ReplicaState``); the rest of the app reads focus
/// timers, checklist items, practice records and settings. These functions turn one into the other,
/// in both directions, so a local edit becomes changes and a merged state becomes rows. A merged
/// state that does not make a valid value is never refused: missing or conflicting fields fall
/// back (see each function), and what cannot be made at all is left out (`nil`).
extension FocusTimer {
    /// The timer's own fields (its items are entities of their own).
    public var syncFields: [String: SyncValue] {
        [
            "name": .string(name),
            "durationMs": .integer(duration.wholeMilliseconds),
            "icon": .string(icon),
            "color": .string(color),
            "notes": .string(notes),
            "sortOrder": .integer(Int64(sortOrder)),
            "createdAt": .integer(createdAt.syncMilliseconds),
            "run": run.syncValue,
        ]
    }

    /// The timer a replica's fields make, with `items`; `nil` without a name or a duration.
    /// Missing fields take their defaults, a run that does not fit the duration falls back to idle,
    /// and a missing `createdAt` is `fallbackCreatedAt` (when the timer's first field was written).
    public static func synced(
        id: UUID, fields: [String: SyncValue], items: [ChecklistItem], fallbackCreatedAt: Date, updatedAt: Date
    ) -> FocusTimer? {
        guard case .string(let name)? = fields["name"], case .integer(let durationMs)? = fields["durationMs"] else {
            return nil
        }
        let duration = Duration.milliseconds(durationMs)
        var run = fields["run"].flatMap(FocusRun.init(syncValue:)) ?? .idle
        // try?: two devices' edits may leave a run that no longer fits the duration; it falls back
        // to idle, as docs/sync.md ("Merged changes") says.
        if (try? run.validate(duration: duration)) == nil { run = .idle }
        // try?: fields that make no valid timer together leave it out until a later change mends
        // it; its fields stay in the replica (docs/sync.md, "Merged changes").
        return try? FocusTimer(
            id: id, name: name, duration: duration,
            // An icon written before the icon list (issue 22) falls back rather than hiding the timer.
            icon: fields["icon"]?.text.flatMap { icons.contains($0) ? $0 : nil } ?? defaultIcon,
            color: fields["color"]?.text ?? defaultColor, notes: fields["notes"]?.text ?? "",
            sortOrder: fields["sortOrder"]?.integer.map { Int($0) } ?? 0,
            createdAt: fields["createdAt"]?.integer.map(Date.init(syncMilliseconds:)) ?? fallbackCreatedAt,
            updatedAt: updatedAt, items: Array(items.prefix(maximumItems)), run: run)
    }
}

extension ChecklistItem {
    /// The item's fields, naming its timer.
    public func syncFields(timerID: UUID) -> [String: SyncValue] {
        [
            SyncEntityType.timerReferenceField: .string(timerID.uuidString.lowercased()),
            "text": .string(text),
            "done": .bool(done),
            "sortOrder": .integer(Int64(sortOrder)),
            "createdAt": .integer(createdAt.syncMilliseconds),
        ]
    }

    /// The item a replica's fields make and the id of its timer; `nil` without a timer or a text.
    public static func synced(
        id: UUID, fields: [String: SyncValue], fallbackCreatedAt: Date, updatedAt: Date
    ) -> (item: ChecklistItem, timerID: UUID)? {
        guard let timerText = fields[SyncEntityType.timerReferenceField]?.text,
            let timerID = UUID(uuidString: timerText),
            let text = fields["text"]?.text
        else { return nil }
        var done = false
        if case .bool(let flag)? = fields["done"] { done = flag }
        guard
            // try?: an item that is not valid is left out until a later change mends it; its fields
            // stay in the replica (docs/sync.md, "Merged changes").
            let item = try? ChecklistItem(
                id: id, text: text, done: done, sortOrder: fields["sortOrder"]?.integer.map { Int($0) } ?? 0,
                createdAt: fields["createdAt"]?.integer.map(Date.init(syncMilliseconds:)) ?? fallbackCreatedAt,
                updatedAt: updatedAt)
        else { return nil }
        return (item, timerID)
    }
}

extension FocusRun {
    /// The run as one field: `{"status": "idle"}`, or its status with its instants (ms since 1970)
    /// and elapsed milliseconds.
    public var syncValue: SyncValue {
        switch self {
        case .idle:
            return .object(["status": .string("idle")])
        case .running(let start, let resumed, let before):
            return .object([
                "status": .string("running"), "startedAt": .integer(start.syncMilliseconds),
                "resumedAt": .integer(resumed.syncMilliseconds), "elapsedBeforeMs": .integer(before.wholeMilliseconds),
            ])
        case .paused(let start, let paused, let elapsed):
            return .object([
                "status": .string("paused"), "startedAt": .integer(start.syncMilliseconds),
                "pausedAt": .integer(paused.syncMilliseconds), "elapsedMs": .integer(elapsed.wholeMilliseconds),
            ])
        case .completed(let start, let completed, let elapsed):
            return .object([
                "status": .string("completed"), "startedAt": .integer(start.syncMilliseconds),
                "completedAt": .integer(completed.syncMilliseconds), "elapsedMs": .integer(elapsed.wholeMilliseconds),
            ])
        }
    }

    /// The run a `run` field holds, or `nil` when it is not one.
    public init?(syncValue value: SyncValue) {
        guard case .object(let object) = value, let status = object["status"]?.text else { return nil }
        func date(_ key: String) -> Date? { object[key]?.integer.map(Date.init(syncMilliseconds:)) }
        func duration(_ key: String) -> Duration? { object[key]?.integer.map { .milliseconds($0) } }
        switch status {
        case "idle": self = .idle
        case "running":
            guard let start = date("startedAt"), let resumed = date("resumedAt"),
                let before = duration("elapsedBeforeMs")
            else { return nil }
            self = .running(startedAt: start, resumedAt: resumed, elapsedBefore: before)
        case "paused":
            guard let start = date("startedAt"), let paused = date("pausedAt"), let elapsed = duration("elapsedMs")
            else { return nil }
            self = .paused(startedAt: start, pausedAt: paused, elapsed: elapsed)
        case "completed":
            guard let start = date("startedAt"), let completed = date("completedAt"),
                let elapsed = duration("elapsedMs")
            else { return nil }
            self = .completed(startedAt: start, completedAt: completed, elapsed: elapsed)
        default: return nil
        }
    }
}

extension PracticeRecord {
    /// The record's fields.
    public var syncFields: [String: SyncValue] {
        [
            "kind": .string(kind.rawValue),
            "start": .integer(start.syncMilliseconds),
            "end": .integer(end.syncMilliseconds),
            "countedSeconds": .integer(Int64(countedSeconds)),
            "energyKilocalories": energyKilocalories.map(SyncValue.number) ?? .null,
            "details": .object(details.mapValues(SyncValue.string)),
            "device": .string(device),
        ].mapValues(\.normalizedNumbers)
    }

    /// The record a replica's fields make, or `nil` when they do not make a valid one (a field
    /// missing, or an end before the start made by two devices' edits): such a record is left out
    /// of the log until a later change makes it whole.
    public static func synced(id: UUID, fields: [String: SyncValue]) -> PracticeRecord? {
        guard let kind = fields["kind"]?.text.flatMap(PracticeKind.init(rawValue:)),
            let start = fields["start"]?.integer, let end = fields["end"]?.integer,
            let counted = fields["countedSeconds"]?.integer, let device = fields["device"]?.text
        else { return nil }
        var energy: Double?
        switch fields["energyKilocalories"] {
        case .integer(let value)?: energy = Double(value)
        case .number(let value)?: energy = value
        default: energy = nil
        }
        var details: [String: String] = [:]
        if case .object(let object)? = fields["details"] { details = object.compactMapValues(\.text) }
        // try?: an end before the start made by two devices' edits leaves the record out of the
        // log until a later change mends it, as the doc above and docs/sync.md say.
        return try? PracticeRecord(
            id: id, kind: kind, start: Date(syncMilliseconds: start), end: Date(syncMilliseconds: end),
            countedSeconds: Int(counted), energyKilocalories: energy, details: details, device: device)
    }
}

extension MomentumSettings {
    /// The synced settings: every ``SettingKey`` in the text form ``set(_:to:ambientCatalog:)``
    /// reads. (Reminders and the affirmation rotation are this device's own.)
    public var syncTexts: [SettingKey: String] {
        Dictionary(uniqueKeysWithValues: SettingKey.allCases.map { ($0, text(for: $0)) })
    }

    /// These settings with the synced texts applied. A text that does not fit the others (an
    /// interval longer than the meditation) is tried again after the rest, and kept out when it
    /// still does not fit: the merged value stays in the replica, the setting keeps its value.
    public func applyingSyncTexts(_ texts: [SettingKey: String]) -> MomentumSettings {
        var settings = self
        var pending = SettingKey.allCases.filter { texts[$0] != nil }
        for _ in 0..<2 {
            pending = pending.filter { key in
                guard let text = texts[key], settings.text(for: key) != text else { return false }
                // try?: a text that does not fit the others is tried again after the rest and then
                // kept only in the replica, as the doc above and docs/sync.md say.
                return (try? settings.set(key, to: text)) == nil
            }
        }
        return settings
    }
}

extension MeditationPreset {
    /// The saved sit's fields: its name, its whole plan as one JSON text, when it was made.
    public var syncFields: [String: SyncValue] {
        [
            "name": .string(name),
            "plan": .string(plan.syncText),
            "createdAt": .integer(createdAt.syncMilliseconds),
            "sortOrder": .integer(Int64(sortOrder)),
        ]
    }

    /// The saved sit a replica's fields make; `nil` without a valid name or plan. A missing
    /// `createdAt` is `fallbackCreatedAt` (when its first field was written); a missing
    /// `sortOrder` (a device from before sits were reordered) is 0.
    public static func synced(id: String, fields: [String: SyncValue], fallbackCreatedAt: Date, updatedAt: Date)
        -> MeditationPreset?
    {
        guard let name = fields["name"]?.text, let plan = fields["plan"]?.text.flatMap(MeditationPlan.init(syncText:))
        else { return nil }
        // try?: a name that is not valid leaves the saved sit out until a later change mends it;
        // its fields stay in the replica (docs/sync.md, "Merged changes").
        return try? MeditationPreset(
            id: id, name: name, plan: plan,
            createdAt: fields["createdAt"]?.integer.map(Date.init(syncMilliseconds:)) ?? fallbackCreatedAt,
            updatedAt: updatedAt,
            sortOrder: fields["sortOrder"]?.integer.flatMap { Int(exactly: $0) } ?? 0)
    }
}

extension MeditationPlan {
    /// The plan's JSON text with sorted keys: one spelling for one plan.
    public var syncText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return String(decoding: try encoder.encode(self), as: UTF8.self)
        } catch {
            // JSONEncoder refuses only a non-finite number, and a plan's one number that is not an
            // integer is its ambient volume: saved sits, whose plans are synced, are validated by
            // MeditationPreset.init (volume within 0…1), and decoded JSON holds no NaN or infinity.
            // A fallback such as "{}" would sync the default plan in the sit's place.
            preconditionFailure("a meditation plan that JSON cannot hold: \(error)")
        }
    }

    /// The plan a synced JSON text stands for, or `nil` when it has a field a plan does not, or is
    /// out of the plan's bounds.
    public init?(syncText: String) {
        guard syncText.utf8.count <= 20_000,
            // try?: text that is not a plan, or a plan out of bounds, is `nil` as documented: the
            // field's rule refuses the change, and a merged state leaves the saved sit out.
            let plan = try? StrictJSON.decode(MeditationPlan.self, from: Data(syncText.utf8)),
            // try?: a plan out of its bounds is `nil` too, as above.
            (try? plan.validate()) != nil
        else { return nil }
        self = plan
    }
}

extension Date {
    /// Whole milliseconds since 1970, as synced fields hold instants.
    public var syncMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    public init(syncMilliseconds milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
