import Foundation
import GRDB
import MomentumCore
import MomentumStoreContract

extension MomentumDatabase {
    /// The stored names and the synced fields that hold them (entity type, field): what migration
    /// "v16" brings within the rule of issue 46 (``TextInput``: no bidirectional controls or
    /// U+FEFF in a one-line text).
    static let namedTexts: [(table: String, column: String, unique: Bool, fallback: String, maximum: Int)] = [
        ("focusTimer", "name", false, "Untitled", 100), ("checklistItem", "text", false, "Item", 200),
        ("breathingPreset", "name", true, "Untitled", 100), ("workoutProgram", "name", true, "Untitled", 100),
        ("meditationPreset", "name", true, "Untitled", 100),
        ("person", "name", true, "Person", PersonName.maximumLength),
    ]

    static let syncedNames: [(entityType: String, field: String, table: String)] = [
        ("focusTimer", "name", "focusTimer"), ("checklistItem", "text", "checklistItem"),
        ("meditationPreset", "name", "meditationPreset"),
    ]

    /// Names written before issue 46 that hold a bidirectional control or U+FEFF would no longer
    /// load (the store checks rows as it reads them) nor sync (a pulled change is checked too), so
    /// those characters are left out of them once — in the rows, in the replica's merged fields
    /// and in the log a server hands out. A name that was nothing else is named by its id; one that
    /// now collides with another ends in the first characters of its id (PostgreSQL's migration 12
    /// does the same).
    static func bringStoredNamesWithinTheNameRule(_ db: Database) throws {
        for (table, column, unique, fallback, maximum) in namedTexts {
            let rows = try Row.fetchAll(db, sql: "SELECT CAST(id AS TEXT) AS id, \(column) AS text FROM \(table)")
            for row in rows {
                let id: String = row["id"]
                let text: String = row["text"]
                guard TextInput.firstRefusedCharacter(in: text) != nil else { continue }
                let cleaned = cleanedName(text, id: id, fallback: fallback)
                var taken = false
                if unique {
                    let sql = """
                        SELECT count(*) FROM \(table) WHERE \(column) = ? COLLATE NOCASE AND CAST(id AS TEXT) != ?
                        """
                    taken = try Int.fetchOne(db, sql: sql, arguments: [cleaned, id]) ?? 0 > 0
                }
                let suffix = " " + id.prefix(8)
                try db.execute(
                    sql: "UPDATE \(table) SET \(column) = ? WHERE CAST(id AS TEXT) = ?",
                    arguments: [taken ? String(cleaned.prefix(maximum - suffix.count)) + suffix : cleaned, id])
            }
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, exerciseNames FROM workoutProgram") {
            let id: String = row["id"]
            let json: String = row["exerciseNames"]
            // try?: a migration leaves a value that does not read as it was: it only cleans values that read, and the
            // row's own reader names a bad one as a corrupt row
            guard let names = try? JSONDecoder().decode([String].self, from: Data(json.utf8)) else { continue }
            let cleaned = names.map { TextInput.cleaned($0).trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            // try?: encoding texts cannot fail (JSONEncoder throws only for non-finite numbers)
            guard cleaned != names, let encoded = try? JSONEncoder().encode(cleaned) else { continue }
            try db.execute(
                sql: "UPDATE workoutProgram SET exerciseNames = ? WHERE id = ?",
                arguments: [String(decoding: encoded, as: UTF8.self), id])
        }
        try bringSyncedNamesWithinTheNameRule(db)
    }

    /// The merged fields take the row's cleaned name (the same text), or the cleaned value where
    /// the row is gone; the log's changes their own value cleaned.
    private static func bringSyncedNamesWithinTheNameRule(_ db: Database) throws {
        let encoder = ChangeMessage.logEncoder
        for (entityType, field, table) in syncedNames {
            let fallback = namedTexts.first { $0.table == table }?.fallback ?? "Untitled"
            let column = table == "checklistItem" ? "text" : "name"
            let rows = try Row.fetchAll(
                db, sql: "SELECT entityId, value FROM syncField WHERE entityType = ? AND field = ?",
                arguments: [entityType, field])
            for row in rows {
                let id: String = row["entityId"]
                let value: String = row["value"]
                // try?: a migration leaves a value that does not read as it was: it only cleans values that read, and
                // the row's own reader names a bad one as a corrupt row
                guard case .string(let text)? = try? JSONDecoder().decode(SyncValue.self, from: Data(value.utf8)),
                    TextInput.firstRefusedCharacter(in: text) != nil
                else { continue }
                let stored = try String.fetchOne(
                    db, sql: "SELECT \(column) FROM \(table) WHERE id = ?", arguments: [id])
                let cleaned = stored ?? cleanedName(text, id: id, fallback: fallback)
                try db.execute(
                    sql: "UPDATE syncField SET value = ? WHERE entityType = ? AND entityId = ? AND field = ?",
                    arguments: [
                        String(decoding: try encoder.encode(SyncValue.string(cleaned)), as: UTF8.self), entityType, id,
                        field,
                    ])
            }
            let logged = try Row.fetchAll(
                db, sql: "SELECT seq, message FROM syncLog WHERE entityType = ? AND field = ?",
                arguments: [entityType, field])
            for row in logged {
                let text: String = row["message"]
                // try?: a migration leaves a value that does not read as it was: it only cleans values that read, and
                // the row's own reader names a bad one as a corrupt row (a log message that does not read is refused by
                // the pull's reader)
                guard var message = try? JSONDecoder().decode(ChangeMessage.self, from: Data(text.utf8)),
                    case .string(let value)? = message.value, TextInput.firstRefusedCharacter(in: value) != nil
                else { continue }
                message.value = .string(cleanedName(value, id: message.id, fallback: fallback))
                try db.execute(
                    sql: "UPDATE syncLog SET message = ? WHERE seq = ?",
                    arguments: [try message.logText(), row["seq"] as Int64])
            }
        }
    }

    /// `text` within the rule, trimmed; `fallback` and the first characters of `id` when nothing
    /// is left.
    private static func cleanedName(_ text: String, id: String, fallback: String) -> String {
        let cleaned = TextInput.cleaned(text).trimmingCharacters(in: .whitespaces)
        return cleaned.isEmpty ? "\(fallback) \(id.prefix(8))" : cleaned
    }
}
