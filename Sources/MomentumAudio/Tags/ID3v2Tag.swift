/// An ID3v2.2, 2.3 or 2.4 tag: the artist, title and album it holds and where it ends.
///
/// Only `TPE1`/`TIT2`/`TALB` (`TP1`/`TT2`/`TAL` in 2.2) are read, at most
/// ``TagText/maximumBytes`` of each; every other frame — cover art included — is skipped by its
/// size. Reading stops at padding or at bytes that are not a frame id, because taggers leave
/// garbage there; a frame that claims more than the tag holds is an error.
struct ID3v2Tag: Equatable {
    var fields = TagFields()
    /// The offset just past the tag (and its footer, if it has one): where audio may begin.
    var end: Int

    static let headerLength = 10
    /// Far more frames than any real tag has; bounds the work a crafted tag can cause.
    static let maximumFrames = 10_000

    /// The tag at `offset`, or `nil` if there is none.
    static func read(at offset: Int, from reader: SourceReader) throws(AudioMetadataError) -> ID3v2Tag? {
        guard try reader.matches("ID3", at: offset) else { return nil }
        guard offset + headerLength <= reader.count else {
            throw .truncated(
                fileName: reader.fileName, element: "ID3v2 tag header", neededBytes: offset + headerLength,
                fileSize: reader.count)
        }
        let header = try reader.bytes(in: offset..<offset + headerLength)
        let (major, revision, flags) = (header[3], header[4], header[5])
        guard major != 0xFF, revision != 0xFF, header[6..<10].allSatisfy({ $0 < 0x80 }) else {
            throw .invalidHeader(
                fileName: reader.fileName, element: "ID3v2 tag header", reason: "its size is not synchsafe")
        }
        let bodyStart = offset + headerLength
        let bodyEnd = bodyStart + synchsafe(header[6..<10])
        let hasFooter = major == 4 && flags & 0x10 != 0
        let tagEnd = bodyEnd + (hasFooter ? headerLength : 0)
        guard tagEnd <= reader.count else {
            throw .truncated(
                fileName: reader.fileName, element: "ID3v2 tag", neededBytes: tagEnd, fileSize: reader.count)
        }
        var tag = ID3v2Tag(end: tagEnd)
        // 2.2 with its compression bit set cannot be read; later major versions are unknown.
        guard (2...4).contains(major), !(major == 2 && flags & 0x40 != 0) else { return tag }
        var frameReader = ID3v2FrameReader(
            reader: reader, major: major, tagUnsynchronised: flags & 0x80 != 0, body: bodyStart..<bodyEnd)
        if major >= 3, flags & 0x40 != 0 { try frameReader.skipExtendedHeader() }
        tag.fields = try frameReader.readFields()
        return tag
    }

    /// A 28-bit integer stored 7 bits per byte, so it never contains a frame sync.
    static func synchsafe(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reduce(0) { $0 << 7 | Int($1 & 0x7F) }
    }
}

/// Walks the frames of one tag body.
private struct ID3v2FrameReader {
    let major: UInt8
    let tagUnsynchronised: Bool
    var cursor: ID3v2BodyCursor
    var fileName: String { cursor.reader.fileName }

    init(reader: SourceReader, major: UInt8, tagUnsynchronised: Bool, body: Range<Int>) {
        self.major = major
        self.tagUnsynchronised = tagUnsynchronised
        // 2.4 unsynchronises frame by frame, and its frame sizes count the bytes on disk.
        cursor = ID3v2BodyCursor(reader: reader, range: body, unsynchronised: tagUnsynchronised && major < 4)
    }

    var idLength: Int { major == 2 ? 3 : 4 }
    var frameHeaderLength: Int { major == 2 ? 6 : 10 }

