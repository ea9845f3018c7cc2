/// Rows as each schema version held them, frozen as SQL: what a person's database looked like
/// on the day that version was current.
///
/// Each list is valid against the schema right after its migration (and before any later one),
/// so the columns are the ones that version had: the `v5` tokens have no `scope`, the `v10` one
/// has. Never edit a released version's rows; a new migration adds its own key (the suite fails
/// until it does). Rows that only versions before the input rules could write (energy above
/// 10 000 kcal, control characters in names) sit in the versions that wrote them, so that
/// whichever version a database starts from, `v11` finds them and brings them within the rules.
///
/// All instants are milliseconds since 1970 around 1 700 000 000 000 (14 November 2023).
enum SchemaFixtures {
    static let byMigration: [String: [String]] = [
        "v1: settings and practice log": [
            #"INSERT INTO setting (key, value, updatedAtMs) VALUES ('language', '"de"', 1700000000000)"#,
            #"INSERT INTO setting (key, value, updatedAtMs) VALUES ('sound', 'false', 1700000000000)"#,
            // An early plan: only the keys it knew then; the rest take their defaults.
            #"""
            INSERT INTO setting (key, value, updatedAtMs) VALUES
                ('meditation.plan', '{"countdownMs":10000,"durationMs":1200000,"intervalGongs":{"minutes":5,"mode":"every"}}',
                 1700000000000)
            """#,
            #"""
            INSERT INTO practiceRecord
                (id, kind, startMs, endMs, countedSeconds, energyKilocalories, details, device, createdAtMs, updatedAtMs)
            VALUES
                ('00000001-0000-4000-8000-000000000001', 'meditation', 1700000000000, 1700001200000, 1200, NULL,
                 '{"plan":"20 min"}', 'terminal@laptop', 1700001200000, 1700001200000),
                ('00000001-0000-4000-8000-000000000002', 'workout', 1700086400000, 1700089100000, 2700, 25000,
                 '{}', 'web@phone', 1700089100000, 1700089100000)
            """#,
        ],
        "v2: breathing presets": [
            #"""
            INSERT INTO breathingPreset
                (id, name, inhaleMs, holdAfterInhaleMs, exhaleMs, holdAfterExhaleMs, rounds, createdAtMs, updatedAtMs)
            VALUES
                ('box-four', 'Box four', 4000, 4000, 4000, 4000, 6, 1700000000000, 1700000000000),
                ('evening-calm', 'Evening' || char(9) || 'calm', 4000, 0, 6500, 0, 10, 1700000001000, 1700000001000)
            """#
        ],
        "v3: focus timers and checklists": [
            #"""
            INSERT INTO focusTimer
                (id, name, durationMs, icon, color, notes, sortOrder, createdAtMs, updatedAtMs,
                 runState, startedAtMs, resumedAtMs, pausedAtMs, completedAtMs, elapsedMs)
            VALUES
                ('00000003-0000-4000-8000-000000000001', 'Morning pages', 1500000, 'book', '#b5835a',
                 'Water first.' || char(10) || 'Then write.', 0, 1700000000000, 1700000300000,
                 'running', 1700000000000, 1700000300000, NULL, NULL, 120000)
            """#,
            // An idle timer as the first version wrote it: the run columns left to their defaults.
            #"""
            INSERT INTO focusTimer (id, name, durationMs, icon, color, sortOrder, createdAtMs, updatedAtMs)
            VALUES ('00000003-0000-4000-8000-000000000002', 'Tidy desk', 600000, 'leaf', '#5A8BB5', 1,
                    1700000000000, 1700000000000)
            """#,
            #"""
            INSERT INTO checklistItem (id, timerId, text, done, sortOrder, createdAtMs, updatedAtMs) VALUES
                ('00000003-0000-4000-8000-000000000011', '00000003-0000-4000-8000-000000000002', 'Clear papers', 1, 0,
                 1700000000000, 1700000400000),
                ('00000003-0000-4000-8000-000000000012', '00000003-0000-4000-8000-000000000002', 'Wipe screen', 0, 1,
                 1700000000000, 1700000000000)
            """#,
        ],
        "v4: workout programs": [
            #"""
            INSERT INTO workoutProgram
                (id, name, getReadySeconds, warmUpSeconds, workSeconds, restSeconds, rounds, sets, setRestSeconds,
                 coolDownSeconds, exerciseNames, activity, createdAtMs, updatedAtMs)
            VALUES
                ('legs-day', 'Legs day', 10, 120, 45, 15, 8, 2, 60, 180, '["Squats","Jumping\tjacks"]', 'hiit',
                 1700000000000, 1700000000000)
            """#
        ],
        "v5: access tokens": [
            #"""
            INSERT INTO accessToken (id, name, secretHash, createdAtMs, revokedAtMs) VALUES
                ('tok-old', 'Old laptop', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 1699913600000,
                 1699999000000),
                ('tok-phone', 'Phone', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 1700000000000,
                 NULL)
            """#
        ],
        "v6: a revision for cached progress": [
            // A revision that has counted many changes, and one more change after it.
            "UPDATE storeRevision SET value = 41 WHERE id = 1",
            #"""
            INSERT INTO practiceRecord
                (id, kind, startMs, endMs, countedSeconds, energyKilocalories, details, device, createdAtMs, updatedAtMs)
            VALUES
                ('00000006-0000-4000-8000-000000000001', 'breathing', 1700172800000, 1700173100000, 300, NULL,
                 '{"preset":"box-four"}', 'terminal@laptop', 1700173100000, 1700173100000)
            """#,
        ],
        "v7: the Morse course": [
            #"""
            INSERT INTO morseCourse (id, progress, updatedAtMs) VALUES (1, '\#(morseCourseProgress)', 1700259320000)
            """#,
            #"""
            INSERT INTO morseSession
                (id, direction, koch, level, nextLevel, startedAtMs, endedAtMs, trainingMs, attempts, correct)
            VALUES
                ('00000007-0000-4000-8000-000000000002', 'receive', 'standard', 1, 2, 1700259200000, 1700259320000,
                 120000, 20, 20)
            """#,
            #"""
            INSERT INTO practiceRecord
                (id, kind, startMs, endMs, countedSeconds, energyKilocalories, details, device, createdAtMs, updatedAtMs)
            VALUES
                ('00000007-0000-4000-8000-000000000001', 'morse', 1700259200000, 1700259320000, 120, NULL,
                 '{"direction":"receive","level":"1"}', 'terminal@laptop', 1700259320000, 1700259320000)
            """#,
        ],
        "v8: guided meditation library": [
            // The store lists rows whether or not their files exist; the files are the library's.
            #"""
            INSERT INTO library_items
                (id, originalTeacher, originalName, originalAlbum, editedTeacher, editedName, durationMs, format,
                 fileName, originalFileName, byteSize, contentHash, importedAtMs, isAmbientBed, positionMs, updatedAtMs)
            VALUES
                ('00000008-0000-4000-8000-000000000001', 'Tara', 'Body scan', 'Evenings', NULL, 'Evening body scan',
                 1260000, 'mp3', '00000008-0000-4000-8000-000000000001.mp3', 'body scan (final).mp3', 2048000,
                 'cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc', 1700000000000, 0, 300000,
                 1700000500000),
                ('00000008-0000-4000-8000-000000000002', NULL, 'rain', NULL, NULL, NULL, 600000, 'wav',
                 '00000008-0000-4000-8000-000000000002.wav', 'rain.wav', 52920044,
                 'dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd', 1700000100000, 1, 0, 1700000100000)
            """#
        ],
        "v9: sync": [
            #"""
            INSERT INTO syncReplica (id, node, lastStamp, serverURL, cursor, lastSyncAtMs) VALUES
                (1, 'n-00000000000000aa', '1700000000000-00003-n-00000000000000aa', 'https://sync.example.org', 17,
                 1700000600000)
            """#,
            #"""
            INSERT INTO syncField (entityType, entityId, field, value, stamp, device) VALUES
                ('practiceRecord', '00000001-0000-4000-8000-000000000001', 'countedSeconds', '1200',
                 '1700000000000-00001-n-00000000000000aa', 'terminal@laptop')
            """#,
        ],
        "v10: token scopes and sign-in sessions": [
            #"""
            INSERT INTO accessToken (id, name, secretHash, createdAtMs, revokedAtMs, scope) VALUES
                ('tok-calendar', 'Calendar', 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', 1700432000000,
                 NULL, 'feed')
            """#,
            #"""
            INSERT INTO accessSession (idHash, tokenID, createdAtMs, lastUsedAtMs) VALUES
                ('ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', 'tok-phone', 1700432000000,
                 1700435600000)
            """#,
        ],
        // v11 changes no schema; the rows its version writes already keep the input rules.
        "v11: stored values meet the input rules": [
            #"""
            INSERT INTO practiceRecord
                (id, kind, startMs, endMs, countedSeconds, energyKilocalories, details, device, createdAtMs, updatedAtMs)
            VALUES
                ('00000011-0000-4000-8000-000000000001', 'workout', 1700345600000, 1700352800000, 7200, 10000,
                 '{}', 'web@phone', 1700352800000, 1700352800000)
            """#,
            #"""
            INSERT INTO breathingPreset
                (id, name, inhaleMs, holdAfterInhaleMs, exhaleMs, holdAfterExhaleMs, rounds, createdAtMs, updatedAtMs)
            VALUES ('ruhe', 'Ruhe vor dem Schlaf', 4000, 7000, 8000, 0, 4, 1700345600000, 1700345600000)
            """#,
        ],
        // v12 changes no schema; its version picks icons from the list (what it converts is
        // checked by `SchemaHistoryTests.v12BringsNamesIconsAndIntervalGongsWithinTheRules`).
        "v12: names, icons and interval gongs meet the input rules": [
            "UPDATE focusTimer SET icon = 'moon', updatedAtMs = 1700432000000 WHERE id = '00000003-0000-4000-8000-000000000002'"
        ],
        "v13: saved sits": [
            #"""
            INSERT INTO meditationPreset (id, name, plan, createdAtMs, updatedAtMs) VALUES
                ('00000013-0000-4000-8000-000000000001', 'Evening sit',
                 '{"ambientID":"rain","ambientVolume":0.3,"countdownMs":10000,"durationMs":1200000,"intervalGongs":{"minutes":5,"mode":"every"},"isOpenEnded":false,"reflectionMs":0}',
                 1700500000000, 1700500000000)
            """#
        ],
        "v14: a household's people and pairing codes": [
            "INSERT INTO person (id, name, role, createdAtMs) VALUES (1, 'Ada', 'owner', 1700600000000)",
            "INSERT INTO person (id, name, role, pinHash, createdAtMs) VALUES (2, 'Ben', 'member', '\(String(repeating: "c", count: 64))', 1700600001000)",
            """
            INSERT INTO accessToken (id, name, secretHash, createdAtMs, scope, personID, isPairing)
                VALUES ('tok-ben', 'Ben''s phone', '\(String(repeating: "9", count: 64))', 1700600002000, 'full', 2, 1)
            """,
            "INSERT INTO pairingCode (codeHash, personID, createdAtMs) VALUES ('\(String(repeating: "d", count: 64))', 2, 1700600003000)",
        ],
        "v15: the sync log is compacted": [
            "UPDATE syncReplica SET compactedThrough = 1 WHERE id = 1"
        ],
        // v16 changes no schema; what it cleans is checked by
        // `SchemaHistoryTests.v16LeavesDirectionControlsOutOfNames`.
        "v16: names hold no direction controls": [
            "UPDATE syncReplica SET compactedThrough = 1 WHERE id = 1"
        ],
        // v17 adds the saved sits' order: the sit of v13 kept 0; here it is moved after a new one.
        "v17: saved sits in the person's order": [
            #"""
            INSERT INTO meditationPreset (id, name, plan, createdAtMs, updatedAtMs, sortOrder) VALUES
                ('00000017-0000-4000-8000-000000000001', 'Short sit',
                 '{"countdownMs":10000,"durationMs":300000,"intervalGongs":{"mode":"off"},"isOpenEnded":false,"reflectionMs":0}',
                 1700700000000, 1700700000000, 0)
            """#,
            "UPDATE meditationPreset SET sortOrder = 1 WHERE name = 'Evening sit'",
        ],
        // v18 adds the household's Web Push key, made on first use: a database of v18 may have one.
        "v18: the household's Web Push key": [
            "INSERT INTO pushServerKey (id, privateKey, createdAtMs) VALUES (1, X'0000000000000000000000000000000000000000000000000000000000000001', 1700800000000)"
        ],
        // v19 adds the person's Web Push subscriptions.
        "v19: the person's Web Push subscriptions": [
            """
            INSERT INTO pushSubscription (id, endpoint, p256dh, auth, deviceName, createdAtMs, expiresAtMs)
            VALUES ('00000019-0000-4000-8000-000000000001', 'https://fcm.googleapis.com/fcm/send/abc', 'BCVx', 'BTBZ',
                    'Anna''s phone', 1700900000000, NULL)
            """
        ],
        // v20 adds the person's push outbox.
        "v20: the person's push outbox": [
            """
            INSERT INTO pushOutbox (id, reminderID, occurrenceID, dueAtMs, subscriptionID, usefulUntilMs, state,
                                    attempts, nextAttemptAtMs, finishedAtMs, outcome)
            VALUES ('00000020-0000-4000-8000-000000000001', 'streak.reminder', 'streak.reminder.2023-11-25',
                    1700938800000, '00000019-0000-4000-8000-000000000001', 1700953200000, 'sent', 1, 1700938800000,
                    1700938801000, NULL)
            """
        ],
        // v21 adds quiet daily trackers and their answered days.
        "v21: quiet daily trackers": [
            """
            INSERT INTO tracker (id, name, askMinute, about, createdAtMs, updatedAtMs)
            VALUES ('00000021-0000-4000-8000-000000000001', 'Alcohol-free', 1260, 'today', 1701000000000, 1701000000000)
            """,
            """
            INSERT INTO trackerDay (id, trackerId, day, answer, answeredAtMs)
            VALUES ('00000021-0000-4000-8000-000000000002', '00000021-0000-4000-8000-000000000001', '2023-11-26', 1,
                    1701032400000)
            """,
        ],
    ]

    /// The Morse course after one receive session at level 1 that earned level 2, as `v7` stored it.
    static let morseCourseProgress = """
        {"courseStart":721952000,"order":"standard","receive":{"characterStatistics":{"K":{"attempts":20,\
        "correct":20,"timedAttempts":20,"totalResponseMilliseconds":14000}},"level":2,"levelHistory":[{"date":\
        721952120,"level":2}],"levelReviewDue":722556920,"schedule":{"intervalDays":2,"lastPractice":721952120,\
        "nextPractice":722124920}},"send":{"characterStatistics":{},"level":1,"levelHistory":[],"schedule":\
        {"intervalDays":1}},"streak":{"current":1,"lastDay":"2023-11-17","longest":1}}
        """
}
