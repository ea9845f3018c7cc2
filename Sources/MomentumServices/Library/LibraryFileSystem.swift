import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file operations the library's import, cleanup and delete need: one seam, so a test can
/// make any step fail (a write half way, the rename, …) and check nothing is left behind.
public protocol LibraryFileSystem: Sendable {
    /// Creates the folder (and its parents) if it does not exist.
    func createDirectory(at url: URL) throws
    /// The names of the entries directly in `directory`.
    func fileNames(in directory: URL) throws -> [String]
    /// Creates a new, empty file that must not exist yet, open for writing and locked against
    /// every other process's cleanup until the handle is closed.
    func createLockedFile(at url: URL) throws -> any LibraryFileHandle
    /// The file at `url` locked for this process, or `nil` when another process holds its lock
    /// (an import in progress) or it cannot be opened.
    func lockIfUnused(_ url: URL) -> (any LibraryFileHandle)?
    /// Renames `source` to `destination` (same folder, so the rename is atomic).
    func moveItem(at source: URL, to destination: URL) throws
    func removeItem(at url: URL) throws
}

/// An open, locked file of the library.
public protocol LibraryFileHandle: AnyObject {
    func write(_ data: Data) throws
    /// Forces what was written to the disk.
    func synchronize() throws
    /// Closes the file and releases its lock.
    func close()
}

/// The real file system; locks are `flock(2)` locks, which follow the file through a rename and
/// die with the process, so a crashed import never keeps its leftovers locked.
public struct LocalLibraryFileSystem: LibraryFileSystem {
    public init() {}

    public func createDirectory(at url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func fileNames(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
    }

    public func createLockedFile(at url: URL) throws -> any LibraryFileHandle {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError.current }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let error = POSIXError.current
            closeDescriptor(descriptor)
            throw error
        }
        return LocalLibraryFileHandle(descriptor: descriptor)
    }

    public func lockIfUnused(_ url: URL) -> (any LibraryFileHandle)? {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            closeDescriptor(descriptor)
            return nil
        }
        return LocalLibraryFileHandle(descriptor: descriptor)
    }

    public func moveItem(at source: URL, to destination: URL) throws {
        guard rename(source.path, destination.path) == 0 else { throw POSIXError.current }
    }

    public func removeItem(at url: URL) throws {
        try FileManager.default.removeItem(at: url)
    }
}

/// An open file descriptor with its `flock` lock.
final class LocalLibraryFileHandle: LibraryFileHandle {
    private var descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close() }

    func write(_ data: Data) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = writeBytes(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError.current
                }
                offset += written
            }
        }
    }

    func synchronize() throws {
        guard fsync(descriptor) == 0 else { throw POSIXError.current }
    }

    func close() {
        guard descriptor >= 0 else { return }
        closeDescriptor(descriptor)
        descriptor = -1
    }
}

extension POSIXError {
    /// The error `errno` names now.
    public static var current: POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}

// The C functions under names that do not clash with the handle's own `close()` and `write(_:)`.
private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }
private func writeBytes(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
