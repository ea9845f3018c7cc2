/// An MP4/M4A file: the duration from `moov/mvhd`, the tags from the iTunes-style
/// `moov/udta/meta/ilst` items `©ART`, `©nam` and `©alb`.
///
/// Top-level boxes are walked by size, so `moov` may come before or after the media data; only
/// the boxes on the way to those items are read, never `mdat` or the sample tables.
enum MP4Metadata {
    static func read(from reader: SourceReader) throws(AudioMetadataError) -> AudioMetadata {
        let topLevel = try MP4Box.boxes(in: 0..<reader.count, topLevel: true, reader: reader)
        guard let movie = topLevel.first(where: { $0.type == "moov" }) else {
            throw .missingElement(fileName: reader.fileName, element: "moov box")
        }
        let movieChildren = try MP4Box.boxes(in: movie.body, topLevel: false, reader: reader)
        guard let header = movieChildren.first(where: { $0.type == "mvhd" }) else {
            throw .missingElement(fileName: reader.fileName, element: "mvhd box")
        }
        let duration = try movieDuration(header, reader: reader)
        var fields = TagFields()
        let userData = movieChildren.first { $0.type == "udta" }
        // iTunes puts `meta` in `udta`; a few writers put it straight in `moov`.
        let metaParents = [userData, movie].compactMap { $0 }
        for parent in metaParents where fields == TagFields() {
            let children =
                parent == movie ? movieChildren : try MP4Box.boxes(in: parent.body, topLevel: false, reader: reader)
            guard let meta = children.first(where: { $0.type == "meta" }) else { continue }
            fields = try itemList(in: meta, reader: reader)
        }
        return AudioMetadata(format: .m4a, fields: fields, duration: duration)
    }

    /// `mvhd`: version 0 holds 32-bit times, version 1 64-bit ones; duration ÷ timescale seconds.
    static func movieDuration(_ box: MP4Box, reader: SourceReader) throws(AudioMetadataError) -> Duration {
        let body = box.bodyStart
        let version = try reader.byte(at: body)
        guard version <= 1 else {
            throw .invalidHeader(fileName: reader.fileName, element: "mvhd box", reason: "unknown version \(version)")
        }
        let (timescaleOffset, durationLength) = version == 0 ? (12, 4) : (20, 8)
        guard body + timescaleOffset + 4 + durationLength <= box.end else {
            throw .sizeBeyondContainer(
                fileName: reader.fileName, element: "mvhd fields", claimedBytes: timescaleOffset + 4 + durationLength,
                availableBytes: box.end - body)
        }
        let timescale = try reader.integer(at: body + timescaleOffset, length: 4)
        let units = try reader.integer(at: body + timescaleOffset + 4, length: durationLength)
        guard let duration = Duration.ticks(units, per: timescale) else {
            throw .invalidHeader(
                fileName: reader.fileName, element: "mvhd box", reason: "duration \(units) at timescale \(timescale)")
        }
        return duration
    }

    /// The fields of the `ilst` in `meta`. `meta` is a full box (4 bytes of version and flags
    /// before its children) in MP4, a plain one in QuickTime; the `hdlr` that comes first tells.
    private static func itemList(in meta: MP4Box, reader: SourceReader) throws(AudioMetadataError) -> TagFields {
        let isPlain = try reader.matches("hdlr", at: meta.bodyStart + 4)
        let childrenStart = min(meta.end, meta.bodyStart + (isPlain ? 0 : 4))
        let children = try MP4Box.boxes(in: childrenStart..<meta.end, topLevel: false, reader: reader)
        guard let list = children.first(where: { $0.type == "ilst" }) else { return TagFields() }
        var fields = TagFields()
        for item in try MP4Box.boxes(in: list.body, topLevel: false, reader: reader) {
            let field: WritableKeyPath<TagFields, String?>
            switch item.type {
            case "©ART": field = \.artist
            case "©nam": field = \.title
            case "©alb": field = \.album
            default: continue
            }
            if fields[keyPath: field] == nil { fields[keyPath: field] = try text(of: item, reader: reader) }
        }
        return fields
    }

    /// An item's `data` box: a type (1 = UTF-8, 2 = UTF-16BE), a locale, then the value.
    private static func text(of item: MP4Box, reader: SourceReader) throws(AudioMetadataError) -> String? {
        let children = try MP4Box.boxes(in: item.body, topLevel: false, reader: reader)
        guard let data = children.first(where: { $0.type == "data" }), data.body.count >= 8 else { return nil }
        let valueStart = data.bodyStart + 8
        let value = try reader.bytes(in: valueStart..<min(data.end, valueStart + TagText.maximumBytes))
        switch try reader.integer(at: data.bodyStart, length: 4) {
        case 1: return TagText.values(value, encoding: .utf8)
        case 2: return TagText.values(value, encoding: .utf16BigEndian)
        default: return nil
        }
    }
}
