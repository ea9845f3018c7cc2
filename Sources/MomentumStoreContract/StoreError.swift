/// Why the store could not do what was asked. Each case names the file or directory involved.
public enum StoreError: Error, Equatable, Sendable {
    /// The data directory cannot be created or written to.
    case dataDirectoryNotWritable(path: String, reason: String)
    /// The data directory can be read but not written (a read-only mount, another user's
    /// folder): what it holds can be shown and exported, nothing changed.
    case readOnly(path: String)
    /// The database file exists but is not an SQLite database; it is left untouched.
    case notADatabase(path: String)
    /// The database file is an SQLite database whose pages are damaged (SQLITE_CORRUPT); it is
    /// left as it is, for a backup to replace.
    case damaged(path: String)
    /// The database was migrated by a newer Momentum than this one.
    case databaseFromNewerVersion(path: String)
    /// A stored row no longer makes a valid value (e.g. edited by hand).
    case corruptRow(table: String, id: String, reason: String)
    /// Another writer (a long terminal import, say) held the database longer than the wait allows;
    /// nothing was changed and trying again later works.
    case busy
    /// The disk (or the database's own size limit) is full: the write was not made; reads work.
    case diskFull
    /// What was asked is something this kind of store does not do (on PostgreSQL: the terminal's
    /// own replica, the data directory's backup); `what` names it for the log.
    case unavailable(what: String)
    /// Any other database failure, with SQLite's message.
    case database(message: String)
}
