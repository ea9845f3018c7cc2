import Foundation
import Testing

@testable import MomentumCore

@Suite("QSO call signs and RST reports: what is read, what is refused and why")
struct QSOCallSignTests {
    @Test(arguments: [
        ("K1ABC", "K1ABC"), ("w1aw", "W1AW"), ("  dl1abc\n", "DL1ABC"), ("2E0ABC", "2E0ABC"), ("K1A", "K1A"),
        ("K1ABC/P", "K1ABC/P"), ("DL/K1ABC", "DL/K1ABC"), ("VE3ABC/QRP", "VE3ABC/QRP"), ("HB9ABC", "HB9ABC"),
    ])
    func callSignsAreReadUpperCaseWithoutSurroundingSpace(_ text: String, _ read: String) throws {
        #expect(try CallSign(text).text == read)
        #expect(try CallSign(text).description == read)
    }

    @Test(arguments: [
        ("", CallSignError.empty), ("   ", .empty), ("K1", .tooShort("K1")), ("K1ABCDEFGHI", .tooLong("K1ABCDEFGHI")),
        ("K1 ABC", .invalidCharacter(" ", callSign: "K1 ABC")), ("K1ÄBC", .invalidCharacter("Ä", callSign: "K1ÄBC")),
        ("K1-ABC", .invalidCharacter("-", callSign: "K1-ABC")), ("Ｋ1ABC", .invalidCharacter("Ｋ", callSign: "Ｋ1ABC")),
        ("/K1ABC", .misplacedSlash("/K1ABC")), ("K1ABC/", .misplacedSlash("K1ABC/")),
        ("K1//ABC", .misplacedSlash("K1//ABC")), ("KABC", .noDigit("KABC")), ("K/ABC", .noDigit("K/ABC")),
        ("1234", .noLetter("1234")),
    ])
    func textsThatAreNoCallSignsAreRefusedWithTheRuleTheyBreak(_ text: String, _ error: CallSignError) {
        #expect(throws: error) { try CallSign(text) }
    }

    @Test func aCallSignIsAStringInJSONAndAnInvalidOneDoesNotDecode() throws {
        let data = try JSONEncoder().encode([try CallSign("k1abc")])
        #expect(String(decoding: data, as: UTF8.self) == #"["K1ABC"]"#)
        #expect(try JSONDecoder().decode([CallSign].self, from: data) == [try CallSign("K1ABC")])
        let tooShort = Data(#"["K1"]"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([CallSign].self, from: tooShort) }
    }

    @Test(arguments: [
        ("599", 5, 9, 9), ("5NN", 5, 9, 9), ("5nn", 5, 9, 9), ("579", 5, 7, 9), ("57N", 5, 7, 9), ("339", 3, 3, 9),
        ("111", 1, 1, 1), ("449", 4, 4, 9),
    ])
    func reportsAreReadWithNForNineInStrengthAndTone(_ text: String, _ readability: Int, _ strength: Int, _ tone: Int)
        throws
    {
        let report = try #require(SignalReport(text: text))
        let values: [Int] = [report.readability, report.strength, report.tone]
        #expect(values == [readability, strength, tone])
        #expect(report.text == "\(readability)\(strength)\(tone)")
    }

    @Test(arguments: [
        "699", "099", "509", "590", "N99", "ENN", "AND", "ANN", "59", "5999", "", "5 9", "５99", "5NA", "TTT",
    ])
    func textsThatAreNoReportsAreNotRead(_ text: String) {
        #expect(SignalReport(text: text) == nil)
    }

    @Test func aReportOutOfRangeCannotBeMadeAndInAContestNinesAreCut() throws {
        #expect(SignalReport(readability: 6, strength: 9, tone: 9) == nil)
        #expect(SignalReport(readability: 5, strength: 0, tone: 9) == nil)
        #expect(SignalReport(readability: 5, strength: 9, tone: 10) == nil)
        #expect(try #require(SignalReport(readability: 5, strength: 9, tone: 9)).cutText == "5NN")
        #expect(try #require(SignalReport(readability: 5, strength: 7, tone: 9)).cutText == "57N")
        let data = try JSONEncoder().encode([SignalReport(text: "5NN")])
        #expect(String(decoding: data, as: UTF8.self) == #"["599"]"#)
        let outOfRange = Data(#""699""#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SignalReport.self, from: outOfRange) }
    }
}
