import Foundation
import MomentumCore

// The rows of a person's data as SQLite keeps them and a backup document lists them (docs/backup.md):
// column for column, by SQLite's column names; each turns into its domain value, checked.

/// A focus timer as stored: its run spread over nullable instants the table's checks keep
/// consistent with `runState`.
public struct FocusTimerRow: Codable, Sendable, Equatable {
    /// The table SQLite keeps these rows in, and their kind's name in errors.
    public static let tableName = "focusTimer"
    public var id: String
    public var name: String
    public var durationMs: Int64
    public var icon: String
    public var color: String
    public var notes: String
    public var sortOrder: Int
    public var createdAtMs: Int64
    public var updatedAtMs: Int64
    public var runState: String
    public var startedAtMs: Int64?
    public var resumedAtMs: Int64?
    public var pausedAtMs: Int64?
    public var completedAtMs: Int64?
    public var elapsedMs: Int64

    public init(_ timer: FocusTimer) {
        id = timer.id.uuidString.lowercased()
        name = timer.name
        durationMs = timer.duration.wholeMilliseconds
        icon = timer.icon
        color = timer.color
        notes = timer.notes
        sortOrder = timer.sortOrder
        createdAtMs = timer.createdAt.millisecondsSince1970
        updatedAtMs = timer.updatedAt.millisecondsSince1970
        let run = FocusRunColumns(timer.run)
        (runState, startedAtMs, resumedAtMs) = (run.state, run.startedAtMs, run.resumedAtMs)
        (pausedAtMs, completedAtMs, elapsedMs) = (run.pausedAtMs, run.completedAtMs, run.elapsedMs)
    }

    public func run() -> FocusRun? {
        FocusRunColumns(
            state: runState, startedAtMs: startedAtMs, resumedAtMs: resumedAtMs, pausedAtMs: pausedAtMs,
            completedAtMs: completedAtMs, elapsedMs: elapsedMs
        ).run
    }

    public func timer(items: [ChecklistItemRow]) throws(StoreError) -> FocusTimer {
        func corrupt(_ reason: String) -> StoreError {
            .corruptRow(table: Self.tableName, id: id, reason: reason)
        }
        guard let uuid = UUID(uuidString: id) else { throw corrupt("id is not a UUID") }
        guard let run = run() else { throw corrupt("run state \(runState) lacks its instants") }
        var checklist: [ChecklistItem] = []
        for item in items { checklist.append(try item.item()) }
        do {
            return try FocusTimer(
                id: uuid, name: name, duration: .milliseconds(durationMs), icon: icon, color: color, notes: notes,
                sortOrder: sortOrder, createdAt: Date(millisecondsSince1970: createdAtMs),
                updatedAt: Date(millisecondsSince1970: updatedAtMs), items: checklist, run: run)
        } catch {
            throw corrupt("\(error)")
        }
    }
}

/// A checklist item as stored.
public struct ChecklistItemRow: Codable, Sendable, Equatable {
    /// The table SQLite keeps these rows in, and their kind's name in errors.
    public static let tableName = "checklistItem"
    public var id: String
    public var timerId: String
    public var text: String
    public var done: Bool
    public var sortOrder: Int
    public var createdAtMs: Int64
    public var updatedAtMs: Int64

    public init(_ item: ChecklistItem, timerID: UUID) {
        id = item.id.uuidString.lowercased()
        timerId = timerID.uuidString.lowercased()
        text = item.text
        done = item.done
        sortOrder = item.sortOrder
        createdAtMs = item.createdAt.millisecondsSince1970
        updatedAtMs = item.updatedAt.millisecondsSince1970
    }

    public func item() throws(StoreError) -> ChecklistItem {
        guard let uuid = UUID(uuidString: id) else {
            throw .corruptRow(table: Self.tableName, id: id, reason: "id is not a UUID")
        }
        do {
            return try ChecklistItem(
                id: uuid, text: text, done: done, sortOrder: sortOrder,
                createdAt: Date(millisecondsSince1970: createdAtMs), updatedAt: Date(millisecondsSince1970: updatedAtMs)
            )
        } catch {
            throw .corruptRow(table: Self.tableName, id: id, reason: "\(error)")
        }
    }
}

