@testable import MomentumAudio

/// Bytes in memory that count how often and how much the readers ask for.
final class CountingByteSource: RandomAccessByteSource {
    private let storage: InMemoryByteSource
    private(set) var reads = 0
    private(set) var bytesRead = 0

    init(_ bytes: [UInt8]) { storage = InMemoryByteSource(bytes) }

    var count: Int { storage.count }

    func bytes(in range: Range<Int>) throws(ByteSourceError) -> [UInt8] {
        reads += 1
        bytesRead += range.count
        return try storage.bytes(in: range)
    }
}

/// A huge file that exists only where it has something to say: `segments` at their offsets,
/// zeros everywhere else. Counts the bytes the readers ask for.
final class SparseByteSource: RandomAccessByteSource {
    let count: Int
    private let segments: [(offset: Int, bytes: [UInt8])]
    private(set) var bytesRead = 0

    init(count: Int, segments: [(offset: Int, bytes: [UInt8])]) {
        self.count = count
        self.segments = segments
    }

    func bytes(in range: Range<Int>) throws(ByteSourceError) -> [UInt8] {
        guard range.lowerBound >= 0, range.upperBound <= count else { throw ByteSourceError(reason: "outside") }
        bytesRead += range.count
        var result = [UInt8](repeating: 0, count: range.count)
        for segment in segments {
            let overlap = range.clamped(to: segment.offset..<segment.offset + segment.bytes.count)
            for offset in overlap { result[offset - range.lowerBound] = segment.bytes[offset - segment.offset] }
        }
        return result
    }
}
