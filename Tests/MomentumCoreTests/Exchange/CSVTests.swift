import Foundation
import MomentumCore
import Testing

@Suite("CSV reading and writing (RFC 4180)")
struct CSVTests {
    @Test func quotedFieldsHoldCommasQuotesAndLineBreaks() throws {
        let text = "a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\r\nlast,,\n"
        let records = try CSV.parse(text)
        #expect(records.map(\.fields) == [["a", "b", "c"], ["x, y", "say \"hi\"", "two\nlines"], ["last", "", ""]])
        #expect(records.map(\.line) == [1, 2, 4])
    }

    @Test func aByteOrderMarkAndBlankLinesAreSkipped() throws {
        let records = try CSV.parse("\u{FEFF}a,b\n\n1,2\n\n")
        #expect(records.map(\.fields) == [["a", "b"], ["1", "2"]])
        #expect(records.map(\.line) == [1, 3])
    }

    @Test func brokenQuotingIsNamedWithItsLine() {
        #expect(throws: CSV.ParseError.unterminatedQuote(line: 2)) { try CSV.parse("a,b\n\"open,2\n3,4\n") }
        #expect(throws: CSV.ParseError.strayQuote(line: 1)) { try CSV.parse("ab\"c,d\n") }
        #expect(throws: CSV.ParseError.strayQuote(line: 1)) { try CSV.parse("\"ab\"c,d\n") }
    }

    @Test func writtenLinesReadBackAsTheSameFields() throws {
        var generator = SeededGenerator(seed: 7)
        let alphabet = Array("ab ,\"\n\r;é😀\t")
        for _ in 0..<500 {
            let fields = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                String(
                    (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                        alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
                    })
            }
            // A lone empty field is a blank line, which readers skip; start every record with a letter.
            let record = ["r"] + fields
            let parsed = try CSV.parse(CSV.line(record))
            #expect(parsed.map(\.fields) == [record], "\(record)")
        }
    }
}
