import Foundation

/// Comma-separated values as RFC 4180 describes them: fields separated by commas, records by
/// CRLF or LF, fields with commas, quotes or line breaks wrapped in double quotes (a quote inside
/// is doubled).
public enum CSV {
    /// One record of a file and the line it starts on (1-based), so errors can name it.
    public struct Record: Sendable, Equatable {
        public var line: Int
        public var fields: [String]
    }

    /// Why a text is not CSV.
    public enum ParseError: Error, Equatable, Sendable {
        /// A quoted field that is never closed.
        case unterminatedQuote(line: Int)
        /// A quote in the middle of an unquoted field, or text after a closing quote.
        case strayQuote(line: Int)
    }

    /// The records of `text`; blank lines are skipped.
    public static func parse(_ text: String) throws(ParseError) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1
        var recordLine = 1
        var inQuotes = false
        var fieldWasQuoted = false
        var quoteLine = 1
        let bytes = Array(text.utf8)
        var index = bytes.startIndex
        // Skip a byte-order mark (spreadsheets write one).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index += 3 }

        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            fieldWasQuoted = false
        }
        func endRecord() {
            endField()
            if !(fields.count == 1 && fields[0].isEmpty) {
                records.append(Record(line: recordLine, fields: fields))
            }
            fields.removeAll(keepingCapacity: true)
        }

        while index < bytes.endIndex {
            let byte = bytes[index]
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.endIndex, bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    field.append(byte)
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""):
                    guard field.isEmpty, !fieldWasQuoted else { throw .strayQuote(line: line) }
                    inQuotes = true
                    fieldWasQuoted = true
                    quoteLine = line
                case UInt8(ascii: ","):
                    endField()
                case UInt8(ascii: "\r") where index + 1 < bytes.endIndex && bytes[index + 1] == UInt8(ascii: "\n"):
                    break
                case UInt8(ascii: "\n"):
                    endRecord()
                    line += 1
                    recordLine = line
                default:
                    guard !fieldWasQuoted else { throw .strayQuote(line: line) }
                    field.append(byte)
                }
            }
            index += 1
        }
        guard !inQuotes else { throw .unterminatedQuote(line: quoteLine) }
        endRecord()
        return records
    }

    /// One record as a line ending in CRLF, quoting only the fields that need it.
    public static func line(_ fields: [String]) -> String {
        fields.map(quotedIfNeeded).joined(separator: ",") + "\r\n"
    }

    static func quotedIfNeeded(_ field: String) -> String {
        // Bytes, not characters: "\r\n" is a single Character and would slip past a character test.
        let special: Set<UInt8> = [UInt8(ascii: ","), UInt8(ascii: "\""), UInt8(ascii: "\n"), UInt8(ascii: "\r")]
        guard field.utf8.contains(where: special.contains) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
