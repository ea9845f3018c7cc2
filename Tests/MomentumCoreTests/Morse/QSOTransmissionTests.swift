import Testing

@testable import MomentumCore

@Suite("QSO lenient checks: what the station copies from the person's transmission")
struct QSOTransmissionTests {
    @Test(arguments: [
        ("cq cq de k1abc k", ["CQ", "CQ", "DE", "K1ABC", "K"]),
        ("  W1AW de K1ABC <SK>  ", ["W1AW", "DE", "K1ABC", "SK"]),
        ("HW?BK", ["HW", "BK"]), ("RST=599,599.", ["RST", "599", "599"]), ("73<SK>E E", ["73", "SK", "E", "E"]),
        ("K1ABC/P IC-7300", ["K1ABC/P", "IC-7300"]), ("<KN>", ["KN"]), ("", []), ("\n\t", []),
    ])
    func wordsAreSplitAtSpacesPunctuationAndProsignBracketsUpperCase(_ text: String, _ words: [String]) {
        let transmission = QSOTransmission(text)
        #expect(transmission.words == words)
        #expect(transmission.ignoredCharacters.isEmpty)
    }

    @Test(arguments: [
        ("K1ÄBC", ["K1", "BC"], ["Ä"]), ("599 @ 599", ["599", "599"], ["@"]), ("e\u{301} 5NN", ["5NN"], ["e\u{301}"]),
        ("73 🙂 SK!", ["73", "SK"], ["🙂", "!"]), ("ı", [], ["ı"]), ("\u{0}K", ["K"], ["\u{0}"]),
    ])
    func charactersWithoutACodeAreListedAndReadAsSpaces(_ text: String, _ words: [String], _ ignored: [String]) {
        let transmission = QSOTransmission(text)
        #expect(transmission.words == words)
        #expect(transmission.ignoredCharacters == ignored)
    }

    @Test(arguments: [
        ("W1AW DE K1ABC", true, true), ("w1aw de k1abc", true, true), ("W1AW/P DE K1ABC/QRP", true, true),
        ("DL/K1ABC", false, true), ("W1AWX DE K1AB", false, false), ("W1 AW K1ABC", false, true),
        ("K1ABCW1AW", false, false),
    ])
    func callSignsCountOnlyWhenSentWholeAloneOrWithASlashPart(_ text: String, _ station: Bool, _ own: Bool) throws {
        let transmission = QSOTransmission(text)
        #expect(transmission.contains(try CallSign("W1AW")) == station)
        #expect(transmission.contains(try CallSign("K1ABC")) == own)
    }

    @Test(
        arguments: [
            ("UR RST 599 599", "599"), ("ur 5nn", "599"), ("559", "559"), ("TNX 449 BK", "449"),
            ("NR 123 5NN", "599"), ("UR 57N", "579"), ("NAME ANN", nil), ("AND ANN", nil), ("RST 699", nil),
            ("RST 59", nil), ("73", nil), ("RST 5 9 9", nil), ("NR 345", nil), ("", nil),
        ] as [(String, String?)])
    func reportsAreThreeDigitsWithNForNine(_ text: String, _ report: String?) {
        #expect(QSOTransmission(text).report?.text == report)
    }

    @Test(
        arguments: [
            ("5NN 001", 1), ("599 042", 42), ("5NN TT1", 1), ("5NN 1T4", 104), ("NR 599 5NN", 599), ("NR 7", 7),
            ("5NN 599 12", 12), ("73 5NN 12", 12), ("5NN", nil), ("5NN 73", nil), ("5NN 000", nil), ("5NN TOT", nil),
            ("5NN 12345", nil), ("5NN K1ABC", nil), ("599 599", nil), ("NR 12 AND 34", 12),
        ] as [(String, Int?)])
    func serialNumbersAreTheNumberAfterNrOrTheFirstNumberThatIsNotTheReport(_ text: String, _ serial: Int?) {
        #expect(QSOTransmission(text).serialNumber == serial)
    }

    @Test(
        arguments: [
            ("NAME JOHN", "JOHN"), ("name hr is ann", "ANN"), ("OP BOB BOB", "BOB"), ("NM AL K", "AL"),
            ("NAME JOHN SMITH", "JOHN"), ("NAME", nil), ("NAME K", nil), ("NAME 599", nil), ("NAME K1ABC", nil),
            ("JOHN", nil), ("NAME HR", nil),
        ] as [(String, String?)])
    func theNameIsTheWordAfterNameOrOp(_ text: String, _ name: String?) {
        #expect(QSOTransmission(text).name == name)
    }

    @Test(
        arguments: [
            ("QTH BOSTON MA BOSTON MA HW?", "BOSTON MA"), ("QTH NR PARIS K", "PARIS"),
            ("qth is st paul mn", "ST PAUL MN"),
            ("QTH HR LYON ES RIG KX3", "LYON"), ("QTH", nil), ("QTH DE K", nil), ("QTH 599", nil),
            ("QTH A B C D E F", "A B C D"),
        ] as [(String, String?)])
    func theLocationIsTheWordsAfterQthUpToTheNextProceduralWord(_ text: String, _ location: String?) {
        #expect(QSOTransmission(text).location == location)
    }

    @Test(
        arguments: [
            ("RIG HR IC7300 100W ANT DIPOLE", "IC7300 100W", nil),
            ("TRX KX3 WX SUNNY TEMP 20C", "KX3", "SUNNY TEMP 20C"),
            ("XCVR FT-991A ES WX HR RAIN K", "FT-991A", "RAIN"), ("WEATHER IS FOG", nil, "FOG"), ("RIG WX", nil, nil),
            ("IC7300 SUNNY", nil, nil),
        ] as [(String, String?, String?)])
    func rigAndWeatherAreTheWordsAfterTheirKeywords(_ text: String, _ rig: String?, _ weather: String?) {
        let transmission = QSOTransmission(text)
        #expect(transmission.rig == rig)
        #expect(transmission.weather == weather)
    }

    @Test(arguments: [
        ("TNX QSO 73", true, true), ("<SK>", true, true), ("sk", true, true), ("73 E E", true, true),
        ("TU", false, true), ("TU K1ABC", false, true), ("GL", false, false), ("7 3", false, false),
        ("S K", false, false), ("", false, false),
    ])
    func theSignOffIs73OrSkAndInAContestAlsoTu(_ text: String, _ elsewhere: Bool, _ contest: Bool) {
        let transmission = QSOTransmission(text)
        #expect(transmission.containsSignOff(in: .contest) == contest)
        for style in QSOStyle.allCases where style != .contest {
            #expect(transmission.containsSignOff(in: style) == elsewhere)
        }
    }

    @Test(arguments: [("CQ CQ DE K1ABC", true), ("cq test", true), ("CQCQ", false), ("QRZ", false)])
    func cqIsTheWordCq(_ text: String, _ cq: Bool) {
        #expect(QSOTransmission(text).containsCQ == cq)
    }
}
