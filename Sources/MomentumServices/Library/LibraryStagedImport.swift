import Crypto
import Foundation
import MomentumAudio
import MomentumCore
import Synchronization

/// What became of a file given to the library.
public enum LibraryImportOutcome: Sendable, Equatable {
    /// Copied and added.
    case imported(LibraryItem)
    /// Not added: the library already holds a file with the same bytes, `existing`.
    case duplicate(fileName: String, existing: LibraryItem)
}

/// One file on its way into the library: its bytes are written in chunks to a hidden file
/// `library/.incoming-<id>`, then ``finish()`` reads its metadata, moves it to
/// `library/<id>.<ext>` and adds its row — or removes it, so a rejected file leaves nothing.
///
/// The terminal feeds it from a file, the web app from an upload body; both end with
/// ``finish()`` or ``abandon()``. Exceeding the size limit, a failed write, or any error in
/// ``finish()`` removes the partial file before the error is thrown.
///
/// ```swift
/// let staged = try library.beginImport(originalFileName: "Body Scan.mp3")
/// for chunk in chunks { try staged.write(chunk) }
/// let outcome = try staged.finish()
/// ```
public final class LibraryStagedImport: Sendable {
    /// The cleaned name of the file being imported: what errors and the default title use.
    public let fileName: String
    /// The most bytes this import accepts.
    public let sizeLimit: Int64

    private let id: UUID
    private let incomingURL: URL
    private let importer: LibraryImporter
    private let state: Mutex<State>

    private struct State {
        var handle: (any LibraryFileHandle)?
        var hasher = SHA256()
        var byteCount: Int64 = 0
        var hasEnded = false
    }

    init(fileName: String, id: UUID, importer: LibraryImporter, handle: sending any LibraryFileHandle) {
        self.fileName = fileName
        self.sizeLimit = importer.sizeLimit
        self.id = id
        self.incomingURL = importer.incomingURL(for: id)
        self.importer = importer
        self.state = Mutex(State(handle: handle))
    }

    deinit {
        // A staged import dropped without an ending leaves nothing behind.
        abandon()
    }

    /// The bytes written so far.
    public var byteCount: Int64 { state.withLock { $0.byteCount } }

    /// Appends `chunk` to the copy. Past the size limit, or when the write fails, the partial
    /// copy is removed and the import has ended.
    public func write(_ chunk: some DataProtocol) throws(LibraryImportError) {
        let result: Result<Void, LibraryImportError> = state.withLock { state in
            guard !state.hasEnded, let handle = state.handle else { return .failure(.alreadyEnded(fileName: fileName)) }
            let newCount = state.byteCount + Int64(chunk.count)
            guard newCount <= sizeLimit else {
                end(&state)
                return .failure(.tooLarge(fileName: fileName, limit: sizeLimit))
            }
            let data = Data(chunk)
            do {
                try handle.write(data)
            } catch {
                end(&state)
                return .failure(LibraryImporter.writeFailure(fileName, error))
            }
            state.hasher.update(data: data)
            state.byteCount = newCount
            return .success(())
        }
        try result.get()
    }

    /// Reads the copy's metadata and adds it to the library, or tells why not (removing the copy).
    public func finish() async throws(LibraryImportError) -> LibraryImportOutcome {
        // Taken out under the lock (the import has ended for everyone else); the row is stored
        // outside it.
        let taken: (handle: any LibraryFileHandle, hash: String, byteCount: Int64)? = state.withLock { state in
            guard !state.hasEnded, let handle = state.handle else { return nil }
            state.hasEnded = true
            state.handle = nil
            return (handle, state.hasher.finalize().map { String(format: "%02x", $0) }.joined(), state.byteCount)
        }
        guard let (handle, hash, byteCount) = taken else { throw .alreadyEnded(fileName: fileName) }
        // The handle stays open (and locked) until the row is in, so no cleanup elsewhere takes
        // the file for a leftover.
        defer { handle.close() }
        do {
            try handle.synchronize()
        } catch {
            importer.remove(incomingURL)
            throw LibraryImporter.writeFailure(fileName, error)
        }
        return try await importer.store(
            incomingURL: incomingURL, id: id, fileName: fileName, byteCount: byteCount, contentHash: hash)
    }

    /// Stops the import and removes the partial copy; does nothing once it has ended.
    public func abandon() {
        state.withLock { end(&$0) }
    }

    private func end(_ state: inout State) {
        guard !state.hasEnded else { return }
        state.hasEnded = true
        importer.remove(incomingURL)
        state.handle?.close()
        state.handle = nil
    }
}
