import Foundation
import MomentumCore

/// What a restore needs to know of the store it restores into, read inside its transaction
/// before the walk decides anything (docs/backup.md). The rows' names are the document's (SQLite's
/// column names); each store reads them in its own terms.
public struct BackupRestoreTarget: Sendable {
    /// The columns a row of each kind has here, by the document's names.
    public var columns: [BackupKind: [String]] = [:]
    /// The keys (``BackupKind/key``, as text) of the rows of each kind here.
    public var keys: [BackupKind: Set<String>] = [:]
    /// The SHA-256 of every library item here.
    public var libraryContentHashes: Set<String> = []
    /// The names of every preset or program of each kind here.
    public var names: [BackupKind: [String]] = [:]
    /// Whether a person's view of a library item is kept only while the household has the item
    /// (PostgreSQL, where every person sees the household's one library); a view of an item that
    /// is neither here nor restored is then left out, and counted with the items left out.
    public var viewsNeedTheirItem = false

    public init() {}
}

extension BackupKind {
    /// The column that tells two rows apart.
    public var key: String {
        switch self {
        case .settings: "key"
        default: "id"
        }
    }

    /// Whether the order rows were written in matters — it breaks ties of their `sortOrder`, or
    /// is their order in a list — so a backup lists them in it; other kinds are listed by key.
    public var keepsWrittenOrder: Bool {
        switch self {
        case .breathingPresets, .meditationPresets, .workoutPrograms, .focusTimers, .checklistItems, .trackers: true
        default: false
        }
    }
}

/// Goes through every row of a backup, kind by kind in ``BackupKind``'s order, checks it — exactly
/// the store's columns, values a stored row may have — and decides whether a restore adds it:
/// rows whose key (or library audio) is not here yet. The plan and the restore of both stores
/// walk alike, so they decide alike.
public enum BackupRestoreWalk {
    /// The text a key value is compared as.
    public static func keyText(_ value: BackupValue) -> String? {
        switch value {
        case .text(let text): text
        case .integer(let integer): "\(integer)"
        default: nil
        }
    }

