import Foundation

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
            // try?: the handle is only read from and every byte has been read; a failed close loses nothing.
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
