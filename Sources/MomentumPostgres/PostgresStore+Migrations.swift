import MomentumStore
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
            ])
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

    /// The first half of the migrations' advisory lock ("mome"); the second is the schema's hash.
    static let migrationLockKey: Int32 = 0x6d6f_6d65
}
