import Foundation
import MomentumStoreContract
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One file's `stat`: what moves when the file is written.
struct FileStamp: Equatable, Sendable {
    var inode: UInt64
    var size: Int64
    var modified: Double
    var changed: Double
}

/// Answers "has the database changed?" without a database read while its files stand still: the
/// store revision, and the household's people (asked on every request of the server).
///
/// Every commit, by this process or another (`momentum log add` while the server runs), writes the
/// write-ahead log or, at a checkpoint, the database file, so their `stat` (inode, size, change
/// and modification times) moves. The revision read with a set of stamps is answered again while
/// the stamps are the same — a `stat` of two files instead of a reader, a transaction and a query.
///
/// Timestamps have a granularity (a second on some file systems), so a write in the same tick as
/// the read could leave the stamps unchanged. As git does with its index ("racy" entries), a
/// snapshot is only trusted when both files were last changed more than `racyWindow` before the
/// stamps were taken; until then every call reads the database.
///
/// A value that only this process changes in practice (the household's people) may also be kept
/// for `rereadAfter` seconds while the files move for other reasons — a server taking pushes
/// writes many times a second, and reading the people on each request cost a tenth of its time.
/// Whoever writes that value through this process calls ``forget()``; another process's change
/// is seen within `rereadAfter`.
final class StampedCache<Value: Sendable>: Sendable {
    private struct Snapshot: Sendable {
        /// `nil` while the files were changed too recently to trust their stamps.
        var stamps: [FileStamp?]?
        var value: Value
        var readAt: Double
    }

    /// How long after a change a file's stamps are not trusted (see above).
    let racyWindow: Double = 2

    private let paths: [String]
    private let rereadAfter: Double
    private let now: @Sendable () -> Double
    private let kept = Mutex<Snapshot?>(nil)

    /// `now` is the wall clock in seconds since 1970, as file times are kept (tests move it).
    init(
        databasePath: String, rereadAfter: Double = 0,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        paths = [databasePath, databasePath + "-wal"]
        self.rereadAfter = rereadAfter
        self.now = now
    }

    /// The value: the kept one when the files have not moved since it was read (or it was read
    /// less than `rereadAfter` ago), else `read()`.
    func value(read: () throws(StoreError) -> Value) throws(StoreError) -> Value {
        let takenAt = now()
        let stamps = paths.map(FileStamp.of)
        if let snapshot = kept.withLock({ $0 }),
            snapshot.stamps == stamps || takenAt - snapshot.readAt < rereadAfter
        {
            return snapshot.value
        }
        let value = try read()
        let settled = stamps.allSatisfy { stamp in
            guard let stamp else { return true }
            return max(stamp.modified, stamp.changed) < takenAt - racyWindow
        }
        kept.withLock { $0 = Snapshot(stamps: settled ? stamps : nil, value: value, readAt: takenAt) }
        return value
    }

    /// Drops the kept value: the next call reads (after this process wrote it).
    func forget() {
        kept.withLock { $0 = nil }
    }
}

/// The store revision, kept while the database files stand still.
typealias RevisionWatch = StampedCache<Int64>

extension StampedCache where Value == Int64 {
    func revision(read: () throws(StoreError) -> Int64) throws(StoreError) -> Int64 {
        try value(read: read)
    }
}

extension FileStamp {

    static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
            let modified = info.st_mtimespec
            let changed = info.st_ctimespec
        #else
            let modified = info.st_mtim
            let changed = info.st_ctim
        #endif
        return FileStamp(
            inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: Double(modified.tv_sec) + Double(modified.tv_nsec) / 1e9,
            changed: Double(changed.tv_sec) + Double(changed.tv_nsec) / 1e9)
    }
}
