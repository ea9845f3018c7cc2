import MomentumStoreContract
import PostgresNIO

extension PostgresStore {
    /// The schema's history from sync on (version 7): the second part of ``migrations``. Append
    /// only, like the first.
    static let migrationsSinceSync: [Migration] = [
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
        Migration(
            version: 14, name: "the household's Web Push key",
            statements: [
                // One row, made on first use by whichever server asks first.
                """
                CREATE TABLE push_server_key (
                    id SMALLINT PRIMARY KEY CHECK (id = 1),
                    private_key BYTEA NOT NULL CHECK (octet_length(private_key) = 32),
                    created_at_ms BIGINT NOT NULL
                )
                """
            ]),
        Migration(
            version: 15, name: "the person's Web Push subscriptions",
            statements: [
                // One per browser endpoint and person; device-bound, so not in backups.
                """
                CREATE TABLE push_subscription (
                    person_id BIGINT NOT NULL,
                    id TEXT NOT NULL,
                    endpoint TEXT NOT NULL CHECK (length(endpoint) <= 1024),
                    p256dh TEXT NOT NULL CHECK (length(p256dh) <= 100),
                    auth TEXT NOT NULL CHECK (length(auth) <= 40),
                    device_name TEXT NOT NULL,
                    created_at_ms BIGINT NOT NULL,
                    expires_at_ms BIGINT,
                    last_delivered_at_ms BIGINT,
                    last_failure_at_ms BIGINT,
                    last_failure TEXT,
                    position BIGINT GENERATED ALWAYS AS IDENTITY,
                    PRIMARY KEY (person_id, id),
                    UNIQUE (person_id, endpoint))
                """
            ]),
        Migration(
            version: 16, name: "the person's push outbox",
            statements: [
                // One row per reminder, instant and subscription; machine-bound, so not in backups.
                // Servers claim rows with FOR UPDATE SKIP LOCKED and hold them until claimed_until_ms.
                """
                CREATE TABLE push_outbox (
                    person_id BIGINT NOT NULL,
                    id TEXT NOT NULL,
                    reminder_id TEXT NOT NULL,
                    occurrence_id TEXT NOT NULL,
                    due_at_ms BIGINT NOT NULL,
                    subscription_id TEXT NOT NULL,
                    useful_until_ms BIGINT NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('pending', 'sent', 'dropped')),
                    attempts BIGINT NOT NULL DEFAULT 0,
                    next_attempt_at_ms BIGINT NOT NULL,
                    claimed_until_ms BIGINT,
                    finished_at_ms BIGINT,
                    outcome TEXT,
                    position BIGINT GENERATED ALWAYS AS IDENTITY,
                    PRIMARY KEY (person_id, id),
                    UNIQUE (person_id, reminder_id, due_at_ms, subscription_id))
                """,
                "CREATE INDEX push_outbox_due ON push_outbox (person_id, state, next_attempt_at_ms)",
            ]),
        Migration(
            version: 17, name: "quiet daily trackers",
            statements: [
                // The person's own: in backups.
                """
                CREATE TABLE tracker (
                    person_id BIGINT NOT NULL,
                    id TEXT NOT NULL,
                    name TEXT NOT NULL CHECK (length(btrim(name)) > 0),
                    ask_minute BIGINT NOT NULL CHECK (ask_minute >= 0 AND ask_minute < 1440),
                    about TEXT NOT NULL CHECK (about IN ('today', 'yesterday')),
                    created_at_ms BIGINT NOT NULL,
                    updated_at_ms BIGINT NOT NULL,
                    position BIGINT GENERATED ALWAYS AS IDENTITY,
                    PRIMARY KEY (person_id, id))
                """,
                """
                CREATE TABLE tracker_day (
                    person_id BIGINT NOT NULL,
                    id TEXT NOT NULL,
                    tracker_id TEXT NOT NULL,
                    day TEXT NOT NULL CHECK (day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
                    answer BOOLEAN NOT NULL,
                    answered_at_ms BIGINT NOT NULL,
                    position BIGINT GENERATED ALWAYS AS IDENTITY,
                    PRIMARY KEY (person_id, id),
                    UNIQUE (person_id, tracker_id, day),
                    FOREIGN KEY (person_id, tracker_id) REFERENCES tracker (person_id, id) ON DELETE CASCADE)
                """,
            ]),
    ]
}
