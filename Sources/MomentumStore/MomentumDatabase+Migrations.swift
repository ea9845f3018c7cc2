import Foundation
import GRDB
import MomentumCore

extension MomentumDatabase {
    /// The schema's history. Append only: a released migration is never edited, so every
    /// database ever written can be brought up to date.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: settings and practice log") { db in
            try db.create(table: "setting") { table in
                table.primaryKey("key", .text)
                table.column("value", .text).notNull()
                table.column("updatedAtMs", .integer).notNull()
            }
            try db.create(table: "practiceRecord") { table in
                table.primaryKey("id", .text)
                table.column("kind", .text).notNull()
                    .check { ["meditation", "guided", "breathing", "workout", "morse", "focus"].contains($0) }
                table.column("startMs", .integer).notNull()
                table.column("endMs", .integer).notNull()
                table.column("countedSeconds", .integer).notNull().check { $0 >= 0 }
                table.column("energyKilocalories", .double).check { $0 == nil || $0 >= 0 }
                table.column("details", .text).notNull().defaults(to: "{}")
                table.column("device", .text).notNull()
                table.column("createdAtMs", .integer).notNull()
                table.column("updatedAtMs", .integer).notNull()
                table.check(sql: "endMs >= startMs")
            }
            try db.create(index: "practiceRecord_startMs", on: "practiceRecord", columns: ["startMs"])
        }
        migrator.registerMigration("v2: breathing presets") { db in
            try db.create(table: "breathingPreset") { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull().unique(onConflict: .abort).collate(.nocase)
                    .check(sql: "length(trim(name)) > 0")
                table.column("inhaleMs", .integer).notNull().check { $0 >= 1000 && $0 <= 60_000 }
                table.column("holdAfterInhaleMs", .integer).notNull().check { $0 >= 0 && $0 <= 60_000 }
                table.column("exhaleMs", .integer).notNull().check { $0 >= 1000 && $0 <= 60_000 }
                table.column("holdAfterExhaleMs", .integer).notNull().check { $0 >= 0 && $0 <= 60_000 }
                table.column("rounds", .integer).notNull().check { $0 >= 1 && $0 <= 99 }
                table.column("createdAtMs", .integer).notNull()
                table.column("updatedAtMs", .integer).notNull()
            }
        }
        migrator.registerMigration("v3: focus timers and checklists") { db in
            try db.create(table: "focusTimer") { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull().check(sql: "length(trim(name)) > 0")
                table.column("durationMs", .integer).notNull().check { $0 >= 1000 && $0 <= 86_400_000 }
                table.column("icon", .text).notNull()
                table.column("color", .text).notNull()
                table.column("notes", .text).notNull().defaults(to: "")
                table.column("sortOrder", .integer).notNull()
                table.column("createdAtMs", .integer).notNull()
                table.column("updatedAtMs", .integer).notNull()
                // The run: which instants exist follows from its state, and nothing else is allowed.
                table.column("runState", .text).notNull().defaults(to: "idle")
                    .check { ["idle", "running", "paused", "completed"].contains($0) }
                table.column("startedAtMs", .integer)
                table.column("resumedAtMs", .integer)
                table.column("pausedAtMs", .integer)
                table.column("completedAtMs", .integer)
                table.column("elapsedMs", .integer).notNull().defaults(to: 0)
                table.check(sql: "elapsedMs >= 0 AND elapsedMs <= durationMs")
                table.check(
                    sql: """
                        (runState = 'idle' AND startedAtMs IS NULL AND resumedAtMs IS NULL AND pausedAtMs IS NULL
                            AND completedAtMs IS NULL AND elapsedMs = 0)
                        OR (runState = 'running' AND startedAtMs IS NOT NULL AND resumedAtMs IS NOT NULL
                            AND pausedAtMs IS NULL AND completedAtMs IS NULL)
                        OR (runState = 'paused' AND startedAtMs IS NOT NULL AND resumedAtMs IS NULL
                            AND pausedAtMs IS NOT NULL AND completedAtMs IS NULL)
                        OR (runState = 'completed' AND startedAtMs IS NOT NULL AND resumedAtMs IS NULL
                            AND pausedAtMs IS NULL AND completedAtMs IS NOT NULL)
                        """)
            }
            try db.create(table: "checklistItem") { table in
                table.primaryKey("id", .text)
                table.column("timerId", .text).notNull().indexed()
                    .references("focusTimer", onDelete: .cascade)
                table.column("text", .text).notNull().check(sql: "length(trim(text)) > 0")
                table.column("done", .boolean).notNull().defaults(to: false)
                table.column("sortOrder", .integer).notNull()
                table.column("createdAtMs", .integer).notNull()
                table.column("updatedAtMs", .integer).notNull()
            }
        }
        migrator.registerMigration("v4: workout programs") { db in
            try db.create(table: "workoutProgram") { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull().unique(onConflict: .abort).collate(.nocase)
                    .check(sql: "length(trim(name)) > 0")
                table.column("getReadySeconds", .integer).notNull().check { $0 >= 0 && $0 <= 60 }
                table.column("warmUpSeconds", .integer).notNull().check { $0 >= 0 && $0 <= 1800 }
                table.column("workSeconds", .integer).notNull().check { $0 >= 1 && $0 <= 600 }
                table.column("restSeconds", .integer).notNull().check { $0 >= 0 && $0 <= 600 }
                table.column("rounds", .integer).notNull().check { $0 >= 1 && $0 <= 200 }
                table.column("sets", .integer).notNull().check { $0 >= 1 && $0 <= 20 }
                table.column("setRestSeconds", .integer).notNull().check { $0 >= 0 && $0 <= 600 }
                table.column("coolDownSeconds", .integer).notNull().check { $0 >= 0 && $0 <= 1800 }
                table.column("exerciseNames", .text).notNull().defaults(to: "[]")
                table.column("activity", .text).notNull().check { ["hiit", "yoga", "other"].contains($0) }
                table.column("createdAtMs", .integer).notNull()
                table.column("updatedAtMs", .integer).notNull()
            }
        }
        migrator.registerMigration("v5: access tokens") { db in
            try db.create(table: "accessToken") { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull()
                // The SHA-256 of the secret, hex: the secret itself is never stored.
                table.column("secretHash", .text).notNull().unique(onConflict: .abort)
                    .check(sql: "length(secretHash) = 64")
                table.column("createdAtMs", .integer).notNull()
                table.column("revokedAtMs", .integer)
            }
        }
        migrator.registerMigration("v6: a revision for cached progress") { db in
            // One number that grows with every change to the log or the settings, in any process
            // (the terminal may write while the server runs): readers cache what they computed
            // from both and recompute only when it moves.
            try db.execute(
                sql: """
                    CREATE TABLE storeRevision (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        value INTEGER NOT NULL);
                    INSERT INTO storeRevision (id, value) VALUES (1, 0);
                    """)
            for table in ["practiceRecord", "setting"] {
                for event in ["INSERT", "UPDATE", "DELETE"] {
                    try db.execute(
                        sql: """
                            CREATE TRIGGER \(table)_\(event.lowercased())_revision AFTER \(event) ON \(table)
                            BEGIN UPDATE storeRevision SET value = value + 1 WHERE id = 1; END;
                            """)
                }
            }
        }
        migrator.registerMigration("v7: the Morse course") { db in
            try db.create(table: "morseCourse") { table in
                table.primaryKey("id", .integer).check { $0 == 1 }
                // MorseCourseProgress as JSON: levels, per-character statistics, schedules, streak.
                table.column("progress", .text).notNull()
                table.column("updatedAtMs", .integer).notNull()
            }
            try db.create(table: "morseSession") { table in
                table.primaryKey("id", .text)
                table.column("direction", .text).notNull().check { ["receive", "send"].contains($0) }
                table.column("koch", .text).notNull()
                table.column("level", .integer).notNull()
                table.column("nextLevel", .integer).notNull()
                table.column("startedAtMs", .integer).notNull().indexed()
                table.column("endedAtMs", .integer).notNull()
                table.column("trainingMs", .integer).notNull()
                table.column("attempts", .integer).notNull()
                table.column("correct", .integer).notNull()
            }
        }
        migrator.registerMigration("v8: guided meditation library") { db in
            try db.create(table: "library_items") { table in
                table.primaryKey("id", .text)
                // What the file's tags said; the title falls back to the file name, so it always exists.
                table.column("originalTeacher", .text)
                table.column("originalName", .text).notNull().check(sql: "length(originalName) > 0")
                table.column("originalAlbum", .text)
                // The person's edits; NULL shows the original.
                table.column("editedTeacher", .text).check(
                    sql: "editedTeacher IS NULL OR length(trim(editedTeacher)) > 0")
                table.column("editedName", .text).check(sql: "editedName IS NULL OR length(trim(editedName)) > 0")
                table.column("durationMs", .integer).notNull().check { $0 >= 0 }
                table.column("format", .text).notNull().check { ["mp3", "m4a", "wav"].contains($0) }
                // Always `<id>.<format>`: no name a person chose ever reaches the file system.
                table.column("fileName", .text).notNull().unique(onConflict: .abort)
                    .check(sql: "fileName = id || '.' || format")
                table.column("originalFileName", .text).notNull()
                table.column("byteSize", .integer).notNull().check { $0 >= 0 }
                table.column("contentHash", .text).notNull().unique(onConflict: .abort)
                    .check(sql: "length(contentHash) = 64")
                table.column("importedAtMs", .integer).notNull()
                table.column("isAmbientBed", .boolean).notNull().defaults(to: false)
                table.column("positionMs", .integer).notNull().defaults(to: 0).check { $0 >= 0 }
                table.column("updatedAtMs", .integer).notNull()
            }
        }
        migrator.registerMigration("v9: sync") { db in try createSyncTables(db) }
        migrator.registerMigration("v10: token scopes and sign-in sessions") { db in
            // Existing tokens keep opening everything; a `feed` token reads only the calendar feed.
            try db.alter(table: "accessToken") { table in
                table.add(column: "scope", .text).notNull().defaults(to: "full")
                    .check { ["full", "feed"].contains($0) }
            }
            // A browser's sign-in: the cookie carries a random id; only its SHA-256 is kept.
            try db.create(table: "accessSession") { table in
                table.primaryKey("idHash", .text).check(sql: "length(idHash) = 64")
                table.column("tokenID", .text).notNull().indexed()
                    .references("accessToken", onDelete: .cascade)
                table.column("createdAtMs", .integer).notNull()
                table.column("lastUsedAtMs", .integer).notNull()
            }
        }
        migrator.registerMigration("v11: stored values meet the input rules") { db in
            try bringStoredValuesWithinInputRules(db)
        }
        migrator.registerMigration("v12: names, icons and interval gongs meet the input rules") { db in
            try bringStoredValuesWithinIssue22Rules(db)
        }
        migrator.registerMigration("v13: saved sits") { db in
            try db.create(table: "meditationPreset") { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull().unique(onConflict: .abort).collate(.nocase)
                    .check(sql: "length(trim(name)) > 0")
                // The plan's JSON form (`MeditationPlan+Codable`); the store checks it as it reads it.
                table.column("plan", .text).notNull()
                table.column("createdAtMs", .integer).notNull()
                table.column("updatedAtMs", .integer).notNull()
            }
        }
        migrator.registerMigration("v14: a household's people and pairing codes") { db in
            // The household: who practises here. The founder (id 1) is written when the household
            // is first opened (with the login's name), and keeps this database's practice data;
            // everyone added later gets a database of their own (see `Person.dataFolder`).
            try db.create(table: "person") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("name", .text).notNull().unique(onConflict: .abort).collate(.nocase)
                    .check(sql: "length(trim(name)) > 0")
                table.column("role", .text).notNull().check { ["owner", "member"].contains($0) }
                // The PIN that locks the profile on the server's own screen: SHA-256 of salt and PIN.
                table.column("pinHash", .text)
                table.column("createdAtMs", .integer).notNull()
            }
            // Every token so far was the founder's: the only person there was.
            try db.alter(table: "accessToken") { table in
                table.add(column: "personID", .integer).notNull().defaults(to: Person.founderID)
                table.add(column: "isPairing", .boolean).notNull().defaults(to: false)
            }
            try db.create(index: "accessToken_personID", on: "accessToken", columns: ["personID"])
            // One-time codes that sign a browser in as a person: only their SHA-256 is kept.
            try db.create(table: "pairingCode") { table in
                table.primaryKey("codeHash", .text).check(sql: "length(codeHash) = 64")
                table.column("personID", .integer).notNull().indexed()
                    .references("person", onDelete: .cascade)
                table.column("createdAtMs", .integer).notNull()
                table.column("usedAtMs", .integer)
            }
            // Focus timers shared with other people of the household: the timer stays in its
            // owner's database; this says who else sees and ticks it.
            try db.create(table: "timerShare") { table in
                table.column("ownerID", .integer).notNull().references("person", onDelete: .cascade)
                table.column("timerID", .text).notNull()
                table.column("personID", .integer).notNull().indexed().references("person", onDelete: .cascade)
                table.primaryKey(["ownerID", "timerID", "personID"])
                table.check(sql: "ownerID <> personID")
            }
            // Each person's own view of the household's library: their edits, ambient choices and
            // places. What the founder had set so far becomes their view; their edits and ambient
            // choices stay on the items as the household's until someone edits their own.
            try db.create(table: "library_views") { table in
                table.primaryKey("id", .text)
                table.column("hasEdits", .boolean).notNull().defaults(to: false)
                table.column("editedTeacher", .text)
                table.column("editedName", .text)
                table.column("isAmbientBed", .boolean)
                table.column("positionMs", .integer).notNull().defaults(to: 0).check { $0 >= 0 }
                table.column("updatedAtMs", .integer).notNull()
            }
            try db.execute(
                sql: """
                    INSERT INTO library_views (id, hasEdits, editedTeacher, editedName, isAmbientBed, positionMs, updatedAtMs)
                    SELECT id, editedTeacher IS NOT NULL OR editedName IS NOT NULL, editedTeacher, editedName,
                        isAmbientBed, positionMs, updatedAtMs
                    FROM library_items
                    """)
        }
        migrator.registerMigration("v15: the sync log is compacted", migrate: addSyncCompaction)
        migrator.registerMigration("v16: names hold no direction controls", migrate: bringStoredNamesWithinTheNameRule)
        migrator.registerMigration("v17: saved sits in the person's order") { db in
            // Every sit made before keeps 0 and with it the order it was made in.
            try db.alter(table: "meditationPreset") { table in
                table.add(column: "sortOrder", .integer).notNull().defaults(to: 0)
            }
        }
        return migrator
    }

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
            guard let names = try? JSONDecoder().decode([String].self, from: Data(json.utf8)) else { continue }
            // Exercise names that were nothing but control characters are dropped.
            let cleaned = names.map { TextInput.cleaned($0) }.filter {
                !$0.trimmingCharacters(in: .whitespaces).isEmpty
            }
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
            guard let stored = try? JSONDecoder().decode(SyncValue.self, from: Data(value.utf8)),
                !FocusTimer.icons.contains(where: { stored == .string($0) }),
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
            let plan = try? JSONDecoder().decode(MeditationPlan.self, from: Data(json.utf8)),
            plan.withoutIntervalGongsAtOrAfterEnd != plan
        {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let fixed = String(decoding: try encoder.encode(plan.withoutIntervalGongsAtOrAfterEnd), as: UTF8.self)
            try db.execute(sql: "UPDATE setting SET value = ? WHERE key = ?", arguments: [fixed, planKey])
        }
    }

    /// The identifiers of every migration this program knows, oldest first.
    public static var migrationIdentifiers: [String] { migrator.migrations }
}
