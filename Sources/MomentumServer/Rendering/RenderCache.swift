import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finished renders kept under their ETag (`<tag>.wav`), at most `capacity` bytes in all; the
/// ones used longest ago go first.
///
/// A render is written under a hidden temporary name and renamed when complete, so the cache
/// never holds half a file. Each use marks a file's modification time (access times are not
/// kept reliably on `relatime` mounts), and ``trim()`` removes by it. A removed file that is
/// still being sent keeps streaming: it is read through a descriptor opened before.
struct RenderCache: Sendable {
    let folder: URL
    let capacity: Int64

    static let partialSuffix = ".partial"

    /// Whether a render of `byteCount` bytes is kept at all: one larger than the whole cache is
    /// only streamed.
    func keeps(byteCount: Int) -> Bool {
        Int64(byteCount) <= capacity
    }

    /// The cached render for `tag`, opened and marked as just used; `nil` when there is none.
    func open(tag: String) -> CachedRender? {
        let path = folder.appendingPathComponent("\(tag).wav").path
        let descriptor = posixOpen(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            _ = close(descriptor)
            return nil
        }
        _ = futimens(descriptor, nil)
        return CachedRender(descriptor: descriptor, byteCount: Int(status.st_size))
    }

    /// A new file for the render `tag`, under a temporary name until ``RenderCacheFile/commit()``.
    func makeFile(tag: String) throws -> RenderCacheFile {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let partial = folder.appendingPathComponent(".\(tag).\(UUID().uuidString)\(Self.partialSuffix)").path
        return try RenderCacheFile(partialPath: partial, finalPath: folder.appendingPathComponent("\(tag).wav").path)
    }

    /// Removes finished renders, used longest ago first, until the folder holds at most
    /// `capacity` bytes; renders still being written count but are not removed. Returns the
    /// names removed.
    @discardableResult
    func trim() -> [String] {
        let keys: Set<URLResourceKey> = [.fileSizeKey, .contentModificationDateKey]
        guard
            // try?: a folder that cannot be listed holds no render this trim could remove.
            let files = try? FileManager.default.contentsOfDirectory(
                at: folder, includingPropertiesForKeys: Array(keys))
        else { return [] }
        var total: Int64 = 0
        var finished: [(name: String, size: Int64, used: Date)] = []
        for file in files {
            // try?: a file gone since the listing (another trim removed it) neither counts nor goes.
            guard let values = try? file.resourceValues(forKeys: keys) else { continue }
            let size = Int64(values.fileSize ?? 0)
            total += size
            let name = file.lastPathComponent
            if name.hasSuffix(".wav"), !name.hasPrefix(".") {
                finished.append((name, size, values.contentModificationDate ?? .distantPast))
            }
        }
        finished.sort { ($0.used, $0.name) < ($1.used, $1.name) }
        var removed: [String] = []
        for file in finished where total > capacity {
            guard unlink(folder.appendingPathComponent(file.name).path) == 0 else { continue }
            total -= file.size
            removed.append(file.name)
        }
        return removed
    }

    /// Removes renders a stopped server left half written.
    func removeLeftovers() {
        // try?: the folder is missing until the first render is kept; then nothing is left.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasSuffix(Self.partialSuffix) {
            unlink(folder.appendingPathComponent(name).path)
        }
    }
}

/// A cached render opened for reading; the descriptor closes with the last reference.
final class CachedRender: Sendable {
    let descriptor: Int32
    let byteCount: Int

    init(descriptor: Int32, byteCount: Int) {
        self.descriptor = descriptor
        self.byteCount = byteCount
    }

    /// Up to `count` bytes from `offset`; fewer only at the end.
    func read(at offset: Int, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let done = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
        guard done >= 0 else { throw RenderCacheError.readFailed(errno) }
        return Array(bytes.prefix(done))
    }

    deinit {
        _ = close(descriptor)
    }
}

/// A render being written into the cache. Not thread-safe: one render's steps use it in turn.
final class RenderCacheFile {
    let partialPath: String
    let finalPath: String
    private var descriptor: Int32
    private var isDone = false

    init(partialPath: String, finalPath: String) throws {
        self.partialPath = partialPath
        self.finalPath = finalPath
        descriptor = posixOpen(partialPath, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw RenderCacheError.writeFailed(errno) }
    }

    func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var done = 0
            while done < buffer.count {
                let written = write(descriptor, base + done, buffer.count - done)
                guard written > 0 else { throw RenderCacheError.writeFailed(errno) }
                done += written
            }
        }
    }

    /// Closes the file and gives it its final name, replacing an older copy.
    func commit() throws {
        isDone = true
        let closed = close(descriptor)
        descriptor = -1
        guard closed == 0, rename(partialPath, finalPath) == 0 else {
            let error = errno
            unlink(partialPath)
            throw RenderCacheError.writeFailed(error)
        }
    }

    /// Closes and removes the unfinished file.
    func discard() {
        guard !isDone else { return }
        isDone = true
        _ = close(descriptor)
        descriptor = -1
        unlink(partialPath)
    }

    deinit {
        discard()
    }
}

/// Why the render cache could not read or write a file (an `errno`).
enum RenderCacheError: Error, Equatable {
    case readFailed(Int32)
    case writeFailed(Int32)
}

// At file scope: inside the types, `open`, `write` and `close` would name their own methods.
private func posixOpen(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    open(path, flags, mode)
}
