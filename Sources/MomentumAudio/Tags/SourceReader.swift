/// Reads a source through a 64 KiB window, so walking headers and MPEG frames costs a read per
/// window rather than one per field, and turns every out-of-range or failed read into an
/// ``AudioMetadataError`` naming the file.
final class SourceReader {
    static let windowSize = 1 << 16

    let fileName: String
    /// The number of bytes in the file.
    let count: Int
    private let source: any RandomAccessByteSource
    private var windowStart = 0
    private var window: [UInt8] = []

    init(_ source: any RandomAccessByteSource, fileName: String) {
        self.source = source
        self.fileName = fileName
        count = max(0, source.count)
    }

    /// The bytes in `range`; a range past the end of the file is a truncated `element`.
    func bytes(in range: Range<Int>, element: String = "file") throws(AudioMetadataError) -> [UInt8] {
        try requireWithinFile(range, element: element)
        if range.count > Self.windowSize { return try fetch(range) }
        try load(range)
        return Array(window[(range.lowerBound - windowStart)..<(range.upperBound - windowStart)])
    }

    func byte(at offset: Int) throws(AudioMetadataError) -> UInt8 {
        try requireWithinFile(offset..<offset + 1, element: "file")
        try load(offset..<offset + 1)
        return window[offset - windowStart]
    }

    /// An unsigned integer of `length` bytes (at most 8) at `offset`.
    func integer(at offset: Int, length: Int, bigEndian: Bool = true) throws(AudioMetadataError) -> UInt64 {
        let range = offset..<offset + length
        try requireWithinFile(range, element: "file")
        try load(range)
        var value: UInt64 = 0
        for index in 0..<length {
            let byte = window[offset - windowStart + (bigEndian ? index : length - 1 - index)]
            value = value << 8 | UInt64(byte)
        }
        return value
    }

    /// Four bytes as a chunk or box name, each byte one ISO-8859-1 character (`©ART`).
    func fourCharacterCode(at offset: Int) throws(AudioMetadataError) -> String {
        String(try bytes(in: offset..<offset + 4).map { Character(Unicode.Scalar($0)) })
    }

    /// Whether the bytes at `offset` are `text` (false past the end of the file).
    func matches(_ text: String, at offset: Int) throws(AudioMetadataError) -> Bool {
        let expected = Array(text.utf8)
        guard offset >= 0, offset + expected.count <= count else { return false }
        return try bytes(in: offset..<offset + expected.count) == expected
    }

    private func requireWithinFile(_ range: Range<Int>, element: String) throws(AudioMetadataError) {
        guard range.lowerBound >= 0, range.upperBound <= count else {
            throw .truncated(fileName: fileName, element: element, neededBytes: range.upperBound, fileSize: count)
        }
    }

    private func load(_ range: Range<Int>) throws(AudioMetadataError) {
        if range.lowerBound >= windowStart, range.upperBound <= windowStart + window.count { return }
        let end = min(count, max(range.upperBound, range.lowerBound + Self.windowSize))
        window = try fetch(range.lowerBound..<end)
        windowStart = range.lowerBound
    }

    private func fetch(_ range: Range<Int>) throws(AudioMetadataError) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try source.bytes(in: range)
        } catch {
            throw .unreadable(fileName: fileName, reason: error.reason)
        }
        guard bytes.count == range.count else {
            throw .unreadable(
                fileName: fileName, reason: "asked for \(range.count) bytes at \(range.lowerBound), got \(bytes.count)")
        }
        return bytes
    }
}
