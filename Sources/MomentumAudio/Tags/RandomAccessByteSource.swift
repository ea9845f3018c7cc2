import Foundation

/// Bytes at any offset of a file or a buffer, read on demand.
///
/// The metadata readers only ever ask for a file's head, its tail and the headers they seek to,
/// so a 500 MB recording is never loaded whole.
///
/// ```swift
/// let source = InMemoryByteSource(data)
/// let head = try source.bytes(in: 0..<10)
/// ```
public protocol RandomAccessByteSource {
    /// The number of bytes in the source.
    var count: Int { get }

    /// The bytes in `range`, which lies within `0..<count`.
    func bytes(in range: Range<Int>) throws(ByteSourceError) -> [UInt8]
}

/// Why a source could not deliver its bytes (an I/O error, a file that shrank).
public struct ByteSourceError: Error, Equatable, Sendable {
    public var reason: String

    public init(reason: String) { self.reason = reason }
}

/// Bytes already in memory.
public struct InMemoryByteSource: RandomAccessByteSource, Sendable {
    private let storage: [UInt8]

    public init(_ bytes: [UInt8]) { storage = bytes }

    public init(_ data: Data) { storage = [UInt8](data) }

    public var count: Int { storage.count }

    public func bytes(in range: Range<Int>) throws(ByteSourceError) -> [UInt8] {
        guard range.lowerBound >= 0, range.upperBound <= storage.count else {
            throw ByteSourceError(reason: "bytes \(range) lie outside the \(storage.count) bytes held")
        }
        return Array(storage[range])
    }
}

/// A file read with seeks, never whole.
///
/// Not `Sendable`: a file handle's position is shared state, so one reader owns it.
public final class FileByteSource: RandomAccessByteSource {
    private let handle: FileHandle
    public let count: Int

    public init(url: URL) throws(ByteSourceError) {
        do {
            handle = try FileHandle(forReadingFrom: url)
            count = Int(clamping: try handle.seekToEnd())
        } catch {
            throw ByteSourceError(reason: error.localizedDescription)
        }
    }

    deinit { try? handle.close() }  // try?: a file opened only for reading loses nothing on close

    public func bytes(in range: Range<Int>) throws(ByteSourceError) -> [UInt8] {
        guard range.lowerBound >= 0, range.upperBound <= count else {
            throw ByteSourceError(reason: "bytes \(range) lie outside the file's \(count) bytes")
        }
        do {
            try handle.seek(toOffset: UInt64(range.lowerBound))
            var bytes: [UInt8] = []
            bytes.reserveCapacity(range.count)
            while bytes.count < range.count {
                guard let chunk = try handle.read(upToCount: range.count - bytes.count), !chunk.isEmpty else {
                    throw ByteSourceError(reason: "the file ended at byte \(range.lowerBound + bytes.count)")
                }
                bytes += chunk
            }
            return bytes
        } catch let error as ByteSourceError {
            throw error
        } catch {
            throw ByteSourceError(reason: error.localizedDescription)
        }
    }
}
