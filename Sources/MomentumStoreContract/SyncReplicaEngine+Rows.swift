import Foundation
import MomentumCore

extension SyncReplicaEngine {
    /// What the engine reads of the person's rows before it decides how to bring them up to date
    /// (``SyncReplicaPrimitives/storedRows(_:)``): one question, asked once per merge, so a store
    /// answers it in a few statements whatever the merge's size.
    public struct RowReads: Sendable, Equatable {
        /// Timers an item is to be filed under: whether each has a row, and the ids of its items.
        public var timers: Set<String> = []
        /// Records whose stored row is compared with the merged one.
        public var records: Set<String> = []
        /// Whether the stored settings are needed.
        public var settings = false
        /// Whether the names of the saved sits are needed.
        public var meditationPresetNames = false

        public var isEmpty: Bool { timers.isEmpty && records.isEmpty && !settings && !meditationPresetNames }
    }

    /// What a store read for ``RowReads``; what was not asked stays empty.
    public struct StoredRows: Sendable {
        /// Of the timers asked, those with a row.
        public var timersWithRows: Set<String> = []
        /// Of the timers asked, the ids of the items filed under each.
        public var itemsOfTimers: [String: Set<String>] = [:]
        /// Of the records asked, those stored (and still readable).
        public var records: [String: PracticeRecord] = [:]
        public var settingValues: [String: String] = [:]
        /// Every saved sit's name, by id.
        public var meditationPresetNames: [String: String] = [:]

        public init() {}
    }

    /// A write the engine decided; a store executes them in order
    /// (``SyncReplicaPrimitives/execute(_:at:)``).
    public enum Write {
        /// Keep what differs between two states of the loaded entities.
        case persist(StateChanges)
        /// Log a change (`origin` `local` or `remote`) under the next sequence number.
        case log(Change, origin: String)
        /// Find the sequence number a duplicate was logged under before.
        case findLogged(Change)
        case dropWritesBeaten(by: Change)
        case removeRow(SyncEntityKey)
        case saveTimer(FocusTimer)
        case saveItem(ChecklistItem, timerID: UUID)
        case saveRecord(PracticeRecord)
        case saveSettingValues([String: String])
        case saveMeditationPreset(MeditationPreset)
    }

    /// What executing the writes gave back.
    public struct Executed {
        public init() {}

        /// What each `log` write logged, in order.
        public var logged: [LoggedChange] = []
        /// Per `log` or `findLogged` write, in order: the sequence number (a duplicate's earlier
        /// one, if it is still logged).
        public var seqs: [Int64?] = []
    }

    /// The person's rows of the entities whose merged state changed, as the merged state makes
    /// them (`nil`: the state makes no valid value, so the entity has no row until a later change
    /// mends it). ``reads`` is what the plan needs to know of the stored rows;
    /// ``writes(given:)`` decides from them.
    struct RowPlan {
        var timers: [(id: String, timer: FocusTimer?)] = []
        var items: [(id: String, item: (ChecklistItem, timerID: UUID)?)] = []
        var records: [(id: String, record: PracticeRecord?)] = []
        /// `nil` when no setting changed.
        var settingTexts: [SettingKey: String]?
        var presets: [(id: String, preset: MeditationPreset?)] = []

        /// Nothing to bring up to date.
        init() {}

