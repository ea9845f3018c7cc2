/// An MP3 file: ID3v2 tags at the start, MPEG audio frames, ID3v1/APE tags at the end.
enum MP3Metadata {
    /// More back-to-back ID3v2 tags than any tagger writes.
    static let maximumLeadingTags = 8

    static func read(from reader: SourceReader) throws(AudioMetadataError) -> AudioMetadata {
        var fields = TagFields()
        var audioStart = 0
        var hasID3v2 = false
        for _ in 0..<maximumLeadingTags {
            guard let tag = try ID3v2Tag.read(at: audioStart, from: reader) else { break }
            // The first tag wins per field; a later one only fills gaps.
            fields = fields.filling(from: tag.fields)
            audioStart = tag.end
            hasID3v2 = true
        }
        let trailing = try TrailingTags.read(from: reader)
        let stream = MPEGAudioStream(reader: reader, range: audioStart..<max(audioStart, trailing.audioEnd))
        guard let first = try stream.firstFrame() else {
            throw hasID3v2 ? .noAudioFrames(fileName: reader.fileName) : .notAudio(fileName: reader.fileName)
        }
        if let id3v1 = trailing.id3v1 { fields = fields.filling(from: id3v1) }
        return AudioMetadata(format: .mp3, fields: fields, duration: try stream.duration(from: first))
    }
}