/// A guided meditation of the library as stored: times in milliseconds.
public struct LibraryItemRow: Codable, Sendable, Equatable {
    /// The table SQLite keeps these rows in, and their kind's name in errors.
    public static let tableName = "library_items"
    public var id: String
    public var originalTeacher: String?
    public var originalName: String
    public var originalAlbum: String?
    public var editedTeacher: String?
    public var editedName: String?
    public var durationMs: Int64
    public var format: String
    public var fileName: String
    public var originalFileName: String
    public var byteSize: Int64
    public var contentHash: String
    public var importedAtMs: Int64
    public var isAmbientBed: Bool
    public var positionMs: Int64
    public var updatedAtMs: Int64

    public init(_ item: LibraryItem, updatedAt: Date) {
        id = item.id.uuidString.lowercased()
        originalTeacher = item.originalTeacher
        originalName = item.originalName
        originalAlbum = item.originalAlbum
        editedTeacher = item.editedTeacher
        editedName = item.editedName
        durationMs = item.duration.wholeMilliseconds
        format = item.format.rawValue
        fileName = item.fileName
        originalFileName = item.originalFileName
        byteSize = item.byteSize
        contentHash = item.contentHash
        importedAtMs = item.importedAt.millisecondsSince1970
        isAmbientBed = item.isAmbientBed
        positionMs = item.position.wholeMilliseconds
        updatedAtMs = updatedAt.millisecondsSince1970
    }

    public func item() throws(StoreError) -> LibraryItem {
        func corrupt(_ reason: String) -> StoreError {
            .corruptRow(table: Self.tableName, id: id, reason: reason)
        }
        guard let uuid = UUID(uuidString: id) else { throw corrupt("the id is not a UUID") }
        guard let format = LibraryAudioFormat(rawValue: format) else { throw corrupt("unknown format \(format)") }
        return LibraryItem(
            id: uuid, originalTeacher: originalTeacher, originalName: originalName, originalAlbum: originalAlbum,
            editedTeacher: editedTeacher, editedName: editedName, duration: .milliseconds(durationMs), format: format,
            fileName: fileName, originalFileName: originalFileName, byteSize: byteSize, contentHash: contentHash,
            importedAt: Date(millisecondsSince1970: importedAtMs), isAmbientBed: isAmbientBed,
            position: .milliseconds(positionMs))
    }
}

/// One person's view of a library item as stored (see ``LibraryPersonalView``).
public struct LibraryViewRow: Codable, Sendable, Equatable {
    /// The table SQLite keeps these rows in, and their kind's name in errors.
    public static let tableName = "library_views"
    public var id: String
    public var hasEdits: Bool
    public var editedTeacher: String?
    public var editedName: String?
    public var isAmbientBed: Bool?
    public var positionMs: Int64
    public var updatedAtMs: Int64

    public init(_ view: LibraryPersonalView, updatedAt: Date) {
        id = view.itemID.uuidString.lowercased()
        hasEdits = view.hasEdits
        editedTeacher = view.editedTeacher
        editedName = view.editedName
        isAmbientBed = view.isAmbientBed
        positionMs = max(0, view.position.wholeMilliseconds)
        updatedAtMs = updatedAt.millisecondsSince1970
    }

    public func view() throws(StoreError) -> LibraryPersonalView {
        guard let uuid = UUID(uuidString: id) else {
            throw .corruptRow(table: Self.tableName, id: id, reason: "the id is not a UUID")
        }
        return LibraryPersonalView(
            itemID: uuid, hasEdits: hasEdits, editedTeacher: editedTeacher, editedName: editedName,
            isAmbientBed: isAmbientBed, position: .milliseconds(positionMs))
    }
}
