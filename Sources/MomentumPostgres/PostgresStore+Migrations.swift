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
    static let migrations: [Migration] =
        [
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
        ] + migrationsSinceSync

    /// The versions this program knows, oldest first.
    public static var migrationVersions: [Int] { migrations.map(\.version) }

    /// Brings the schema up to date in one transaction, holding an advisory lock for the schema so
    /// that servers starting together migrate one after another (the later ones find nothing to do).
    func migrate() async throws(StoreError) {
        let schemaName = schema ?? "public"
        let location = location
        try await write { session throws(StoreError) in
            try await session.execute("SELECT pg_advisory_xact_lock(\(Self.migrationLockKey), hashtext(\(schemaName)))")
            if let schema {
                // A plain identifier (checked when opened), so it is safe in the statement.
                try await session.execute(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(schema)"))
            }
            try await session.execute(
                """
                CREATE TABLE IF NOT EXISTS schema_migration (
                    version INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
                """)
            var applied: Set<Int> = []
            for row in try await session.query("SELECT version FROM schema_migration") {
                let (version) = try row.columns((Int).self)
                applied.insert(version)
            }
            let known = Set(Self.migrationVersions)
            guard applied.isSubset(of: known) else { throw StoreError.databaseFromNewerVersion(path: "\(location)") }
            for migration in Self.migrations where !applied.contains(migration.version) {
                for statement in migration.statements { try await session.execute(PostgresQuery(unsafeSQL: statement)) }
                try await session.execute(
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