    /// Walks `document` against `target`. `libraryFileAvailable` says whether a library row's
    /// audio can be put in place (rows without it are skipped and counted); `checkRecord` is
    /// asked about each practice record to add (the rules that depend on the clock), with its
    /// number among them. With `add`, hands it each row to add, renamed where its name is taken.
    public static func walk(
        _ document: BackupDocumentReader, into target: BackupRestoreTarget,
        libraryFileAvailable: (LibraryItem) -> Bool, checkRecord: (PracticeRecord, Int) throws -> Void,
        add: ((BackupKind, BackupRow) throws -> Void)?
    ) throws -> BackupRestorePlan {
        for name in document.tableNames.sorted() where BackupKind(rawValue: name) == nil {
            throw BackupError.unknownTable(name)
        }
        var plan = BackupRestorePlan()
        var timersInBackup: Set<String> = []
        var timersAdded: Set<String> = []
        var libraryAdded: Set<String> = []
        var (trackersInBackup, trackersAdded, answeredDays): (Set<String>, Set<String>, Set<String>) = ([], [], [])
        let hashes = target.libraryContentHashes
        for kind in BackupKind.allCases {
            plan.counts[kind] = document.count(of: kind.rawValue)
            let columns = target.columns[kind] ?? []
            var seen: Set<String> = []
            var names = Set(foldedNames(kind, target))
            var index = 0
            try document.forEachRow(in: kind.rawValue) { backupRow in
                index += 1
                var backupRow = backupRow
                let invalid = { (reason: String) in
                    BackupError.invalidRow(table: kind.rawValue, row: index, reason: reason)
                }
                try check(backupRow, kind: kind, index: index, columns: columns)
                let keyValue = backupRow[kind.key] ?? .null
                guard let key = keyText(keyValue) else { throw invalid("\(kind.key) is missing") }
                guard seen.insert(key).inserted else { throw BackupError.repeatedID(table: kind.rawValue, id: key) }
                var isNew = !(target.keys[kind]?.contains(key) ?? false)
                var record: PracticeRecord?
                do {
                    switch kind {
                    case .settings:
                        let setting = try BackupRowDecoder.decode(SettingRow.self, from: backupRow)
                        if let reason = MomentumSettings.storedValueProblem(key: setting.key, value: setting.value) {
                            throw invalid(reason)
                        }
                    case .practiceLog:
                        record = try BackupRowDecoder.decode(PracticeRecordRow.self, from: backupRow).record()
                    case .breathingPresets:
                        let preset = try BackupRowDecoder.decode(BreathingPresetRow.self, from: backupRow).preset()
                        if isNew { rename(preset.name, in: &backupRow, taken: &names, plan: &plan) }
                    case .meditationPresets:
                        let preset = try BackupRowDecoder.decode(MeditationPresetRow.self, from: backupRow).preset()
                        if isNew { rename(preset.name, in: &backupRow, taken: &names, plan: &plan) }
                    case .workoutPrograms:
                        let program = try BackupRowDecoder.decode(WorkoutProgramRow.self, from: backupRow).program()
                        if isNew { rename(program.name, in: &backupRow, taken: &names, plan: &plan) }
                    case .focusTimers:
                        _ = try BackupRowDecoder.decode(FocusTimerRow.self, from: backupRow).timer(items: [])
                        timersInBackup.insert(key)
                        if isNew { timersAdded.insert(key) }
                    case .checklistItems:
                        let item = try BackupRowDecoder.decode(ChecklistItemRow.self, from: backupRow)
                        _ = try item.item()
                        guard timersInBackup.contains(item.timerId) else {
                            throw invalid("its timer \(item.timerId) is not in the backup")
                        }
                        // An item belongs to its timer: a timer kept as it is keeps its own items.
                        isNew = isNew && timersAdded.contains(item.timerId)
                    case .morseCourse:
                        let course = try BackupRowDecoder.decode(MorseCourseRow.self, from: backupRow)
                        guard course.id == 1,
                            // try?: progress that does not read refuses the backup just below
                            (try? JSONDecoder().decode(MorseCourseProgress.self, from: Data(course.progress.utf8)))
                                != nil
                        else { throw invalid("the course progress does not read") }
                    case .morseSessions:
                        _ = try BackupRowDecoder.decode(MorseSessionRow.self, from: backupRow).summary()
                    case .library:
                        let libraryRow = try BackupRowDecoder.decode(LibraryItemRow.self, from: backupRow)
                        let item = try libraryRow.item()
                        guard libraryRow.fileName == "\(libraryRow.id).\(libraryRow.format)",
                            BackupArchiveLayout.isLibraryFileName(libraryRow.fileName),
                            libraryRow.contentHash.count == 64,
                            libraryRow.contentHash.allSatisfy({ "0123456789abcdef".contains($0) })
                        else { throw invalid("the file name or SHA-256 is not one the library gives") }
                        if isNew, hashes.contains(libraryRow.contentHash) {
                            isNew = false
                        } else if isNew, !libraryFileAvailable(item) {
                            plan.skippedWithoutAudio += 1
                            return
                        }
                        if isNew {
                            plan.libraryItems.append(item)
                            libraryAdded.insert(key)
                        }
                    case .libraryViews:
                        _ = try BackupRowDecoder.decode(LibraryViewRow.self, from: backupRow).view()
                        if isNew, target.viewsNeedTheirItem, !libraryAdded.contains(key),
                            !(target.keys[.library]?.contains(key) ?? false)
                        {
                            plan.skippedWithoutAudio += 1
                            return
                        }
                    case .trackers:
                        let tracker = try BackupRowDecoder.decode(TrackerRow.self, from: backupRow).tracker()
                        trackersInBackup.insert(key)
                        if isNew {
                            trackersAdded.insert(key)
                            rename(tracker.name, in: &backupRow, taken: &names, plan: &plan)
                        }
                    case .trackerDays:
                        let day = try BackupRowDecoder.decode(TrackerDayRow.self, from: backupRow)
                        _ = try day.answered()
                        guard trackersInBackup.contains(day.trackerId) else {
                            throw invalid("its tracker \(day.trackerId) is not in the backup")
                        }
                        guard answeredDays.insert("\(day.trackerId) \(day.day)").inserted else {
                            throw invalid("its tracker has \(day.day) twice")
                        }
                        // A day belongs to its tracker: a tracker kept as it is keeps its own days.
                        isNew = isNew && trackersAdded.contains(day.trackerId)
                    }
                } catch let error as BackupError {
                    throw error
                } catch let StoreError.corruptRow(_, _, reason) {
                    throw invalid(reason)
                } catch let error as DecodingError {
                    throw invalid(reason(error))
                } catch {
                    throw invalid("\(error)")
                }
                if isNew, let record { try checkRecord(record, plan.added[kind, default: 0]) }
                if isNew {
                    try add?(kind, backupRow)
                    plan.added[kind, default: 0] += 1
                } else {
                    plan.kept[kind, default: 0] += 1
                }
            }
        }
        return plan
    }

    /// Exactly the store's columns, and texts clean of control characters.
    private static func check(_ values: BackupRow, kind: BackupKind, index: Int, columns: [String]) throws {
        for column in values.keys.sorted() where !columns.contains(column) {
            throw BackupError.unknownColumn(table: kind.rawValue, row: index, column: column)
        }
        for column in columns where values[column] == nil {
            throw BackupError.missingColumn(table: kind.rawValue, row: index, column: column)
        }
        for (column, value) in values {
            guard case .text(let text) = value else { continue }
            // Every stored text is clean of control characters but newlines in notes and details.
            if text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\t" || $0.value == 0x7f })
            {
                throw BackupError.invalidRow(
                    table: kind.rawValue, row: index, reason: "\(column) holds a control character")
            }
        }
    }

    private static func reason(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            context.debugDescription
        @unknown default: "\(error)"
        }
    }

    private static func foldedNames(_ kind: BackupKind, _ target: BackupRestoreTarget) -> [String] {
        switch kind {
        case .breathingPresets, .meditationPresets, .workoutPrograms, .trackers:
            (target.names[kind] ?? []).map { $0.lowercased() }
        default: []
        }
    }

    /// Gives a preset, program or tracker to add a free name ("Calm (2)") when another here has its own.
    private static func rename(
        _ name: String, in row: inout BackupRow, taken: inout Set<String>, plan: inout BackupRestorePlan
    ) {
        guard let free = LocalSyncChanges.freeName(name, taken: &taken) else { return }
        plan.renamed[name] = free
        row["name"] = .text(free)
    }
}

extension BackupValue {
    /// The text this value holds, if it is one.
    public var textValue: String? {
        if case .text(let text) = self { text } else { nil }
    }
}
