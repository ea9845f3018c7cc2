import Foundation
import Testing

@testable import MomentumCore

@Suite("The backup reader: a document read a row at a time, exactly as JSON says, and never a crash")
struct BackupDocumentReaderTests {
    static let texts: [String] = [
        "plain", "", "quote \" and backslash \\ and slash /", "new\nline\ttab\r\u{01}\u{1F}", "Grüße — 🧘‍♀️ 𝄞",
        "\u{7F}\u{80}\u{FFFF}", String(repeating: "long ", count: 3000),
    ]

    static func document(rows: Int = 20) -> BackupDocument {
        var log: [BackupRow] = []
        for index in 0..<rows {
            log.append([
                "id": .text(String(format: "00000000-0000-4000-8000-%012d", index)),
                "note": .text(texts[index % texts.count]), "seconds": .integer(Int64(index) * 60 - 600),
                "energy": index % 3 == 0 ? .null : .real(Double(index) / 8 + 0.001),
                "big": .integer(.max - Int64(index)),
            ])
        }
        return BackupDocument(tables: [
            "practiceLog": log, "settings": [["key": .text("sound"), "value": .text("off")]], "library": [],
        ])
    }

    func write(_ data: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reader-\(UUID()).json")
        try data.write(to: url)
        return url
    }

