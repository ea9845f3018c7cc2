import Foundation
import GRDB
import MomentumCore

/// The migrations that bring values written before an input rule within it (issues 21 and 22).
extension MomentumDatabase {
    /// Values written before the input rules of issue 21 that the rules now refuse would no
    /// longer load (the store checks rows as it reads them), so they are brought within them once:
    /// energy above the most one record may hold becomes that most, and the control characters
    /// of names, item texts, exercise names and notes become spaces (notes keep line breaks and
    /// tabs). A cleaned name that collides with another takes the first characters of its id.
    static func bringStoredValuesWithinInputRules(_ db: Database) throws {
        try db.execute(
            sql: "UPDATE practiceRecord SET energyKilocalories = ? WHERE energyKilocalories > ?",
            arguments: [PracticeRecord.maximumEnergyKilocalories, PracticeRecord.maximumEnergyKilocalories])
        let texts: [(table: String, column: String, lines: TextInput.Lines, unique: Bool)] = [
            ("focusTimer", "name", .single, false), ("focusTimer", "notes", .multiple, false),
            ("checklistItem", "text", .single, false), ("breathingPreset", "name", .single, true),
            ("workoutProgram", "name", .single, true),
        ]
        for (table, column, lines, unique) in texts {
            let rows = try Row.fetchAll(db, sql: "SELECT id, \(column) AS text FROM \(table)")
            for row in rows {
                let id: String = row["id"]
                let text: String = row["text"]
                var cleaned = TextInput.cleaned(text, lines: lines)
                guard cleaned != text else { continue }
                // A name that was nothing but control characters would now be blank, which the
                // rules refuse as well: it is named by its id instead.
                if lines == .single, cleaned.trimmingCharacters(in: .whitespaces).isEmpty {
                    cleaned = "\(table == "checklistItem" ? "Item" : "Untitled") \(id.prefix(4))"
                }
                let update = "UPDATE \(table) SET \(column) = ? WHERE id = ?"
                if unique,
                    try Int.fetchOne(
                        db, sql: "SELECT count(*) FROM \(table) WHERE \(column) = ? COLLATE NOCASE AND id != ?",
                        arguments: [cleaned, id]) ?? 0 > 0
                {
                    try db.execute(sql: update, arguments: ["\(cleaned) \(id.prefix(4))", id])
                } else {
                    try db.execute(sql: update, arguments: [cleaned, id])
                }
            }
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, exerciseNames FROM workoutProgram") {
            let id: String = row["id"]
            let json: String = row["exerciseNames"]
            // try?: a migration leaves a value that does not read as it was: it only cleans values that read, and the
            // row's own reader names a bad one as a corrupt row
            guard let names = try? JSONDecoder().decode([String].self, from: Data(json.utf8)) else { continue }
            // Exercise names that were nothing but control characters are dropped.
            let cleaned = names.map { TextInput.cleaned($0) }.filter {
                !$0.trimmingCharacters(in: .whitespaces).isEmpty
            }
            // try?: encoding texts cannot fail (JSONEncoder throws only for non-finite numbers)
            guard cleaned != names, let encoded = try? JSONEncoder().encode(cleaned) else { continue }
            try db.execute(
                sql: "UPDATE workoutProgram SET exerciseNames = ? WHERE id = ?",
                arguments: [String(decoding: encoded, as: UTF8.self), id])
        }
    }

    /// Values the input rules of issue 22 refuse, brought within them once: a preset's or a
    /// program's name longer than ``TextInput/maximumNameLength`` is cut to it (one that would
    /// then collide ends in the first characters of its id), a timer's unknown icon becomes
    /// ``FocusTimer/defaultIcon``, and the stored meditation plan loses the interval gongs that
    /// would sound at or after the end of its sit (they never sounded).
    static func bringStoredValuesWithinIssue22Rules(_ db: Database) throws {
        let maximum = TextInput.maximumNameLength
        for table in ["breathingPreset", "workoutProgram"] {
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, name FROM \(table) WHERE length(name) > ?", arguments: [maximum])
            for row in rows {
                let id: String = row["id"]
                let name: String = row["name"]
                guard name.count > maximum else { continue }
                var cut = String(name.prefix(maximum)).trimmingCharacters(in: .whitespaces)
                let taken =
                    try Int.fetchOne(
                        db, sql: "SELECT count(*) FROM \(table) WHERE name = ? COLLATE NOCASE AND id != ?",
                        arguments: [cut, id]) ?? 0 > 0
                if taken {
                    cut = String(name.prefix(maximum - 5)).trimmingCharacters(in: .whitespaces) + " " + id.prefix(4)
                }
                try db.execute(sql: "UPDATE \(table) SET name = ? WHERE id = ?", arguments: [cut, id])
            }
        }
        let icons = FocusTimer.icons.map { _ in "?" }.joined(separator: ", ")
        try db.execute(
            sql: "UPDATE focusTimer SET icon = ? WHERE icon NOT IN (\(icons))",
            arguments: StatementArguments([FocusTimer.defaultIcon] + FocusTimer.icons))
        // The synced icons too, in the replica and in the log a server hands out, so that a
        // device pulling the history from the start is not refused an icon from before the list.
        let icon = SyncValue.string(FocusTimer.defaultIcon)
        for row in try Row.fetchAll(
            db, sql: "SELECT entityId, value FROM syncField WHERE entityType = 'focusTimer' AND field = 'icon'")
        {
            let value: String = row["value"]
            // try?: a migration leaves a value that does not read as it was: it only cleans values that read, and the
            // row's own reader names a bad one as a corrupt row; encoding a text cannot fail
            guard let stored = try? JSONDecoder().decode(SyncValue.self, from: Data(value.utf8)),
                !FocusTimer.icons.contains(where: { stored == .string($0) }),
                // try?: encoding a text cannot fail
                let encoded = try? JSONEncoder().encode(icon)
            else { continue }
            try db.execute(
                sql:
                    "UPDATE syncField SET value = ? WHERE entityType = 'focusTimer' AND entityId = ? AND field = 'icon'",
                arguments: [String(decoding: encoded, as: UTF8.self), row["entityId"] as String])
        }
        for row in try Row.fetchAll(
            db, sql: "SELECT seq, message FROM syncLog WHERE entityType = 'focusTimer' AND field = 'icon'")
        {
            let text: String = row["message"]
            guard
                // try?: a migration leaves a value that does not read as it was: it only cleans values that read, and
                // the row's own reader names a bad one as a corrupt row
                var message = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
                let value = message["value"] as? String, !FocusTimer.icons.contains(value)
            else { continue }
            message["value"] = FocusTimer.defaultIcon
            let fixed = try JSONSerialization.data(withJSONObject: message, options: [.sortedKeys])
            try db.execute(
                sql: "UPDATE syncLog SET message = ? WHERE seq = ?",
                arguments: [String(decoding: fixed, as: UTF8.self), row["seq"] as Int64])
        }
        let planKey = "meditation.plan"
        if let json = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [planKey]),
            // try?: a stored plan that does not read is left as it was; the settings' reader falls back to the default
            // plan for it
            let plan = try? JSONDecoder().decode(MeditationPlan.self, from: Data(json.utf8)),
            plan.withoutIntervalGongsAtOrAfterEnd != plan
        {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let fixed = String(decoding: try encoder.encode(plan.withoutIntervalGongsAtOrAfterEnd), as: UTF8.self)
            try db.execute(sql: "UPDATE setting SET value = ? WHERE key = ?", arguments: [fixed, planKey])
        }
    }
}
