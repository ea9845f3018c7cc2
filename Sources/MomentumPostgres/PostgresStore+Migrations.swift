import MomentumStoreContract
import PostgresNIO

extension PostgresStore {
    /// One step of the schema's history.
    struct Migration: Sendable {
        var version: Int
        var name: String
        var statements: [String]
    }

    /// The schema's history. Append only: a released step is never edited, so every database ever
    /// written can be brought up to date. Person-scoped tables carry `person_id` first in their
    /// keys and indexes; every query of a person filters on it.
    static let migrations: [Migration] = [
        Migration(
            version: 1, name: "settings, practice log and the store revision",
            statements: [
                """
                CREATE TABLE setting (
                    person_id BIGINT NOT NULL,
                    key TEXT NOT NULL,
                    value TEXT NOT NULL,
                    updated_at_ms BIGINT NOT NULL,
                    PRIMARY KEY (person_id, key))
                """,
                """
                CREATE TABLE practice_record (
                    person_id BIGINT NOT NULL,
                    id TEXT NOT NULL,
                    kind TEXT NOT NULL
                        CHECK (kind IN ('meditation', 'guided', 'breathing', 'workout', 'morse', 'focus')),
                    start_ms BIGINT NOT NULL,
                    end_ms BIGINT NOT NULL,
                    counted_seconds BIGINT NOT NULL CHECK (counted_seconds >= 0),
                    energy_kilocalories DOUBLE PRECISION
                        CHECK (energy_kilocalories IS NULL OR energy_kilocalories >= 0),
                    details TEXT NOT NULL DEFAULT '{}',
                    device TEXT NOT NULL,
                    created_at_ms BIGINT NOT NULL,
                    updated_at_ms BIGINT NOT NULL,
                    PRIMARY KEY (person_id, id),
                    CHECK (end_ms >= start_ms))
                """,
                "CREATE INDEX practice_record_start ON practice_record (person_id, start_ms)",
                // One number per person that grows with every change to their log or settings, from
                // any server: readers cache what they computed from both and recompute when it moves.
                """
                CREATE TABLE store_revision (
                    person_id BIGINT PRIMARY KEY,
                    value BIGINT NOT NULL)
                """,
                """
                CREATE FUNCTION bump_store_revision() RETURNS trigger LANGUAGE plpgsql AS $$
                DECLARE person BIGINT;
                BEGIN
                    IF TG_OP = 'DELETE' THEN person := OLD.person_id; ELSE person := NEW.person_id; END IF;
                    INSERT INTO store_revision (person_id, value) VALUES (person, 1)
                        ON CONFLICT (person_id) DO UPDATE SET value = store_revision.value + 1;
                    RETURN NULL;
                END $$
                """,
                """
                CREATE TRIGGER practice_record_revision AFTER INSERT OR UPDATE OR DELETE ON practice_record
                    FOR EACH ROW EXECUTE FUNCTION bump_store_revision()
                """,
                """
                CREATE TRIGGER setting_revision AFTER INSERT OR UPDATE OR DELETE ON setting
                    FOR EACH ROW EXECUTE FUNCTION bump_store_revision()
                """,
            ]),
        Migration(
            version: 2, name: "focus timers and checklists",
            statements: [
                // `position` keeps the order rows were first written in: SQLite's rowid, which
                // breaks ties of `sort_order` there.
                """
                CREATE TABLE focus_timer (
                    person_id BIGINT NOT NULL,
                    id TEXT NOT NULL,
                    name TEXT NOT NULL CHECK (length(trim(name)) > 0),
                    duration_ms BIGINT NOT NULL CHECK (duration_ms >= 1000 AND duration_ms <= 86400000),
                    icon TEXT NOT NULL,
                    color TEXT NOT NULL,
                    notes TEXT NOT NULL DEFAULT '',
                    sort_order BIGINT NOT NULL,
                    created_at_ms BIGINT NOT NULL,
                    updated_at_ms BIGINT NOT NULL,
                    run_state TEXT NOT NULL DEFAULT 'idle'
                        CHECK (run_state IN ('idle', 'running', 'paused', 'completed')),
                    started_at_ms BIGINT,
                    resumed_at_ms BIGINT,
                    paused_at_ms BIGINT,
                    completed_at_ms BIGINT,
                    elapsed_ms BIGINT NOT NULL DEFAULT 0,
                    position BIGINT GENERATED ALWAYS AS IDENTITY,
                    PRIMARY KEY (person_id, id),
                    CHECK (elapsed_ms >= 0 AND elapsed_ms <= duration_ms),
                    CHECK (
                        (run_state = 'idle' AND started_at_ms IS NULL AND resumed_at_ms IS NULL
                            AND paused_at_ms IS NULL AND completed_at_ms IS NULL AND elapsed_ms = 0)
                        OR (run_state = 'running' AND started_at_ms IS NOT NULL AND resumed_at_ms IS NOT NULL
                            AND paused_at_ms IS NULL AND completed_at_ms IS NULL)
                        OR (run_state = 'paused' AND started_at_ms IS NOT NULL AND resumed_at_ms IS NULL
                            AND paused_at_ms IS NOT NULL AND completed_at_ms IS NULL)
                        OR (run_state = 'completed' AND started_at_ms IS NOT NULL AND resumed_at_ms IS NULL
                            AND paused_at_ms IS NULL AND completed_at_ms IS NOT NULL)))
                """,
                """
                CREATE TABLE checklist_item (
                    person_id BIGINT NOT NULL,
                    id TEXT NOT NULL,
                    timer_id TEXT NOT NULL,
                    text TEXT NOT NULL CHECK (length(trim(text)) > 0),
                    done BOOLEAN NOT NULL DEFAULT false,
                    sort_order BIGINT NOT NULL,
                    created_at_ms BIGINT NOT NULL,
                    updated_at_ms BIGINT NOT NULL,
                    position BIGINT GENERATED ALWAYS AS IDENTITY,
                    PRIMARY KEY (person_id, id),
                    FOREIGN KEY (person_id, timer_id) REFERENCES focus_timer (person_id, id) ON DELETE CASCADE)
                """,
                "CREATE INDEX checklist_item_timer ON checklist_item (person_id, timer_id)",
                // One row per person, locked (`SELECT … FOR UPDATE`) by every change to their timers:
                // the read-decide-write of two servers never interleaves.
                "CREATE TABLE focus_timer_lock (person_id BIGINT PRIMARY KEY)",
            ]),
        Migration(
            version: 3, name: "breathing presets, saved sits and workout programs",
            statements: [
                // Names are unique per person ignoring the case of A–Z, as SQLite's `COLLATE NOCASE`
                // (which folds ASCII only: "É" and "é" are two names there, and here).
                """
                CREATE TABLE breathing_preset (
                    person_id BIGINT NOT NULL,
                    id TEXT NOT NULL,
                    name TEXT NOT NULL CHECK (length(trim(name)) > 0),
                    inhale_ms BIGINT NOT NULL CHECK (inhale_ms >= 1000 AND inhale_ms <= 60000),
                    hold_after_inhale_ms BIGINT NOT NULL CHECK (hold_after_inhale_ms >= 0 AND hold_after_inhale_ms <= 60000),
                    exhale_ms BIGINT NOT NULL CHECK (exhale_ms >= 1000 AND exhale_ms <= 60000),
                    hold_after_exhale_ms BIGINT NOT NULL CHECK (hold_after_exhale_ms >= 0 AND hold_after_exhale_ms <= 60000),
                    rounds BIGINT NOT NULL CHECK (rounds >= 1 AND rounds <= 99),
                    created_at_ms BIGINT NOT NULL,
                    updated_at_ms BIGINT NOT NULL,
                    position BIGINT GENERATED ALWAYS AS IDENTITY,
                    PRIMARY KEY (person_id, id))
                """,
                "CREATE UNIQUE INDEX breathing_preset_name ON breathing_preset (person_id, \(PostgresStore.asciiFolded("name")))",
                """
                CREATE TABLE meditation_preset (
                    person_id BIGINT NOT NULL,
                    id TEXT NOT NULL,
                    name TEXT NOT NULL CHECK (length(trim(name)) > 0),
                    plan TEXT NOT NULL,
                    created_at_ms BIGINT NOT NULL,
                    updated_at_ms BIGINT NOT NULL,
                    position BIGINT GENERATED ALWAYS AS IDENTITY,
                    PRIMARY KEY (person_id, id))
                """,
                "CREATE UNIQUE INDEX meditation_preset_name ON meditation_preset (person_id, \(PostgresStore.asciiFolded("name")))",
                """
                CREATE TABLE workout_program (
                    person_id BIGINT NOT NULL,
                    id TEXT NOT NULL,
                    name TEXT NOT NULL CHECK (length(trim(name)) > 0),
                    get_ready_seconds BIGINT NOT NULL CHECK (get_ready_seconds >= 0 AND get_ready_seconds <= 60),
                    warm_up_seconds BIGINT NOT NULL CHECK (warm_up_seconds >= 0 AND warm_up_seconds <= 1800),
                    work_seconds BIGINT NOT NULL CHECK (work_seconds >= 1 AND work_seconds <= 600),
                    rest_seconds BIGINT NOT NULL CHECK (rest_seconds >= 0 AND rest_seconds <= 600),
                    rounds BIGINT NOT NULL CHECK (rounds >= 1 AND rounds <= 200),
                    sets BIGINT NOT NULL CHECK (sets >= 1 AND sets <= 20),
                    set_rest_seconds BIGINT NOT NULL CHECK (set_rest_seconds >= 0 AND set_rest_seconds <= 600),
                    cool_down_seconds BIGINT NOT NULL CHECK (cool_down_seconds >= 0 AND cool_down_seconds <= 1800),
                    exercise_names TEXT NOT NULL DEFAULT '[]',
                    activity TEXT NOT NULL CHECK (activity IN ('hiit', 'yoga', 'other')),
                    created_at_ms BIGINT NOT NULL,
                    updated_at_ms BIGINT NOT NULL,
                    position BIGINT GENERATED ALWAYS AS IDENTITY,
                    PRIMARY KEY (person_id, id))
                """,
                "CREATE UNIQUE INDEX workout_program_name ON workout_program (person_id, \(PostgresStore.asciiFolded("name")))",
            ]),
        Migration(
            version: 4, name: "the Morse course",
            statements: [
                // The course's progress as JSON (`MorseCourseProgress`): one row per person.
                """
                CREATE TABLE morse_course (
                    person_id BIGINT PRIMARY KEY,
                    progress TEXT NOT NULL,
                    updated_at_ms BIGINT NOT NULL)
                """,
                """
                CREATE TABLE morse_session (
                    person_id BIGINT NOT NULL,
                    id TEXT NOT NULL,
                    direction TEXT NOT NULL CHECK (direction IN ('receive', 'send')),
                    koch TEXT NOT NULL,
                    level BIGINT NOT NULL,
                    next_level BIGINT NOT NULL,
                    started_at_ms BIGINT NOT NULL,
                    ended_at_ms BIGINT NOT NULL,
                    training_ms BIGINT NOT NULL,
                    attempts BIGINT NOT NULL,
                    correct BIGINT NOT NULL,
                    PRIMARY KEY (person_id, id))
                """,
                "CREATE INDEX morse_session_started ON morse_session (person_id, started_at_ms)",
            ]),
        Migration(
            version: 5, name: "access tokens and sign-in sessions",
            statements: [
                // Household tables: global, a token names the person it signs in as (SQLite's
                // `accessToken` and `accessSession`, with their checks). Only hashes are kept.
                """
                CREATE TABLE access_token (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    secret_hash TEXT NOT NULL UNIQUE CHECK (length(secret_hash) = 64),
                    created_at_ms BIGINT NOT NULL,
                    revoked_at_ms BIGINT,
                    scope TEXT NOT NULL DEFAULT 'full' CHECK (scope IN ('full', 'feed')),
                    person_id BIGINT NOT NULL,
                    is_pairing BOOLEAN NOT NULL DEFAULT false,
                    position BIGINT GENERATED ALWAYS AS IDENTITY)
                """,
                "CREATE INDEX access_token_person ON access_token (person_id)",
                """
                CREATE TABLE access_session (
                    id_hash TEXT PRIMARY KEY CHECK (length(id_hash) = 64),
                    token_id TEXT NOT NULL REFERENCES access_token (id) ON DELETE CASCADE,
                    created_at_ms BIGINT NOT NULL,
                    last_used_at_ms BIGINT NOT NULL)
                """,
                "CREATE INDEX access_session_token ON access_session (token_id)",
            ]),
        Migration(
            version: 6, name: "people, pairing codes and timer shares",
            statements: [
                // Household tables, global (SQLite's `person`, `pairingCode` and `timerShare`, with
                // their checks). An id is never handed out twice, even after a removal.
                """
                CREATE TABLE person (
                    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                    name TEXT NOT NULL CHECK (length(trim(name)) > 0),
                    role TEXT NOT NULL CHECK (role IN ('owner', 'member')),
                    pin_hash TEXT,
                    created_at_ms BIGINT NOT NULL)
                """,
                "CREATE UNIQUE INDEX person_name ON person (\(PostgresStore.asciiFolded("name")))",
                // One-time codes that sign a browser in as a person: only their SHA-256 is kept.
                """
                CREATE TABLE pairing_code (
                    code_hash TEXT PRIMARY KEY CHECK (length(code_hash) = 64),
                    person_id BIGINT NOT NULL REFERENCES person (id) ON DELETE CASCADE,
                    created_at_ms BIGINT NOT NULL,
                    used_at_ms BIGINT)
                """,
                "CREATE INDEX pairing_code_person ON pairing_code (person_id)",
                // Focus timers shared with other people: the timer stays its owner's.
                """
                CREATE TABLE timer_share (
                    owner_id BIGINT NOT NULL REFERENCES person (id) ON DELETE CASCADE,
                    timer_id TEXT NOT NULL,
                    person_id BIGINT NOT NULL REFERENCES person (id) ON DELETE CASCADE,
                    position BIGINT GENERATED ALWAYS AS IDENTITY,
                    PRIMARY KEY (owner_id, timer_id, person_id),
                    CHECK (owner_id <> person_id))
                """,
                "CREATE INDEX timer_share_person ON timer_share (person_id)",
            ]),
        Migration(
            version: 7, name: "sync: each person's replica, merged fields, deletions and log",
            statements: [
                // One row per person: the clock's node and last stamp, the log's head (the last
                // sequence number given; locked FOR UPDATE by every transaction that logs, so
                // numbers commit in order, without gaps or duplicates across servers) and how far
                // compaction has looked. Stamps compare byte-wise, as SQLite's TEXT does.
                """
                CREATE TABLE sync_replica (
                    person_id BIGINT PRIMARY KEY,
                    node TEXT NOT NULL,
                    last_stamp TEXT COLLATE "C",
                    head BIGINT NOT NULL DEFAULT 0 CHECK (head >= 0),
                    compacted_through BIGINT NOT NULL DEFAULT 0 CHECK (compacted_through >= 0))
                """,
                """
                CREATE TABLE sync_field (
                    person_id BIGINT NOT NULL,
                    entity_type TEXT NOT NULL,
                    entity_id TEXT NOT NULL,
                    field TEXT NOT NULL,
                    value TEXT NOT NULL,
                    stamp TEXT COLLATE "C" NOT NULL,
                    device TEXT NOT NULL,
                    PRIMARY KEY (person_id, entity_type, entity_id, field))
                """,
                """
                CREATE TABLE sync_deletion (
                    person_id BIGINT NOT NULL,
                    entity_type TEXT NOT NULL,
                    entity_id TEXT NOT NULL,
                    stamp TEXT COLLATE "C" NOT NULL,
                    device TEXT NOT NULL,
                    PRIMARY KEY (person_id, entity_type, entity_id))
                """,
                """
                CREATE TABLE sync_item_timer (
                    person_id BIGINT NOT NULL,
                    item_id TEXT NOT NULL,
                    timer_id TEXT NOT NULL,
                    PRIMARY KEY (person_id, item_id, timer_id))
                """,
                "CREATE INDEX sync_item_timer_timer ON sync_item_timer (person_id, timer_id)",
                """
                CREATE TABLE sync_log (
                    person_id BIGINT NOT NULL,
                    seq BIGINT NOT NULL CHECK (seq > 0),
                    stamp TEXT COLLATE "C" NOT NULL,
                    entity_type TEXT NOT NULL,
                    entity_id TEXT NOT NULL,
                    field TEXT,
                    message TEXT NOT NULL,
                    origin TEXT NOT NULL CHECK (origin IN ('local', 'remote')),
                    PRIMARY KEY (person_id, seq))
                """,
                "CREATE INDEX sync_log_stamp ON sync_log (person_id, stamp)",
                // Compaction finds the writes of a field, and the deletions of an entity, by stamp.
                "CREATE INDEX sync_log_field ON sync_log (person_id, entity_type, entity_id, field, stamp)",
            ]),
        Migration(
            version: 8, name: "the guided meditation library",
            statements: [
                // The household's items (SQLite's `library_items`, with its checks): global rows;
                // the audio files are in the library folder every server shares.
                """
                CREATE TABLE library_item (
                    id TEXT PRIMARY KEY,
                    original_teacher TEXT,
                    original_name TEXT NOT NULL CHECK (length(original_name) > 0),
                    original_album TEXT,
                    edited_teacher TEXT CHECK (edited_teacher IS NULL OR length(trim(edited_teacher)) > 0),
                    edited_name TEXT CHECK (edited_name IS NULL OR length(trim(edited_name)) > 0),
                    duration_ms BIGINT NOT NULL CHECK (duration_ms >= 0),
                    format TEXT NOT NULL CHECK (format IN ('mp3', 'm4a', 'wav')),
                    file_name TEXT NOT NULL UNIQUE CHECK (file_name = id || '.' || format),
                    original_file_name TEXT NOT NULL,
                    byte_size BIGINT NOT NULL CHECK (byte_size >= 0),
                    content_hash TEXT NOT NULL UNIQUE CHECK (length(content_hash) = 64),
                    imported_at_ms BIGINT NOT NULL,
                    is_ambient_bed BOOLEAN NOT NULL DEFAULT FALSE,
                    position_ms BIGINT NOT NULL DEFAULT 0 CHECK (position_ms >= 0),
                    updated_at_ms BIGINT NOT NULL)
                """,
                // Each person's own view of an item (SQLite's `library_views` in their own file);
                // it goes with the item and with the person.
                """
                CREATE TABLE library_view (
                    person_id BIGINT NOT NULL REFERENCES person (id) ON DELETE CASCADE,
                    id TEXT NOT NULL REFERENCES library_item (id) ON DELETE CASCADE,
                    has_edits BOOLEAN NOT NULL DEFAULT FALSE,
                    edited_teacher TEXT,
                    edited_name TEXT,
                    is_ambient_bed BOOLEAN,
                    position_ms BIGINT NOT NULL DEFAULT 0 CHECK (position_ms >= 0),
                    updated_at_ms BIGINT NOT NULL,
                    PRIMARY KEY (person_id, id))
                """,
                "CREATE INDEX library_view_item ON library_view (id)",
            ]),
        Migration(
            version: 9, name: "practice runs in progress",
            statements: [
                // A run's stored form (the server's JSON: its resolved plan, steps and ending);
                // `ended_at_ms` is when it ended, NULL while it goes on.
                """
                CREATE TABLE practice_run (
                    person_id BIGINT NOT NULL,
                    id TEXT NOT NULL CHECK (length(id) = 36),
                    state TEXT NOT NULL,
                    ended_at_ms BIGINT,
                    updated_at_ms BIGINT NOT NULL,
                    PRIMARY KEY (person_id, id))
                """,
                "CREATE INDEX practice_run_ended ON practice_run (person_id, ended_at_ms)",
            ]),
        Migration(
            version: 10, name: "Morse sessions and QSO contacts in progress",
            statements: [
                // A Morse training session's or QSO contact's stored form (the server's JSON: what
                // it was made from and every step since); `last_activity_ms` is its last request.
                """
                CREATE TABLE morse_exchange (
                    person_id BIGINT NOT NULL,
                    id TEXT NOT NULL CHECK (length(id) = 36),
                    kind TEXT NOT NULL CHECK (kind IN ('training', 'qso')),
                    state TEXT NOT NULL,
                    last_activity_ms BIGINT NOT NULL,
                    PRIMARY KEY (person_id, id))
                """,
                "CREATE INDEX morse_exchange_activity ON morse_exchange (person_id, kind, last_activity_ms)",
            ]),
        Migration(
            version: 11, name: "the store revision announced to every server",
            statements: [
                // A moved revision is announced (`revision:PERSON`, once per person and
                // transaction: PostgreSQL folds equal notifications) on the channel the writing
                // connection names in `momentum.channel` (every connection of the store sets it,
                // see `RevisionCache`); a connection that names none (psql) announces nothing, and
                // servers see its change when what they keep grows old.
                """
                CREATE OR REPLACE FUNCTION bump_store_revision() RETURNS trigger LANGUAGE plpgsql AS $$
                DECLARE
                    person BIGINT;
                    channel TEXT := current_setting('momentum.channel', true);
                BEGIN
                    IF TG_OP = 'DELETE' THEN person := OLD.person_id; ELSE person := NEW.person_id; END IF;
                    INSERT INTO store_revision (person_id, value) VALUES (person, 1)
                        ON CONFLICT (person_id) DO UPDATE SET value = store_revision.value + 1;
                    IF channel <> '' THEN PERFORM pg_notify(channel, 'revision:' || person); END IF;
                    RETURN NULL;
                END $$
                """
            ]),
        nameRuleMigration,
        Migration(
            version: 13, name: "saved sits in the person's order",
            statements: [
                // Every sit made before keeps 0 and with it the order it was made in.
                "ALTER TABLE meditation_preset ADD COLUMN sort_order BIGINT NOT NULL DEFAULT 0"
            ]),
    ]

