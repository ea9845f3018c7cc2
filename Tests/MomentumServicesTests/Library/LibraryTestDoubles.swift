import Foundation
import MomentumCore
import MomentumStore
import MomentumStoreContract

@testable import MomentumServices

/// The real file system with a switch for each step that can fail: the test says which one.
final class FailingLibraryFileSystem: LibraryFileSystem, @unchecked Sendable {
    // Set before the code under test runs and read from the test's own task only.
    enum FailurePoint: Equatable {
        case none
        /// The write numbered `n` (from 1) of an import throws, after earlier ones succeeded.
        case write(Int)
        /// As ``write(_:)``, with the error a full disk gives (`ENOSPC`).
        case writeOutOfSpace(Int)
        case createFile
        case move
    }

    struct InjectedFailure: Error, CustomStringConvertible {
        var step: String
        var description: String { "injected failure at \(step)" }
    }

    private let real = LocalLibraryFileSystem()
    var failure: FailurePoint

    init(failing failure: FailurePoint = .none) { self.failure = failure }

    func createDirectory(at url: URL) throws { try real.createDirectory(at: url) }
    func fileNames(in directory: URL) throws -> [String] { try real.fileNames(in: directory) }
    func lockIfUnused(_ url: URL) -> (any LibraryFileHandle)? { real.lockIfUnused(url) }
    func removeItem(at url: URL) throws { try real.removeItem(at: url) }

    func createLockedFile(at url: URL) throws -> any LibraryFileHandle {
        if failure == .createFile { throw InjectedFailure(step: "create") }
        let handle = try real.createLockedFile(at: url)
        switch failure {
        case .write(let failing):
            return FailingHandle(wrapped: handle, failingWrite: failing) { InjectedFailure(step: "write \($0)") }
        case .writeOutOfSpace(let failing):
            return FailingHandle(wrapped: handle, failingWrite: failing) { _ in POSIXError(.ENOSPC) }
        default:
            return handle
        }
    }

    func moveItem(at source: URL, to destination: URL) throws {
        if failure == .move { throw InjectedFailure(step: "rename") }
        try real.moveItem(at: source, to: destination)
    }

    final class FailingHandle: LibraryFileHandle {
        let wrapped: any LibraryFileHandle
        let failingWrite: Int
        /// The error of the failing write, from its number.
        let failure: (Int) -> any Error
        var writes = 0

        init(wrapped: any LibraryFileHandle, failingWrite: Int, failure: @escaping (Int) -> any Error) {
            self.wrapped = wrapped
            self.failingWrite = failingWrite
            self.failure = failure
        }

        func write(_ data: Data) throws {
            writes += 1
            if writes == failingWrite {
                // Half the chunk reaches the disk, as when the disk fills up mid-write.
                try wrapped.write(data.prefix(data.count / 2))
                throw failure(writes)
            }
            try wrapped.write(data)
        }

        func synchronize() throws { try wrapped.synchronize() }
        func close() { wrapped.close() }
    }
}

/// The real database whose library insert can be made to fail, or to run something first.
struct FailingInsertRepository: LibraryRepository {
    let database: MomentumDatabase
    var failsInsert = true
    /// Runs right before the insert: after the import's rename.
    var beforeInsert: @Sendable () async -> Void = {}

    func libraryItems() throws(StoreError) -> [LibraryItem] { try database.libraryItems() }
    func libraryItem(id: UUID) throws(StoreError) -> LibraryItem? { try database.libraryItem(id: id) }
    func libraryItem(contentHash: String) throws(StoreError) -> LibraryItem? {
        try database.libraryItem(contentHash: contentHash)
    }
    func insertLibraryItem(_ item: LibraryItem, at now: Date) async throws(StoreError) {
        await beforeInsert()
        if failsInsert { throw .database(message: "injected failure at insert") }
        try database.insertLibraryItem(item, at: now)
    }
    func updateLibraryItemEdits(id: UUID, teacher: String?, name: String?, at now: Date) throws(StoreError) -> Bool {
        try database.updateLibraryItemEdits(id: id, teacher: teacher, name: name, at: now)
    }
    func setLibraryItemAmbientBed(id: UUID, _ isAmbientBed: Bool, at now: Date) throws(StoreError) -> Bool {
        try database.setLibraryItemAmbientBed(id: id, isAmbientBed, at: now)
    }
    func setLibraryItemPosition(id: UUID, _ position: Duration, at now: Date) throws(StoreError) -> Bool {
        try database.setLibraryItemPosition(id: id, position, at: now)
    }
    func deleteLibraryItem(id: UUID) throws(StoreError) -> Bool { try database.deleteLibraryItem(id: id) }
}

/// Ids 00000000-0000-0000-0000-000000000001, …2, … in order.
final class SequentialIDs: @unchecked Sendable {
    // Guarded by the lock: ids may be drawn from any task.
    private let lock = NSLock()
    private var next = 1
    func make() -> UUID {
        lock.withLock {
            defer { next += 1 }
            return UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", next)) ?? UUID()
        }
    }
}
