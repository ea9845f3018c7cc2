import GRDB

extension MomentumDatabase {
    /// The replica's tables (see docs/sync.md): its clock, the merged fields with their stamps,
    /// the tombstones, the timers each item named, the log of changes with their sequence numbers,
    /// and the outbox of local changes a server has not acknowledged yet.
    static func createSyncTables(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE syncReplica (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    node TEXT NOT NULL,
                    lastStamp TEXT,
                    serverURL TEXT,
                    cursor INTEGER NOT NULL DEFAULT 0 CHECK (cursor >= 0),
                    lastSyncAtMs INTEGER);
                CREATE TABLE syncField (
                    entityType TEXT NOT NULL,
                    entityId TEXT NOT NULL,
                    field TEXT NOT NULL,
                    value TEXT NOT NULL,
                    stamp TEXT NOT NULL,
                    device TEXT NOT NULL,
                    PRIMARY KEY (entityType, entityId, field)) WITHOUT ROWID;
                CREATE TABLE syncDeletion (
                    entityType TEXT NOT NULL,
                    entityId TEXT NOT NULL,
                    stamp TEXT NOT NULL,
                    device TEXT NOT NULL,
                    PRIMARY KEY (entityType, entityId)) WITHOUT ROWID;
                CREATE TABLE syncItemTimer (
                    itemId TEXT NOT NULL,
                    timerId TEXT NOT NULL,
                    PRIMARY KEY (itemId, timerId)) WITHOUT ROWID;
                CREATE INDEX syncItemTimer_timerId ON syncItemTimer (timerId);
                CREATE TABLE syncLog (
                    seq INTEGER PRIMARY KEY,
                    stamp TEXT NOT NULL,
                    entityType TEXT NOT NULL,
                    entityId TEXT NOT NULL,
                    field TEXT,
                    message TEXT NOT NULL,
                    origin TEXT NOT NULL CHECK (origin IN ('local', 'remote')));
                CREATE INDEX syncLog_stamp ON syncLog (stamp);
                CREATE TABLE syncOutbox (
                    seq INTEGER PRIMARY KEY REFERENCES syncLog (seq) ON DELETE CASCADE);
                """)
    }
}
