import Foundation

/// The size of the ZIP archive ``BackupService/writeArchive(to:)`` writes, computed from what
/// goes in without writing it: every entry is stored (not compressed) behind a local header, and
/// the central directory and its end record follow — ZIPFoundation's layout, with its ZIP64
/// fields where a size or an offset passes 4 GiB. A test checks it against written archives.
enum ArchiveSize {
    /// One entry: its path in the archive and its size in bytes.
    struct Entry: Sendable, Equatable {
        var path: String
        var bytes: Int64
    }

    static let localHeader: Int64 = 30
    static let centralHeader: Int64 = 46
    static let endRecord: Int64 = 22
    /// ZIP64 end of central directory record (56) and its locator (20).
    static let zip64End: Int64 = 56 + 20
    static let limit32 = Int64(UInt32.max)
    static let limit16 = Int64(UInt16.max)

    /// The archive's bytes for `entries`, in the order they are written.
    static func bytes(of entries: [Entry]) -> Int64 {
        var offset: Int64 = 0
        var centralDirectory: Int64 = 0
        for entry in entries {
            let name = Int64(entry.path.utf8.count)
            let isLarge = entry.bytes >= limit32
            let headerStart = offset
            // A large entry's local header carries both sizes in a ZIP64 field (2 + 2 + 8 + 8).
            offset += localHeader + name + (isLarge ? 20 : 0) + entry.bytes
            // The central directory's ZIP64 field holds what does not fit: both sizes, the offset.
            var extra: Int64 = (isLarge ? 16 : 0) + (headerStart >= limit32 ? 8 : 0)
            if extra > 0 { extra += 4 }
            centralDirectory += centralHeader + name + extra
        }
        var end = endRecord
        if Int64(entries.count) >= limit16 || offset >= limit32 || centralDirectory >= limit32 { end += zip64End }
        return offset + centralDirectory + end
    }
}