        init(from before: ReplicaState, to after: ReplicaState, at now: Date) {
            let changed = after.entitiesToMaterialize(since: before)
            for id in (changed[.focusTimer] ?? []).sorted() {
                let key = SyncEntityKey(type: .focusTimer, id: id)
                let timer = UUID(uuidString: id).flatMap { uuid in
                    after.values(of: key).flatMap { fields in
                        FocusTimer.synced(
                            id: uuid, fields: fields, items: [], fallbackCreatedAt: after.firstWritten(key),
                            updatedAt: now)
                    }
                }
                timers.append((id, timer))
            }
            for id in (changed[.checklistItem] ?? []).sorted() {
                let key = SyncEntityKey(type: .checklistItem, id: id)
                let item = UUID(uuidString: id).flatMap { uuid in
                    after.values(of: key).flatMap { fields in
                        ChecklistItem.synced(
                            id: uuid, fields: fields, fallbackCreatedAt: after.firstWritten(key), updatedAt: now)
                    }
                }
                items.append((id, item.map { ($0.item, $0.timerID) }))
            }
            for id in (changed[.practiceRecord] ?? []).sorted() {
                let key = SyncEntityKey(type: .practiceRecord, id: id)
                let record = UUID(uuidString: id).flatMap { uuid in
                    after.values(of: key).flatMap { PracticeRecord.synced(id: uuid, fields: $0) }
                }
                records.append((id, record))
            }
            if let ids = changed[.setting] {
                var texts: [SettingKey: String] = [:]
                for id in ids {
                    guard let key = SettingKey(rawValue: id),
                        case .string(let text)? = after.values(of: SyncEntityKey(type: .setting, id: id))?[
                            SyncEntityType.settingValueField]
                    else { continue }
                    texts[key] = text
                }
                settingTexts = texts
            }
            for id in (changed[.meditationPreset] ?? []).sorted() {
                let key = SyncEntityKey(type: .meditationPreset, id: id)
                let preset = after.values(of: key).flatMap { fields in
                    MeditationPreset.synced(
                        id: id, fields: fields, fallbackCreatedAt: after.firstWritten(key), updatedAt: now)
                }
                presets.append((id, preset))
            }
        }

        var reads: RowReads {
            var reads = RowReads()
            reads.timers = Set(items.compactMap { $0.item?.timerID.uuidString.lowercased() })
            reads.records = Set(records.compactMap { $0.record == nil ? nil : $0.id })
            reads.settings = settingTexts != nil
            reads.meditationPresetNames = presets.contains { $0.preset != nil }
            return reads
        }

        /// Timers first (an item needs its timer's row), then items — an item whose timer has no
        /// row, or whose timer is full, has no row either — records (one stored as merged is left
        /// alone), settings, and saved sits (one named like another here takes the first free
        /// "Name (2)", as a restore does). Each decision sees the ones before it: the items filed
        /// and the timers written earlier in the same merge, the sits named earlier.
        func writes(given rows: StoredRows) -> [Write] {
            var writes: [Write] = []
            var timersWithRows = rows.timersWithRows
            var itemsOfTimers = rows.itemsOfTimers
            for (id, timer) in timers {
                if let timer {
                    timersWithRows.insert(id)
                    writes.append(.saveTimer(timer))
                } else {
                    // A timer's row takes its items' rows with it.
                    timersWithRows.remove(id)
                    itemsOfTimers[id] = nil
                    writes.append(.removeRow(SyncEntityKey(type: .focusTimer, id: id)))
                }
            }
            for (id, planned) in items {
                for timer in itemsOfTimers.keys { itemsOfTimers[timer]?.remove(id) }
                guard let (item, timerID) = planned else {
                    writes.append(.removeRow(SyncEntityKey(type: .checklistItem, id: id)))
                    continue
                }
                let timer = timerID.uuidString.lowercased()
                guard timersWithRows.contains(timer), itemsOfTimers[timer, default: []].count < FocusTimer.maximumItems
                else {
                    writes.append(.removeRow(SyncEntityKey(type: .checklistItem, id: id)))
                    continue
                }
                itemsOfTimers[timer, default: []].insert(id)
                writes.append(.saveItem(item, timerID: timerID))
            }
            for (id, record) in records {
                guard let record else {
                    writes.append(.removeRow(SyncEntityKey(type: .practiceRecord, id: id)))
                    continue
                }
                if rows.records[id] != record { writes.append(.saveRecord(record)) }
            }
            if let settingTexts {
                let stored = rows.settingValues
                let settings = MomentumSettings(storedValues: stored).applyingSyncTexts(settingTexts)
                let changed = settings.storedValues.filter { stored[$0.key] != $0.value }
                if !changed.isEmpty { writes.append(.saveSettingValues(changed)) }
            }
            var names = rows.meditationPresetNames
            for (id, planned) in presets {
                guard var preset = planned else {
                    names[id] = nil
                    writes.append(.removeRow(SyncEntityKey(type: .meditationPreset, id: id)))
                    continue
                }
                var taken = Set(names.filter { $0.key != id }.values.map { $0.lowercased() })
                if let free = LocalSyncChanges.freeName(preset.name, taken: &taken) { preset.name = free }
                names[id] = preset.name
                writes.append(.saveMeditationPreset(preset))
            }
            return writes
        }
    }
}
