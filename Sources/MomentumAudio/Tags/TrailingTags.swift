/// The tags MP3 files carry at their end: an ID3v1 tag (the last 128 bytes, "TAG") and an APE
/// tag before it or in its place. Their fields are ID3v1's; their extent tells where the audio ends.
struct TrailingTags: Equatable {
    /// The ID3v1 fields, if there is such a tag.
    var id3v1: TagFields?
    /// Where the audio ends: before the trailing tags.
    var audioEnd: Int

    static let id3v1Length = 128
    static let apeFooterLength = 32

    static func read(from reader: SourceReader) throws(AudioMetadataError) -> TrailingTags {
        var tags = TrailingTags(id3v1: nil, audioEnd: reader.count)
        let id3v1Start = reader.count - id3v1Length
        if id3v1Start >= 0, try reader.matches("TAG", at: id3v1Start) {
            let bytes = try reader.bytes(in: id3v1Start..<reader.count)
            tags.id3v1 = TagFields(
                artist: field(bytes[33..<63]), title: field(bytes[3..<33]), album: field(bytes[63..<93]))
            tags.audioEnd = id3v1Start
        }
        tags.audioEnd = try apeTagStart(before: tags.audioEnd, reader: reader) ?? tags.audioEnd
        return tags
    }

    /// A fixed-width ID3v1 field: ISO-8859-1, ended by a NUL or padded with spaces.
    private static func field(_ bytes: ArraySlice<UInt8>) -> String? {
        let text = bytes.prefix { $0 != 0 }
        return TagText.clean(TagText.decode(text, encoding: .isoLatin1))
    }

    /// Where an APE tag whose footer ends at `end` begins; `nil` without one, or when its size
    /// makes no sense (then its bytes are left to the frame scan, which skips them).
    private static func apeTagStart(before end: Int, reader: SourceReader) throws(AudioMetadataError) -> Int? {
        let footer = end - apeFooterLength
        guard footer >= 0, try reader.matches("APETAGEX", at: footer) else { return nil }
        let size = Int(try reader.integer(at: footer + 12, length: 4, bigEndian: false))
        let flags = try reader.integer(at: footer + 20, length: 4, bigEndian: false)
        let start = end - size - (flags & 0x8000_0000 != 0 ? apeFooterLength : 0)
        return size >= apeFooterLength && start >= 0 ? start : nil
    }
}
