import Foundation

/// Reads an audio file's container, artist, title, album and duration with our own parsers —
/// no external tools.
///
/// The container is recognised from the bytes, never from the file name: an ID3v2 tag or an
/// MPEG frame sync means MP3, `RIFF…WAVE` WAV, a leading `ftyp` box M4A. Only the head, the tail
/// and the headers the readers seek to are read, so a file is never loaded whole.
///
/// ```swift
/// let metadata = try AudioMetadataReader.read(contentsOf: url)
/// metadata.artist    // "Mara Lindqvist"
/// metadata.duration  // 3.03 seconds
/// ```
///
/// See `docs/audio-tags.md` for what is read from where, the precedence and the limits.
public enum AudioMetadataReader {
    /// The metadata of the file at `url`, read with seeks; errors name its last path component.
    public static func read(contentsOf url: URL) throws(AudioMetadataError) -> AudioMetadata {
        let fileName = url.lastPathComponent
        let source: FileByteSource
        do {
            source = try FileByteSource(url: url)
        } catch {
            throw .unreadable(fileName: fileName, reason: error.reason)
        }
        return try read(from: source, fileName: fileName)
    }

    /// The metadata of a file already in memory; `fileName` is for error messages only.
    public static func read(_ data: Data, fileName: String) throws(AudioMetadataError) -> AudioMetadata {
        try read(from: InMemoryByteSource(data), fileName: fileName)
    }

    /// The metadata of the bytes `source` holds; `fileName` is for error messages only.
    public static func read(from source: some RandomAccessByteSource, fileName: String)
        throws(AudioMetadataError) -> AudioMetadata
    {
        let reader = SourceReader(source, fileName: fileName)
        let kind = reader.count >= 4 ? try reader.fourCharacterCode(at: 0) : ""
        if ["RIFF", "RIFX", "RF64"].contains(kind) {
            guard reader.count >= 12 else {
                throw .truncated(fileName: fileName, element: "RIFF header", neededBytes: 12, fileSize: reader.count)
            }
            return try RIFFWaveMetadata.read(from: reader)
        }
        if try reader.matches("ftyp", at: 4) { return try MP4Metadata.read(from: reader) }
        // ID3v2 tags, a bare MPEG stream — or nothing audio at all, which the frame search tells.
        return try MP3Metadata.read(from: reader)
    }
}
