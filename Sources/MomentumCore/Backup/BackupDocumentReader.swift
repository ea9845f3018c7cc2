import Foundation

/// Reads a backup document (see ``BackupDocument``) from a file without holding it whole: a
/// restore of 300,000 records reads a 76 MB document in 256 KB pieces, one row at a time.
///
/// Opening it reads the document through once, quickly and keeping nothing but where each table
/// starts and how many rows it has: it checks that it is JSON, that it is a Momentum backup of
/// this version, and that it has no fields a backup does not have — so a newer or foreign file is
/// named as such before any row is looked at. ``forEachRow(in:_:)`` then reads one table's rows,
/// each checked as it comes: an object of numbers, texts and nulls with no name twice.
///
/// ```swift
/// let reader = try BackupDocumentReader(url: backup)
/// reader.count(of: "practiceLog")                            // 300000
/// try reader.forEachRow(in: "practiceLog") { row in … }     // row["id"] == .text("…")
/// ```
public final class BackupDocumentReader {
    /// Where each table's rows start (the offset of its `[`) and how many it has, in the
    /// document's order; a table whose value is not a list has no offset.
    public private(set) var tables: [(name: String, offset: Int64?, count: Int)] = []
    private let open: () throws(BackupError) -> ByteChunks

    /// The longest text a value may have: notes and details are far shorter.
    public static let maximumTextBytes = 4 * 1024 * 1024
    /// How deep a value the reader skips may nest (a backup's own are at most four levels).
    static let maximumDepth = 64

    /// Reads the document at `url` (at most ``BackupDocument/maximumBytes``).
    public convenience init(url: URL) throws(BackupError) {
        let size: Int64
        do {
            size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0
        } catch {
            throw .cannotRead(FileProblem(error))
        }
        guard size <= BackupDocument.maximumBytes else { throw .documentTooLarge(bytes: size) }
        try self.init { () throws(BackupError) in try ByteChunks(url: url) }
    }

    /// Reads a document held in memory.
    public convenience init(data: Data) throws(BackupError) {
        guard Int64(data.count) <= BackupDocument.maximumBytes else {
            throw .documentTooLarge(bytes: Int64(data.count))
        }
        try self.init { () throws(BackupError) in ByteChunks(data: data) }
    }

    private init(open: @escaping () throws(BackupError) -> ByteChunks) throws(BackupError) {
        self.open = open
        var scanner = JSONScanner(chunks: try open())
        var format: String?
        var version: Int?
        var unknown: [String] = []
        var sawTables = false
        do {
            try scanner.expect(UInt8(ascii: "{"))
            try scanner.members { key, scanner in
                switch key {
                case "format":
                    if case .text(let text) = try scanner.scalar() { format = text }
                case "version":
                    if case .integer(let number) = try scanner.scalar() { version = Int(exactly: number) }
                case "tables":
                    sawTables = true
                    tables = try Self.index(&scanner)
                default:
                    unknown.append(key)
                    try scanner.skipValue()
                }
            }
            try scanner.expectEnd()
        } catch let problem as JSONScanner.Problem {
            // A file that breaks off before it says what it is is not taken for a backup.
            guard format == BackupDocument.formatName else { throw .notABackup }
            throw .unreadableDocument(detail: problem.description)
        } catch {
            throw .cannotRead(FileProblem(error))
        }
        guard format == BackupDocument.formatName, let version else { throw .notABackup }
        guard version <= BackupDocument.currentVersion else {
            throw .newerVersion(version: version, supported: BackupDocument.currentVersion)
        }
        guard version == BackupDocument.currentVersion else { throw .olderVersion(version: version) }
        if let first = unknown.sorted().first { throw .unreadableDocument(detail: "unknown field “\(first)”") }
        guard sawTables else { throw .unreadableDocument(detail: "the field “tables” is missing") }
        var names: Set<String> = []
        for table in tables {
            guard names.insert(table.name).inserted else {
                throw .unreadableDocument(detail: "the table “\(table.name)” is there twice")
            }
            guard table.offset != nil else {
                throw .unreadableDocument(detail: "the table “\(table.name)” is not a list of rows")
            }
        }
    }

    /// The tables' places: `{"name": [ … ], …}`, each list skipped and its elements counted.
    private static func index(_ scanner: inout JSONScanner) throws -> [(name: String, offset: Int64?, count: Int)] {
        var tables: [(name: String, offset: Int64?, count: Int)] = []
        guard try scanner.peek() == UInt8(ascii: "{") else {
            throw JSONScanner.Problem(message: "“tables” is not an object", offset: scanner.offset)
        }
        try scanner.expect(UInt8(ascii: "{"))
        try scanner.members { name, scanner in
            guard try scanner.peek() == UInt8(ascii: "[") else {
                try scanner.skipValue()
                tables.append((name, nil, 0))
                return
            }
            let offset = scanner.offset
            var count = 0
            try scanner.expect(UInt8(ascii: "["))
            try scanner.elements { scanner in
                count += 1
                try scanner.skipValue()
            }
            tables.append((name, offset, count))
        }
        return tables
    }

    /// The table names, in the document's order.
    public var tableNames: [String] { tables.map(\.name) }

    /// How many rows `table` has (0 when the document has no such table).
    public func count(of table: String) -> Int { tables.first { $0.name == table }?.count ?? 0 }

    /// Reads `table`'s rows in order, handing each to `body`; nothing when the document has no
    /// such table. A row that is not an object of numbers, texts and nulls is
    /// ``BackupError/unreadableDocument(detail:)`` naming the table and row; what `body` throws
    /// is thrown as it is.
    public func forEachRow(in table: String, _ body: (BackupRow) throws -> Void) throws {
        guard let place = tables.first(where: { $0.name == table }), let offset = place.offset else { return }
        var chunks = try open()
        try chunks.seek(to: offset)
        var scanner = JSONScanner(chunks: chunks, base: offset)
        var index = 0
        do {
            try scanner.expect(UInt8(ascii: "["))
            try scanner.elements { scanner in
                index += 1
                let row: BackupRow
                do {
                    row = try scanner.row()
                } catch let problem as JSONScanner.Problem {
                    throw BackupError.unreadableDocument(detail: "\(table), row \(index): \(problem.description)")
                }
                try body(row)
            }
        } catch let problem as JSONScanner.Problem {
            throw BackupError.unreadableDocument(detail: "\(table): \(problem.description)")
        }
    }

    /// Every table whole, as ``BackupDocument`` holds it (for documents small enough to hold).
    public func document() throws -> BackupDocument {
        var tables: [String: [BackupRow]] = [:]
        for name in tableNames {
            var rows: [BackupRow] = []
            rows.reserveCapacity(count(of: name))
            try forEachRow(in: name) { rows.append($0) }
            tables[name] = rows
        }
        return BackupDocument(tables: tables)
    }
}
