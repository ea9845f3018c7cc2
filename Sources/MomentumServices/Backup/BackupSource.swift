import Crypto
import Foundation
import MomentumCore
import MomentumStoreContract
import ZIPFoundation

/// A backup file opened for restoring: a JSON document, or a ZIP archive whose structure has
/// been checked — only the document and library files, stored uncompressed, no repeated or
/// unsafe paths, sizes within the archive's own size — before anything in it is read.
final class BackupSource {
    let isArchive: Bool
    private let url: URL
    private let archive: Archive?
    /// An archive's entry (ZIPFoundation's `Entry`), named so that its optional does not end in
    /// "try" and a question mark, which the check for unexplained silent tries takes for one.
    private typealias ArchiveMember = Entry
    private var document: ArchiveMember?
    /// Library entries by file name.
    private var files: [String: Entry] = [:]
    private(set) var audioBytes: Int64 = 0

    init(url: URL, fileSizeLimit: Int64) throws(BackupError) {
        self.url = url
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .cannotRead(.missing)
        }
        guard !isDirectory.boolValue else { throw .cannotRead(.isFolder) }
        let start: Data
        let size: Int64
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }  // try?: the file was only read; closing it cannot lose anything
            start = try handle.read(upToCount: 2) ?? Data()
            size = Int64(try handle.seekToEnd())
        } catch {
            throw .cannotRead(FileProblem(error))
        }
        guard start == Data([0x50, 0x4B]) else {
            isArchive = false
            archive = nil
            guard size <= BackupDocument.maximumBytes else { throw .documentTooLarge(bytes: size) }
            return
        }
        isArchive = true
        // ZIPFoundation looks for the end record byte by byte back to the start of the file: on a
        // truncated 500 MB archive that takes minutes, and may stop at a look-alike in the audio.
        guard try Self.endsWithEndRecord(url, size: size) else { throw .damagedArchive(detail: "no end record") }
        let opened: Archive
        do {
            opened = try Archive(url: url, accessMode: .read)
        } catch {
            throw .damagedArchive(detail: "\(error)")
        }
        archive = opened
        var count = 0
        var claimed: Int64 = 0
        for entry in opened {
            count += 1
            guard count <= BackupArchiveLayout.maximumEntries else {
                throw .tooManyEntries(count: count, limit: BackupArchiveLayout.maximumEntries)
            }
            let path = entry.path
            guard entry.type == .file, let kind = BackupArchiveLayout.entry(at: path) else {
                throw .unexpectedEntry(path: path)
            }
            guard !entry.isCompressed else { throw .compressedEntry(path: path) }
            let bytes = Int64(clamping: entry.uncompressedSize)
            guard entry.compressedSize == entry.uncompressedSize else { throw .damagedArchive(detail: path) }
            claimed += bytes
            // Stored entries cannot hold more than the archive: entries that claim more overlap.
            guard claimed <= size else { throw .sizesTooLarge(claimed: claimed, limit: size) }
            switch kind {
            case .document:
                guard document == nil else { throw .repeatedEntry(path: path) }
                guard bytes <= BackupDocument.maximumBytes else { throw .documentTooLarge(bytes: bytes) }
                document = entry
            case .libraryFile(let fileName):
                guard files[fileName] == nil else { throw .repeatedEntry(path: path) }
                guard bytes <= fileSizeLimit else { throw .sizesTooLarge(claimed: bytes, limit: fileSizeLimit) }
                files[fileName] = entry
                audioBytes += bytes
            }
        }
        guard document != nil else { throw .missingDocument }
    }

    /// Whether the file ends with a ZIP end-of-central-directory record: the signature, then 18
    /// bytes, then exactly as many bytes of comment as the record says (at most 65 535). Throws
    /// ``BackupError/cannotRead(_:)`` when its end cannot be read.
    static func endsWithEndRecord(_ url: URL, size: Int64) throws(BackupError) -> Bool {
        let recordSize = 22
        let tail = min(size, Int64(recordSize + 65_535))
        guard tail >= recordSize else { return false }
        let bytes: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }  // try?: the file was only read; closing it cannot lose anything
            try handle.seek(toOffset: UInt64(size - tail))
            bytes = try handle.read(upToCount: Int(tail)) ?? Data()
        } catch {
            throw .cannotRead(FileProblem(error))
        }
        // Shorter than it was a moment ago: cut off while it was being read.
        guard bytes.count == Int(tail) else { return false }
        let data = [UInt8](bytes)
        var index = data.count - recordSize
        while index >= 0 {
            if data[index] == 0x50, data[index + 1] == 0x4B, data[index + 2] == 0x05, data[index + 3] == 0x06 {
                let commentLength = Int(data[index + 20]) | Int(data[index + 21]) << 8
                if index + recordSize + commentLength == data.count { return true }
            }
            index -= 1
        }
        return false
    }

    /// The document as a file to read: the backup itself when it is a JSON document; for an
    /// archive, the document copied out of it (its CRC-32 checked) into `folder` as `staged`,
    /// which the caller removes.
    func documentFile(staged: URL) throws(BackupError) -> URL {
        guard let archive, let document else { return url }
        guard FileManager.default.createFile(atPath: staged.path, contents: nil) else {
            throw .cannotWrite(path: staged.path, problem: FileProblem(POSIXError.current))
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forWritingTo: staged)
        } catch {
            throw .cannotWrite(path: staged.path, problem: FileProblem(error))
        }
        var closed = false
        defer {
            // try?: closes here only when the copy has already failed and that failure is thrown;
            // the caller removes the staged file.
            if !closed { try? handle.close() }
        }
        var written: Int64 = 0
        let checksum: CRC32
        do {
            checksum = try archive.extract(document, bufferSize: BackupService.chunkSize) { chunk in
                written += Int64(chunk.count)
                guard written <= BackupDocument.maximumBytes else { throw BackupError.documentTooLarge(bytes: written) }
                do {
                    try handle.write(contentsOf: chunk)
                } catch {
                    throw BackupError.cannotWrite(path: staged.path, problem: FileProblem(error))
                }
            }
        } catch let error as BackupError {
            throw error
        } catch {
            throw .damagedArchive(detail: "\(BackupArchiveLayout.documentPath): \(error)")
        }
        // The copy is whole only once it is closed without an error.
        closed = true
        do {
            try handle.close()
        } catch {
            throw .cannotWrite(path: staged.path, problem: FileProblem(error))
        }
        try Self.checkCRC(checksum, of: document, path: BackupArchiveLayout.documentPath)
        return staged
    }

    func hasFile(_ fileName: String) -> Bool { files[fileName] != nil }

    /// Every library row has its file and every file its row; each file's size and SHA-256 are
    /// the row's (read through once, written nowhere).
    func checkFiles(against document: BackupDocumentReader) throws {
        guard isArchive else { return }
        var named: Set<String> = []
        try document.forEachRow(in: BackupKind.library.rawValue) { row in
            guard case .text(let fileName) = row["fileName"] ?? .null,
                case .text(let hash) = row["contentHash"] ?? .null,
                case .integer(let size) = row["byteSize"] ?? .null
            else { return }
            named.insert(fileName)
            guard files[fileName] != nil else {
                throw BackupError.missingFile(path: BackupArchiveLayout.libraryFolder + fileName)
            }
            try extract(fileName, size: size, hash: hash) { _ in }
        }
        for fileName in files.keys.sorted() where !named.contains(fileName) {
            throw BackupError.unreferencedFile(path: BackupArchiveLayout.libraryFolder + fileName)
        }
    }

    /// Streams `fileName` to `write`, checking its size and SHA-256 against `item` and its CRC-32
    /// against the archive's.
    func extract(_ fileName: String, expecting item: LibraryItem, write: (Data) throws -> Void) throws {
        try extract(fileName, size: item.byteSize, hash: item.contentHash, write: write)
    }

    private func extract(_ fileName: String, size: Int64, hash: String, write: (Data) throws -> Void)
        throws(BackupError)
    {
        let path = BackupArchiveLayout.libraryFolder + fileName
        guard let archive, let entry = files[fileName] else { throw .missingFile(path: path) }
        guard Int64(clamping: entry.uncompressedSize) == size else { throw .fileMismatch(path: path) }
        var sha = SHA256()
        var count: Int64 = 0
        let checksum: CRC32
        do {
            checksum = try archive.extract(entry, bufferSize: BackupService.chunkSize) { chunk in
                count += Int64(chunk.count)
                guard count <= size else { throw BackupError.fileMismatch(path: path) }
                sha.update(data: chunk)
                try write(chunk)
            }
        } catch let error as BackupError {
            throw error
        } catch let error as Archive.ArchiveError where error == .invalidCRC32 {
            throw .fileMismatch(path: path)
        } catch {
            throw .damagedArchive(detail: "\(path): \(error)")
        }
        let digest = sha.finalize().map { String(format: "%02x", $0) }.joined()
        guard count == size, digest == hash else { throw .fileMismatch(path: path) }
        try Self.checkCRC(checksum, of: entry, path: path)
    }

    /// The CRC-32 of the bytes read must be the one the archive gives the entry (its central
    /// directory's, or its data descriptor's). ZIPFoundation compares them only when it writes a
    /// file itself; read in chunks, it returns the one it computed.
    private static func checkCRC(_ checksum: CRC32, of entry: Entry, path: String) throws(BackupError) {
        guard checksum == entry.checksum else {
            throw .damagedArchive(
                detail: "\(path): CRC-32 \(hex(checksum)) of its bytes, \(hex(entry.checksum)) in the archive")
        }
    }

    private static func hex(_ value: CRC32) -> String { String(format: "%08x", value) }
}
