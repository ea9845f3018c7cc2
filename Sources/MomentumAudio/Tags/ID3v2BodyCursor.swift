/// Reads an ID3v2 tag's body front to back, undoing tag-level unsynchronisation on the way.
///
/// Unsynchronisation inserts a 0x00 after every 0xFF so no byte pair looks like an MPEG frame
/// sync; in ID3v2.2 and 2.3 frame sizes count the bytes *after* undoing it, so an unsynchronised
/// tag must be read byte by byte. Bytes come through the reader's window, so even a large cover
/// skipped this way is streamed, not loaded.
struct ID3v2BodyCursor {
    let reader: SourceReader
    private(set) var position: Int
    let end: Int
    let unsynchronised: Bool

    init(reader: SourceReader, range: Range<Int>, unsynchronised: Bool) {
        self.reader = reader
        position = range.lowerBound
        end = range.upperBound
        self.unsynchronised = unsynchronised
    }

    /// The bytes left on disk: exactly what is left to read without unsynchronisation, an upper
    /// bound with it.
    var remaining: Int { end - position }

    /// The next `count` bytes, or `nil` if the body ends before them.
    mutating func read(_ count: Int) throws(AudioMetadataError) -> [UInt8]? {
        guard count >= 0, count <= remaining else { return nil }
        guard unsynchronised else {
            defer { position += count }
            return try reader.bytes(in: position..<position + count)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            guard let byte = try nextUnsynchronisedByte() else { return nil }
            bytes.append(byte)
        }
        return bytes
    }

    /// Moves past `count` bytes; false if the body ends before them.
    mutating func skip(_ count: Int) throws(AudioMetadataError) -> Bool {
        guard count >= 0, count <= remaining else { return false }
        guard unsynchronised else {
            position += count
            return true
        }
        for _ in 0..<count {
            guard try nextUnsynchronisedByte() != nil else { return false }
        }
        return true
    }

    private mutating func nextUnsynchronisedByte() throws(AudioMetadataError) -> UInt8? {
        guard position < end else { return nil }
        let byte = try reader.byte(at: position)
        position += 1
        if byte == 0xFF, position < end, try reader.byte(at: position) == 0 { position += 1 }
        return byte
    }

    /// `bytes` with unsynchronisation undone (ID3v2.4 applies it per frame).
    static func resynchronised(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            result.append(bytes[index])
            if bytes[index] == 0xFF, index + 1 < bytes.count, bytes[index + 1] == 0 { index += 1 }
            index += 1
        }
        return result
    }
}
