/// One box (atom) of an MP4/QuickTime file: a 32-bit size (or 1 and a 64-bit `largesize`, or 0
/// for "to the end"), a four-character type, then its body.
struct MP4Box: Equatable {
    var type: String
    var start: Int
    var bodyStart: Int
    var end: Int

    var body: Range<Int> { bodyStart..<end }

    /// More boxes in one container than real files have; bounds the work of a crafted file.
    static let maximumBoxesPerContainer = 100_000

    /// The boxes in `range`, walked by their sizes. A box running past the end of the file is a
    /// truncated file at the top level and a lying size inside another box.
    static func boxes(in range: Range<Int>, topLevel: Bool, reader: SourceReader) throws(AudioMetadataError)
        -> [MP4Box]
    {
        var boxes: [MP4Box] = []
        var offset = range.lowerBound
        // Fewer than 8 bytes left cannot hold a box: trailing padding, ignored.
        while offset + 8 <= range.upperBound, boxes.count < maximumBoxesPerContainer {
            let type = try reader.fourCharacterCode(at: offset + 4)
            var size = Int(try reader.integer(at: offset, length: 4))
            var headerLength = 8
            if size == 1 {
                guard offset + 16 <= range.upperBound else {
                    throw beyond("\(type) box header", start: offset, claimed: 16, range: range, topLevel, reader)
                }
                let largeSize = try reader.integer(at: offset + 8, length: 8)
                size = largeSize > UInt64(Int.max / 2) ? Int.max / 2 : Int(largeSize)
                headerLength = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= headerLength else {
                throw .invalidHeader(
                    fileName: reader.fileName, element: "\(type) box",
                    reason: "its size \(size) is smaller than its header")
            }
            guard size <= range.upperBound - offset else {
                throw beyond("\(type) box", start: offset, claimed: size, range: range, topLevel, reader)
            }
            boxes.append(MP4Box(type: type, start: offset, bodyStart: offset + headerLength, end: offset + size))
            offset += size
        }
        return boxes
    }

    private static func beyond(
        _ element: String, start: Int, claimed: Int, range: Range<Int>, _ topLevel: Bool, _ reader: SourceReader
    ) -> AudioMetadataError {
        topLevel
            ? .truncated(
                fileName: reader.fileName, element: element, neededBytes: start + claimed, fileSize: reader.count)
            : .sizeBeyondContainer(
                fileName: reader.fileName, element: element, claimedBytes: claimed,
                availableBytes: range.upperBound - start)
    }
}
