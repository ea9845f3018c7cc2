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

/// A document's bytes, a piece at a time: from a file (256 KB reads) or from memory.
struct ByteChunks {
    static let chunkSize = 256 * 1024
    private let handle: FileHandle?
    private let data: Data?
    private var position: Int

    init(url: URL) throws(BackupError) {
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw .cannotRead(FileProblem(error))
        }
        data = nil
        position = 0
    }

    init(data: Data) {
        handle = nil
        self.data = data
        position = 0
    }

    mutating func seek(to offset: Int64) throws(BackupError) {
        if let handle {
            do {
                try handle.seek(toOffset: UInt64(offset))
            } catch {
                throw .cannotRead(FileProblem(error))
            }
        }
        position = Int(offset)
    }

    /// The next piece; empty at the end.
    mutating func next() throws -> [UInt8] {
        if let handle {
            let piece = try handle.read(upToCount: Self.chunkSize) ?? Data()
            if piece.isEmpty { try? handle.close() }
            return [UInt8](piece)
        }
        guard let data, position < data.count else { return [] }
        let end = min(data.count, position + Self.chunkSize)
        let start = data.startIndex + position
        position = end
        return [UInt8](data[start..<(data.startIndex + end)])
    }
}

/// A strict JSON reader (RFC 8259) over ``ByteChunks``, for exactly what a backup holds.
struct JSONScanner {
    struct Problem: Error, CustomStringConvertible {
        var message: String
        var offset: Int64
        var description: String { "\(message) at byte \(offset + 1)" }
    }

    private var chunks: ByteChunks
    private var buffer: [UInt8] = []
    private var index = 0
    /// The offset of `buffer[0]` in the document.
    private var base: Int64

    init(chunks: ByteChunks, base: Int64 = 0) {
        self.chunks = chunks
        self.base = base
    }

    var offset: Int64 { base + Int64(index) }

    private func problem(_ message: String) -> Problem { Problem(message: message, offset: offset) }

    /// The next byte, not taken; `nil` at the end.
    @inline(__always)
    private mutating func byte() throws -> UInt8? {
        if index < buffer.count { return buffer[index] }
        base += Int64(buffer.count)
        index = 0
        buffer = try chunks.next()
        return buffer.isEmpty ? nil : buffer[0]
    }

    /// The next byte that is not white space, not taken.
    mutating func peek() throws -> UInt8? {
        while let next = try byte() {
            switch next {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return next
            }
        }
        return nil
    }

    mutating func expect(_ expected: UInt8) throws {
        guard try peek() == expected else {
            throw problem("expected “\(Character(Unicode.Scalar(expected)))”")
        }
        index += 1
    }

    /// Nothing but white space is left.
    mutating func expectEnd() throws {
        guard try peek() == nil else { throw problem("more after the end of the document") }
    }