    mutating func skipExtendedHeader() throws(AudioMetadataError) {
        guard let sizeBytes = try cursor.read(4) else {
            throw beyondTag("ID3v2 extended header", claimed: 4)
        }
        // 2.3 counts the bytes after the size field; 2.4 counts them all, in synchsafe form.
        let size =
            major == 3
            ? sizeBytes.reduce(0) { $0 << 8 | Int($1) }
            : ID3v2Tag.synchsafe(sizeBytes[...]) - 4
        guard size >= 0, try cursor.skip(size) else { throw beyondTag("ID3v2 extended header", claimed: size) }
    }

    mutating func readFields() throws(AudioMetadataError) -> TagFields {
        var fields = TagFields()
        for _ in 0..<ID3v2Tag.maximumFrames {
            guard cursor.remaining >= frameHeaderLength, let header = try cursor.read(frameHeaderLength) else { break }
            let idBytes = header[0..<idLength]
            // Padding (zeros) or garbage: no more frames.
            guard idBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }) else { break }
            let id = String(decoding: idBytes, as: UTF8.self)
            let size = frameSize(header)
            guard size <= cursor.remaining else {
                throw beyondTag("ID3v2 frame \(id)", claimed: size)
            }
            let field = Self.field(for: id)
            guard let field else {
                guard try cursor.skip(size) else { throw beyondTag("ID3v2 frame \(id)", claimed: size) }
                continue
            }
            let kept = min(size, TagText.maximumBytes + 16)
            guard let raw = try cursor.read(kept), try cursor.skip(size - kept) else {
                throw beyondTag("ID3v2 frame \(id)", claimed: size)
            }
            let flags = major == 2 ? 0 : header[9]
            guard let content = content(raw, flags: flags), let text = Self.text(content) else { continue }
            // The first frame of a kind wins; a tag should not repeat one.
            if fields[keyPath: field] == nil { fields[keyPath: field] = text }
        }
        return fields
    }

    private func frameSize(_ header: [UInt8]) -> Int {
        switch major {
        case 2: return header[3..<6].reduce(0) { $0 << 8 | Int($1) }
        case 3: return header[4..<8].reduce(0) { $0 << 8 | Int($1) }
        default:
            // 2.4 sizes are synchsafe, but early iTunes wrote plain integers: a byte with its high
            // bit set can only mean the latter.
            let bytes = header[4..<8]
            return bytes.allSatisfy { $0 < 0x80 } ? ID3v2Tag.synchsafe(bytes) : bytes.reduce(0) { $0 << 8 | Int($1) }
        }
    }

    /// The frame's data with its flags applied; `nil` for compressed or encrypted frames.
    private func content(_ raw: [UInt8], flags: UInt8) -> [UInt8]? {
        var data = raw
        switch major {
        case 3:
            guard flags & 0xC0 == 0 else { return nil }
            if flags & 0x20 != 0 { data = Array(data.dropFirst()) }  // grouping identity
        case 4:
            guard flags & 0x0C == 0 else { return nil }
            if flags & 0x02 != 0 || tagUnsynchronised { data = ID3v2BodyCursor.resynchronised(data) }
            if flags & 0x40 != 0 { data = Array(data.dropFirst()) }  // grouping identity
            if flags & 0x01 != 0 { data = Array(data.dropFirst(4)) }  // data length indicator
        default: break
        }
        return data
    }

    private static func field(for id: String) -> WritableKeyPath<TagFields, String?>? {
        switch id {
        case "TPE1", "TP1": \TagFields.artist
        case "TIT2", "TT2": \TagFields.title
        case "TALB", "TAL": \TagFields.album
        default: nil
        }
    }

    /// A text frame: an encoding byte, then the text.
    private static func text(_ content: [UInt8]) -> String? {
        guard let first = content.first, let encoding = TagText.Encoding(id3Byte: first) else { return nil }
        return TagText.values(Array(content.dropFirst().prefix(TagText.maximumBytes)), encoding: encoding)
    }

    private func beyondTag(_ element: String, claimed: Int) -> AudioMetadataError {
        .sizeBeyondContainer(
            fileName: fileName, element: element, claimedBytes: claimed, availableBytes: cursor.remaining)
    }
}