    /// The versions this program knows, oldest first.
    public static var migrationVersions: [Int] { migrations.map(\.version) }

    /// Brings the schema up to date in one transaction, holding an advisory lock for the schema so
    /// that servers starting together migrate one after another (the later ones find nothing to do).
    func migrate() throws(StoreError) {
        let schemaName = schema ?? "public"
        let location = location
        try write { session throws(StoreError) in
            try session.execute("SELECT pg_advisory_xact_lock(\(Self.migrationLockKey), hashtext(\(schemaName)))")
            if let schema {
                // A plain identifier (checked when opened), so it is safe in the statement.
                try session.execute(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(schema)"))
            }
            try session.execute(
                """
                CREATE TABLE IF NOT EXISTS schema_migration (
                    version INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
                """)
            var applied: Set<Int> = []
            for row in try session.query("SELECT version FROM schema_migration") {
                let (version) = try row.columns((Int).self)
                applied.insert(version)
            }
            let known = Set(Self.migrationVersions)
            guard applied.isSubset(of: known) else { throw StoreError.databaseFromNewerVersion(path: "\(location)") }
            for migration in Self.migrations where !applied.contains(migration.version) {
                for statement in migration.statements { try session.execute(PostgresQuery(unsafeSQL: statement)) }
                try session.execute(
                    "INSERT INTO schema_migration (version, name) VALUES (\(migration.version), \(migration.name))")
            }
        }
    }

    /// `column` with A–Z folded to a–z and nothing else: SQLite's `NOCASE`, for unique indexes.
    static func asciiFolded(_ column: String) -> String {
        "translate(\(column), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"
    }

    /// The first half of the migrations' advisory lock ("mome"); the second is the schema's hash.
    static let migrationLockKey: Int32 = 0x6d6f_6d65
}
