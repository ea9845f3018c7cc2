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
        migrator.registerMigration("v18: the household's Web Push key") { db in
            // One row, made on first use (the founder's database keeps it, as the household's).
            try db.create(table: "pushServerKey") { table in
                table.primaryKey("id", .integer).check { $0 == 1 }
                table.column("privateKey", .blob).notNull().check { length($0) == 32 }
                table.column("createdAtMs", .integer).notNull()
            }
        }
        migrator.registerMigration("v19: the person's Web Push subscriptions") { db in
            // One per browser endpoint; device-bound, so not in backups.
            try db.create(table: "pushSubscription") { table in
                table.primaryKey("id", .text)
                table.column("endpoint", .text).notNull().unique().check { length($0) <= 1024 }
                table.column("p256dh", .text).notNull().check { length($0) <= 100 }
                table.column("auth", .text).notNull().check { length($0) <= 40 }
                table.column("deviceName", .text).notNull()
                table.column("createdAtMs", .integer).notNull()
                table.column("expiresAtMs", .integer)
                table.column("lastDeliveredAtMs", .integer)
                table.column("lastFailureAtMs", .integer)
                table.column("lastFailure", .text)
            }
        }
        migrator.registerMigration("v20: the person's push outbox") { db in
            // One row per reminder, instant and subscription; machine-bound, so not in backups.
            try db.create(table: "pushOutbox") { table in
                table.primaryKey("id", .text)
                table.column("reminderID", .text).notNull()
                table.column("occurrenceID", .text).notNull()
                table.column("dueAtMs", .integer).notNull()
                table.column("subscriptionID", .text).notNull()
                table.column("usefulUntilMs", .integer).notNull()
                table.column("state", .text).notNull().check { ["pending", "sent", "dropped"].contains($0) }
                table.column("attempts", .integer).notNull().defaults(to: 0)
                table.column("nextAttemptAtMs", .integer).notNull()
                table.column("claimedUntilMs", .integer)
                table.column("finishedAtMs", .integer)
                table.column("outcome", .text)
                table.uniqueKey(["reminderID", "dueAtMs", "subscriptionID"])
            }
            try db.create(index: "pushOutboxDue", on: "pushOutbox", columns: ["state", "nextAttemptAtMs"])
        }
        migrator.registerMigration("v21: quiet daily trackers") { db in
            // The person's own: in backups.
            try db.create(table: "tracker") { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull().check(sql: "length(trim(name)) > 0")
                table.column("askMinute", .integer).notNull().check { $0 >= 0 && $0 < 1440 }
                table.column("about", .text).notNull().check { ["today", "yesterday"].contains($0) }
                table.column("createdAtMs", .integer).notNull()
                table.column("updatedAtMs", .integer).notNull()
            }
            try db.create(table: "trackerDay") { table in
                table.primaryKey("id", .text)
                table.column("trackerId", .text).notNull().references("tracker", onDelete: .cascade)
                table.column("day", .text).notNull().check(sql: "day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'")
                table.column("answer", .boolean).notNull()
                table.column("answeredAtMs", .integer).notNull()
                table.uniqueKey(["trackerId", "day"])
            }
        }
        return migrator
    }

    /// The identifiers of every migration this program knows, oldest first.
    public static var migrationIdentifiers: [String] { migrator.migrations }
}