    /// An object's members after its `{`: each key, then `body` reads the value.
    mutating func members(_ body: (String, inout JSONScanner) throws -> Void) throws {
        if try peek() == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            guard try peek() == UInt8(ascii: "\"") else { throw problem("expected a name in quotes") }
            let key = try string()
            try expect(UInt8(ascii: ":"))
            try body(key, &self)
            switch try peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return
            default: throw problem("expected “,” or “}”")
            }
        }
    }

    /// A list's elements after its `[`; `body` reads each.
    mutating func elements(_ body: (inout JSONScanner) throws -> Void) throws {
        if try peek() == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            try body(&self)
            switch try peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return
            default: throw problem("expected “,” or “]”")
            }
        }
    }

    /// A row: an object whose values are numbers, texts or nulls, no name twice.
    mutating func row() throws -> BackupRow {
        guard try peek() == UInt8(ascii: "{") else { throw problem("a row is not an object") }
        index += 1
        var row: BackupRow = [:]
        try members { key, scanner in
            let value = try scanner.scalar()
            guard row.updateValue(value, forKey: key) == nil else {
                throw scanner.problem("“\(key)” is there twice")
            }
        }
        return row
    }

    /// A number, a text or null.
    mutating func scalar() throws -> BackupValue {
        guard let next = try peek() else { throw problem("the document ends too soon") }
        switch next {
        case UInt8(ascii: "\""): return .text(try string())
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw problem("expected a number, a text or null")
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        for expected in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
            guard try byte() == expected else { throw problem("expected “\(word)”") }
            index += 1
        }
    }

    /// A number: whole and within 64 bits → an integer, otherwise a finite real.
    private mutating func number() throws -> BackupValue {
        var text: [UInt8] = []
        var isWhole = true
        func digits(_ scanner: inout JSONScanner, into text: inout [UInt8]) throws -> Int {
            var count = 0
            while let next = try scanner.byte(), next >= UInt8(ascii: "0"), next <= UInt8(ascii: "9") {
                text.append(next)
                scanner.index += 1
                count += 1
                guard text.count <= 400 else { throw scanner.problem("a number too long") }
            }
            return count
        }
        if try byte() == UInt8(ascii: "-") {
            text.append(UInt8(ascii: "-"))
            index += 1
        }
        let first = try byte()
        let integerDigits = try digits(&self, into: &text)
        guard integerDigits > 0, first != UInt8(ascii: "0") || integerDigits == 1 else {
            throw problem("a malformed number")
        }
        if try byte() == UInt8(ascii: ".") {
            isWhole = false
            text.append(UInt8(ascii: "."))
            index += 1
            guard try digits(&self, into: &text) > 0 else { throw problem("a malformed number") }
        }
        if let next = try byte(), next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            isWhole = false
            text.append(next)
            index += 1
            if let sign = try byte(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                text.append(sign)
                index += 1
            }
            guard try digits(&self, into: &text) > 0 else { throw problem("a malformed number") }
        }
        let string = String(decoding: text, as: UTF8.self)
        if isWhole, let integer = Int64(string) { return .integer(integer) }
        guard let real = Double(string), real.isFinite else { throw problem("a number out of range") }
        return .real(real)
    }

    /// A string, its escapes read; refuses control characters, lone surrogates and bytes that
    /// are not UTF-8.
    mutating func string() throws -> String {
        index += 1
        var bytes: [UInt8] = []
        while true {
            guard let next = try byte() else { throw problem("a text without its closing quote") }
            index += 1
            switch next {
            case UInt8(ascii: "\""):
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    throw problem("a text that is not UTF-8")
                }
                return text
            case UInt8(ascii: "\\"): try escape(into: &bytes)
            case 0..<0x20: throw problem("a control character in a text")
            default: bytes.append(next)
            }
            guard bytes.count <= BackupDocumentReader.maximumTextBytes else {
                throw problem("a text longer than \(BackupDocumentReader.maximumTextBytes / 1024 / 1024) MiB")
            }
        }
    }

    private mutating func escape(into bytes: inout [UInt8]) throws {
        guard let next = try byte() else { throw problem("a text without its closing quote") }
        index += 1
        switch next {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(next)
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard try byte() == UInt8(ascii: "\\") else { throw problem("a lone surrogate") }
                index += 1
                guard try byte() == UInt8(ascii: "u") else { throw problem("a lone surrogate") }
                index += 1
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw problem("a lone surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw problem("a lone surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw problem("a malformed escape") }
            bytes.append(contentsOf: Array(String(Character(unicode)).utf8))
        default: throw problem("a malformed escape")
        }
    }

    private mutating func hex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let next = try byte(), let digit = Self.hexDigit(next) else { throw problem("a malformed escape") }
            index += 1
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Any JSON value, checked and dropped; nesting deeper than ``BackupDocumentReader/maximumDepth``
    /// is refused rather than followed.
    mutating func skipValue(depth: Int = 0) throws {
        guard depth < BackupDocumentReader.maximumDepth else { throw problem("values nested too deep") }
        switch try peek() {
        case UInt8(ascii: "{"):
            index += 1
            try members { _, scanner in try scanner.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            index += 1
            try elements { scanner in try scanner.skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        default: _ = try scalar()
        }
    }

    /// A string passed over without keeping it (its escapes and bytes checked when a row reads it).
    private mutating func skipString() throws {
        index += 1
        while true {
            // The common case: plain bytes within the buffer.
            while index < buffer.count {
                let next = buffer[index]
                if next == UInt8(ascii: "\"") || next == UInt8(ascii: "\\") || next < 0x20 { break }
                index += 1
            }
            guard let next = try byte() else { throw problem("a text without its closing quote") }
            index += 1
            switch next {
            case UInt8(ascii: "\""): return
            case UInt8(ascii: "\\"):
                guard try byte() != nil else { throw problem("a text without its closing quote") }
                index += 1
            case 0..<0x20: throw problem("a control character in a text")
            default: break
            }
        }
    }
}
