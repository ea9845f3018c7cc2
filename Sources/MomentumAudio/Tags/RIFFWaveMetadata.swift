/// A RIFF WAVE file: the duration from its `fmt ` and `data` chunks, the tags from a
/// `LIST` chunk of type `INFO` (`IART` artist, `INAM` title, `IPRD` album).
///
/// Chunks are walked by size (padded to even lengths) wherever they are, so a `LIST` after the
/// samples is found too; the samples themselves are never read.
enum RIFFWaveMetadata {
    /// More chunks than real files have; bounds the work of a crafted file.
    static let maximumChunks = 100_000

    private struct Chunk {
        var id: String
        var start: Int
        var body: Range<Int>
    }

    private struct WaveFormat {
        var formatTag: UInt64
        var sampleRate: UInt64
        var byteRate: UInt64
        var blockAlign: UInt64
    }

    static func read(from reader: SourceReader) throws(AudioMetadataError) -> AudioMetadata {
        let kind = try reader.fourCharacterCode(at: 0)
        let form = try reader.fourCharacterCode(at: 8)
        guard kind == "RIFF", form == "WAVE" else {
            throw .unsupportedFormat(fileName: reader.fileName, format: kind == "RIFF" ? "RIFF \(form)" : kind)
        }
        var format: WaveFormat?
        var sampleBytes: Int?
        var fields = TagFields()
        // The RIFF size is often wrong in files written while recording; the file's end is what counts.
        for chunk in try chunks(in: 12..<reader.count, topLevel: true, reader: reader) {
            switch chunk.id {
            case "fmt " where format == nil:
                guard chunk.body.count >= 16 else {
                    throw .invalidHeader(
                        fileName: reader.fileName, element: "fmt chunk", reason: "\(chunk.body.count) bytes, not 16")
                }
                let start = chunk.body.lowerBound
                format = WaveFormat(
                    formatTag: try reader.integer(at: start, length: 2, bigEndian: false),
                    sampleRate: try reader.integer(at: start + 4, length: 4, bigEndian: false),
                    byteRate: try reader.integer(at: start + 8, length: 4, bigEndian: false),
                    blockAlign: try reader.integer(at: start + 12, length: 2, bigEndian: false))
            case "data" where sampleBytes == nil:
                sampleBytes = chunk.body.count
            case "LIST" where try reader.matches("INFO", at: chunk.body.lowerBound):
                fields = fields.filling(from: try info(in: chunk, reader: reader))
            default: continue
            }
        }
        guard let format else { throw .missingElement(fileName: reader.fileName, element: "fmt chunk") }
        guard let sampleBytes else { throw .missingElement(fileName: reader.fileName, element: "data chunk") }
        return AudioMetadata(format: .wav, fields: fields, duration: try duration(of: sampleBytes, format, reader))
    }

    /// PCM-like formats (1 PCM, 3 float, 0xFFFE extensible) count whole sample frames; others
    /// divide by the average byte rate.
    private static func duration(of bytes: Int, _ format: WaveFormat, _ reader: SourceReader)
        throws(AudioMetadataError) -> Duration
    {
        let isPCM = [1, 3, 0xFFFE].contains(format.formatTag)
        let duration =
            isPCM && format.blockAlign > 0
            ? Duration.ticks(UInt64(bytes) / format.blockAlign, per: format.sampleRate)
            : Duration.ticks(UInt64(bytes), per: format.byteRate)
        guard let duration else {
            throw .invalidHeader(
                fileName: reader.fileName, element: "fmt chunk",
                reason: "sample rate \(format.sampleRate), byte rate \(format.byteRate)")
        }
        return duration
    }

    private static func info(in list: Chunk, reader: SourceReader) throws(AudioMetadataError) -> TagFields {
        var fields = TagFields()
        let items = list.body.lowerBound + 4..<list.body.upperBound
        for item in try chunks(in: items, topLevel: false, reader: reader) {
            let field: WritableKeyPath<TagFields, String?>
            switch item.id {
            case "IART": field = \.artist
            case "INAM": field = \.title
            case "IPRD": field = \.album
            default: continue
            }
            let end = min(item.body.upperBound, item.body.lowerBound + TagText.maximumBytes)
            let text = try reader.bytes(in: item.body.lowerBound..<end).prefix { $0 != 0 }
            if fields[keyPath: field] == nil { fields[keyPath: field] = TagText.clean(TagText.utf8OrLatin1(text)) }
        }
        return fields
    }

    /// The chunks in `range`: a four-character id, a little-endian 32-bit size, the body and a
    /// pad byte when the size is odd.
    private static func chunks(in range: Range<Int>, topLevel: Bool, reader: SourceReader)
        throws(AudioMetadataError) -> [Chunk]
    {
        var chunks: [Chunk] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound, chunks.count < maximumChunks {
            let id = try reader.fourCharacterCode(at: offset)
            let size = Int(try reader.integer(at: offset + 4, length: 4, bigEndian: false))
            let body = offset + 8
            guard size <= range.upperBound - body else {
                throw topLevel
                    ? .truncated(
                        fileName: reader.fileName, element: "\(id) chunk", neededBytes: body + size,
                        fileSize: reader.count)
                    : .sizeBeyondContainer(
                        fileName: reader.fileName, element: "\(id) chunk", claimedBytes: size,
                        availableBytes: range.upperBound - body)
            }
            chunks.append(Chunk(id: id, start: offset, body: body..<body + size))
            offset = body + size + (size & 1)
        }
        return chunks
    }
}
