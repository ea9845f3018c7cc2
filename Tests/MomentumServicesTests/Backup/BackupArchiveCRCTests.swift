import Foundation
import MomentumCore
import MomentumStore
import Testing

@testable import MomentumServices

/// docs/backup.md says each entry's CRC-32 is compared with what is read (issue 46: an archive
/// whose CRCs were wrong in both headers was restored, its SHA-256 matching).
extension BackupServiceTests {
    /// `data` (a ZIP archive) with the CRC-32 of the entry at `path` changed in its central
    /// directory record and in its local header alike, as a damaged or forged archive has it.
    static func withWrongCRC(_ data: Data, at path: String) throws -> Data {
        var bytes = [UInt8](data)
        func le16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func le32(_ at: Int) -> Int { le16(at) | le16(at + 2) << 16 }
        // The end record (no comment: Momentum writes none) says where the central directory is.
        let end = bytes.count - 22
        try #require(le32(end) == 0x0605_4B50, "no end record where expected")
        var record = le32(end + 16)
        for _ in 0..<le16(end + 10) {
            try #require(le32(record) == 0x0201_4B50, "not a central directory record")
            let nameLength = le16(record + 28)
            let name = String(decoding: bytes[(record + 46)..<(record + 46 + nameLength)], as: UTF8.self)
            if name == path {
                let local = le32(record + 42)
                try #require(le32(local) == 0x0403_4B50, "not a local header")
                // Data descriptors would hold the CRC elsewhere; Momentum's archives have none.
                try #require(le16(record + 8) & 0x08 == 0)
                for at in [record + 16, local + 14] { bytes[at] ^= 0xFF }
                return Data(bytes)
            }
            record += 46 + nameLength + le16(record + 30) + le16(record + 32)
        }
        Issue.record("no entry \(path)")
        return data
    }

    /// Given a good archive made by the exporter; when its document's or an audio file's CRC-32 is
    /// wrong in both headers (the bytes and their SHA-256 untouched); then the restore is refused as
    /// a damaged archive naming the entry, and nothing changes.
    @Test func anArchiveWhoseCRCIsWrongInBothHeadersIsRefusedAndChangesNothing() async throws {
        let source = try await everything("source")
        let data = try await archiveData(source)
        let item = try await #require(try source.library.items().first)
        for path in [BackupArchiveLayout.documentPath, BackupArchiveLayout.libraryFolder + item.fileName] {
            let file = try write(try Self.withWrongCRC(data, at: path), "crc-\(UUID().uuidString.prefix(8)).zip")
            try await expectRefused(file) { error in
                guard case .damagedArchive(let detail) = error else { return false }
                return detail.hasPrefix(path + ": CRC-32")
            }
        }
        // The same archive unpatched restores.
        let good = try write(data, "good-crc.zip")
        let target = try await services("crc-target")
        _ = try await target.backup.restore(from: good, dryRun: false)
        await #expect(try target.library.items().map(\.fileName) == (try source.library.items().map(\.fileName)))
    }
}
