import Foundation
import Synchronization

/// The backup uploaded for a restore, kept on disk between its check (`POST /restores`) and
/// its restore (`POST /restores/{id}/apply`), so a large archive is uploaded once.
///
/// One at a time: a new upload replaces the one before. An upload expires ``lifetime`` after
/// it was checked and its file is removed then (at the latest when the next backup request
/// comes). The folder is the server's own: it is emptied when the server starts, and the
/// archives written for downloads pass through it too.
final class StagedRestores: Sendable {
    struct Staged: Sendable, Equatable {
        var id: UUID
        var url: URL
        /// The file's name as the person chose it, for the messages.
        var name: String
        var expires: Date
    }

    enum Lookup: Equatable {
        case found(Staged)
        case expired
        case unknown
    }

    static let lifetime: TimeInterval = 60 * 60

    let folder: URL
    private let state = Mutex(State())

    private struct State {
        var current: Staged?
        /// Ids of uploads that expired, so asking for one says so (410) rather than 404.
        var expired: [UUID] = []
    }

    init(folder: URL) {
        self.folder = folder
    }

    /// Removes everything a stopped server left in the folder.
    func removeLeftovers() {
        // try?: the folder is missing until the first backup request makes it; then nothing is left.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        // try?: best-effort: these are the server's own copies of uploads and downloads, none the
        // only copy of anything; one that stays is tried again at the next start.
        for name in names { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
    }

    /// A new file name in the folder (which is made when missing).
    func makeURL(prefix: String, id: UUID, extension: String) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("\(prefix)-\(id.uuidString.lowercased()).\(`extension`)")
    }

    /// Keeps `staged`; the one kept before (if any) is removed.
    func keep(_ staged: Staged, now: Date) {
        let replaced = state.withLock { state in
            defer { state.current = staged }
            return state.current
        }
        if let replaced, replaced.url != staged.url { remove(replaced.url) }
        removeExpired(now: now)
    }

    /// Takes the upload `id` out (for its restore, or to discard it): it is no longer kept.
    func take(_ id: UUID, now: Date) -> Lookup {
        removeExpired(now: now)
        return state.withLock { state in
            if let current = state.current, current.id == id {
                state.current = nil
                return .found(current)
            }
            return state.expired.contains(id) ? .expired : .unknown
        }
    }

    /// Keeps `staged` again after a restore that did not happen (the database was busy), unless
    /// another upload came meanwhile or it expired; otherwise its file goes.
    func putBack(_ staged: Staged, now: Date) {
        let kept = state.withLock { state in
            guard state.current == nil, staged.expires > now else { return false }
            state.current = staged
            return true
        }
        if !kept { remove(staged.url) }
    }

    /// Removes the kept upload when it has expired.
    func removeExpired(now: Date) {
        let expired = state.withLock { state -> Staged? in
            guard let current = state.current, current.expires <= now else { return nil }
            state.current = nil
            state.expired = Array((state.expired + [current.id]).suffix(16))
            return current
        }
        if let expired { remove(expired.url) }
    }

    func remove(_ url: URL) {
        // try?: the file may already be gone (a download's archive is unlinked once open); one
        // that stays is only a copy of an upload, removed when the server next starts.
        try? FileManager.default.removeItem(at: url)
    }
}