    @Test func aNumberJSONCannotHoldIsRefusedNamingItsColumnNotWrittenAsAnEmptyFile() {
        var document = Self.document(rows: 4)
        document.tables["practiceLog"]?[2]["energy"] = .real(.infinity)
        #expect(
            throws: BackupError.invalidRow(
                table: "practiceLog", row: 3, reason: "energy holds inf, which JSON cannot hold")
        ) {
            try document.encoded()
        }
        document.tables["practiceLog"]?[2]["energy"] = .real(-.nan)
        #expect(throws: BackupError.self) { try document.encoded() }
    }

    @Test func aDocumentReadsBackAsItWasWrittenFromMemoryAndFromAFile() throws {
        let document = Self.document()
        let data = try document.encoded()
        let reader = try BackupDocumentReader(data: data)
        #expect(reader.tableNames == ["library", "practiceLog", "settings"])
        #expect(reader.count(of: "practiceLog") == 20 && reader.count(of: "library") == 0)
        #expect(reader.count(of: "morseCourse") == 0)
        #expect(try reader.document() == document)
        let url = try write(data)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try BackupDocumentReader(url: url).document() == document)
    }

    @Test func rowsThatCrossTheReadersPiecesReadWhole() throws {
        // 700 rows, every seventh with a 15 KB text: far more than one 256 KB piece, texts cut anywhere.
        let document = Self.document(rows: 700)
        let data = try document.encoded()
        #expect(data.count > 4 * ByteChunks.chunkSize)
        let url = try write(data)
        defer { try? FileManager.default.removeItem(at: url) }
        let reader = try BackupDocumentReader(url: url)
        var rows: [BackupRow] = []
        try reader.forEachRow(in: "practiceLog") { rows.append($0) }
        #expect(rows == document.tables["practiceLog"])
    }

    @Test func escapesNumbersAndSpacingAreReadAsJSONSaysThem() throws {
        let text = #"""
             { "version" : 2 , "tables" : { "practiceLog" : [ { "a" : "\u00e9\ud834\udd1e\/\b\f" ,
            "b" : -0 , "c" : 1.5e3 , "d" : 12345678901234567890 , "e" : -9223372036854775808 , "f" : 2E-2 } ] } ,
            "format" : "momentum-backup" }
            """#
        let reader = try BackupDocumentReader(data: Data(text.utf8))
        let row = try #require(try reader.document().tables["practiceLog"]?.first)
        #expect(row["a"] == .text("é𝄞/\u{08}\u{0C}"))
        #expect(row["b"] == .integer(0))
        #expect(row["c"] == .real(1500))
        #expect(row["d"] == .real(12_345_678_901_234_567_890))
        #expect(row["e"] == .integer(.min))
        #expect(row["f"] == .real(0.02))
    }

    func error(_ text: String) -> BackupError? {
        do {
            _ = try BackupDocumentReader(data: Data(text.utf8)).document()
            return nil
        } catch let error as BackupError {
            return error
        } catch {
            Issue.record("not a BackupError: \(error)")
            return nil
        }
    }

    func unreadable(_ text: String) -> String? {
        if case .unreadableDocument(let detail) = error(text) { detail } else { nil }
    }

    @Test func whatIsNotABackupOfThisVersionIsNamedBeforeAnyRowIsRead() {
        #expect(error("not json") == .notABackup)
        #expect(error(#"{"format": "other", "tables": {}, "version": 2}"#) == .notABackup)
        #expect(error(#"{"tables": {}, "version": 2}"#) == .notABackup)
        #expect(error(#"{"format": "momentum-backup", "tables": {}}"#) == .notABackup)
        // A newer version says so even when its tables are of a shape this one does not know.
        #expect(
            error(#"{"format": "momentum-backup", "tables": {"log": {"rows": 1}}, "version": 3}"#)
                == .newerVersion(version: 3, supported: 2))
        #expect(error(#"{"format": "momentum-backup", "tables": {}, "version": 1}"#) == .olderVersion(version: 1))
        #expect(
            unreadable(#"{"extra": [1], "format": "momentum-backup", "tables": {}, "version": 2}"#)
                == "unknown field “extra”")
        #expect(unreadable(#"{"format": "momentum-backup", "version": 2}"#) == "the field “tables” is missing")
        #expect(
            unreadable(#"{"format": "momentum-backup", "tables": {"a": 1}, "version": 2}"#)
                == "the table “a” is not a list of rows")
        #expect(
            unreadable(#"{"format": "momentum-backup", "tables": {"a": [], "a": []}, "version": 2}"#)
                == "the table “a” is there twice")
        // Broken off after saying what it is: unreadable, with where.
        #expect(unreadable(#"{"format": "momentum-backup", "tables": {"a": [{"id": "x"#)?.contains("at byte") == true)
    }

    @Test func aRowThatIsNotNumbersTextsAndNullsIsNamedByTableAndRow() {
        func row(_ body: String) -> String? {
            unreadable(
                #"{"format": "momentum-backup", "tables": {"practiceLog": [{"id": "a"}, "# + body
                    + "]}, \"version\": 2}")
        }
        #expect(row(#"{"done": true}"#)?.hasPrefix("practiceLog, row 2: expected a number, a text or null") == true)
        #expect(row(#"{"list": [1]}"#)?.hasPrefix("practiceLog, row 2:") == true)
        #expect(row(#"{"id": "a", "id": "b"}"#)?.hasPrefix("practiceLog, row 2: “id” is there twice") == true)
        #expect(row(#"[1]"#)?.hasPrefix("practiceLog, row 2: a row is not an object") == true)
        #expect(row(#"{"n": 1e400}"#)?.contains("a number out of range") == true)
        #expect(row(#"{"n": 01}"#) != nil)
        #expect(row(#"{"n": -}"#) != nil)
        #expect(row(#"{"t": "\ud800"}"#)?.contains("a lone surrogate") == true)
        #expect(row("{\"t\": \"a\u{01}b\"}")?.contains("a control character") == true)
        #expect(row(#"{"t": "\x"}"#)?.contains("a malformed escape") == true)
    }

    @Test func bytesThatAreNotUTF8AndDeepNestingAreRefusedNotFollowed() throws {
        var bytes = Array(#"{"format": "momentum-backup", "tables": {"a": [{"t": "x"#.utf8)
        bytes += [0xC3, 0x28]
        bytes += Array(#""}]}, "version": 2}"#.utf8)
        #expect(throws: BackupError.self) { try BackupDocumentReader(data: Data(bytes)).document() }
        let deep = #"{"format": "momentum-backup", "x": "# + String(repeating: "[", count: 100_000)
        #expect(throws: BackupError.self) { try BackupDocumentReader(data: Data(deep.utf8)) }
        let text = String(repeating: "a", count: BackupDocumentReader.maximumTextBytes + 1)
        let long = #"{"format": "momentum-backup", "tables": {"a": [{"t": ""# + text + #""}]}, "version": 2}"#
        #expect(unreadable(long)?.contains("longer than 4 MiB") == true)
    }

    /// 800 damaged copies of a real document (bytes changed, cut, repeated, put in): the reader
    /// never crashes, throws only ``BackupError``s, and reads a copy whole only when it is JSON.
    @Test func damagedDocumentsAreRefusedCleanlyAndOnlyJSONIsEverRead() throws {
        let original = [UInt8](try Self.document(rows: 6).encoded())
        var generator = SeededGenerator(seed: 46)
        var readWhole = 0
        for _ in 0..<800 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<5, using: &generator) {
                case 0: bytes[at] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.removeSubrange(at...)
                case 2: bytes.insert(Array(#"{}[],:"\-0e"#.utf8).randomElement(using: &generator)!, at: at)
                case 3: bytes.remove(at: at)
                default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 40)], at: at)
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
            do {
                _ = try BackupDocumentReader(data: Data(bytes)).document()
                readWhole += 1
                #expect((try? JSONSerialization.jsonObject(with: Data(bytes))) != nil, "read whole but not JSON")
            } catch is BackupError {
            } catch {
                Issue.record("not a BackupError: \(error)")
            }
        }
        // Some damage leaves valid JSON (a digit changed): those are read.
        #expect(readWhole > 0)
    }
}
