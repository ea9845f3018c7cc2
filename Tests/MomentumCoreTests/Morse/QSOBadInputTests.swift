import Testing

@testable import MomentumCore

@Suite("QSO bad input: own call signs, unknown characters, long transmissions")
struct QSOBadInputTests {
    @Test func charactersWithoutACodeAreReportedAndReadAsSpaces() throws {
        let qso = try scriptedQSO(.firstContact, .answer).advanced(to: .answered)
        let turn = try qso.receiving("W1AW de K1ABC ä 599!599 🙂 k")
        #expect(turn.reply.advanced)
        #expect(turn.reply.ignoredCharacters == ["ä", "!", "🙂"])
        #expect(turn.qso.copied.report == SignalReport(text: "599"))
        #expect(turn.qso.transcript.dropLast().last == QSOLine(sender: .person, text: "W1AW de K1ABC ä 599!599 🙂 k"))
    }

    @Test func aTransmissionOfUpToFiveHundredCharactersIsTakenALongerOneIsRefused() throws {
        let qso = try scriptedQSO(.firstContact, .call)
        let longest = "CQ DE K1ABC " + String(repeating: "E", count: QSO.maximumTransmissionLength - 12)
        #expect(longest.count == 500)
        #expect(try qso.receiving(longest).reply.advanced)
        #expect(throws: QSOError.transmissionTooLong(characterCount: 501)) { try qso.receiving(longest + "E") }
    }

    @Test(
        arguments: [
            (nil, QSOError.noOwnCallSign), ("", .noOwnCallSign), (" \n\t", .noOwnCallSign),
            ("K1", .invalidOwnCallSign(.tooShort("K1"))), ("KABC", .invalidOwnCallSign(.noDigit("KABC"))),
            ("K1 ABC", .invalidOwnCallSign(.invalidCharacter(" ", callSign: "K1 ABC"))),
            ("w1aw", .stationHasOwnCallSign(scriptedCallSign("W1AW"))),
        ] as [(String?, QSOError)])
    func aContactNeedsAValidOwnCallSignOtherThanTheStations(_ ownCallSign: String?, _ error: QSOError) throws {
        let station = try scriptedStation()
        #expect(throws: error) {
            try QSO(style: .firstContact, mode: .call, ownCallSign: ownCallSign, station: station)
        }
        var generator = SeededRandomNumberGenerator(seed: 3)
        if error != .stationHasOwnCallSign(station.callSign) {
            #expect(throws: error) {
                try QSO(style: .ragChew, mode: .answer, ownCallSign: ownCallSign, using: &generator)
            }
        }
    }

    @Test func theDocumentedExampleHolds() throws {
        var generator = SeededRandomNumberGenerator(seed: 1)
        var qso = try QSO(style: .firstContact, mode: .call, ownCallSign: "K1ABC", using: &generator)
        let call = qso.station.callSign.text
        #expect(call == "NI9LTW")
        #expect(try qso.receive("CQ CQ DE K1ABC K1ABC K").text == "K1ABC DE NI9LTW NI9LTW K")
        #expect(qso.phase == .answered)
        let reply = try qso.receive("\(call) DE K1ABC K")
        #expect(reply.text == "PSE RPT RST?")
        #expect(reply.missing == [.report])
    }

    @Test func aSeededContactDrawsTheSameStationEveryTimeAndNeverThePersonsCall() throws {
        var first = SeededRandomNumberGenerator(seed: 99)
        var second = SeededRandomNumberGenerator(seed: 99)
        let one = try QSO(style: .ragChew, mode: .answer, ownCallSign: " k1abc/p ", using: &first)
        let other = try QSO(style: .ragChew, mode: .answer, ownCallSign: "K1ABC/P", using: &second)
        #expect(one == other)
        #expect(one.ownCallSign.text == "K1ABC/P")
        #expect(one.openingText == "CQ CQ CQ DE \(one.station.callSign) \(one.station.callSign) K")
    }

    @Test func anyTextInAnyPhaseGetsAReplyThatCanBeKeyed() throws {
        let pool: [Character] =
            Array("K1ABCW1AW DE 5NN 73 <SK> <XY <> NAME QTH RIG WX NR TU ?=,./-+") + [
                "ä", "🙂", "e\u{301}", "\u{0}", "\n", "\t", "ß", "Ａ", "\\", "\"",
            ]
        var generator = SeededRandomNumberGenerator(seed: 77)
        for round in 0..<400 {
            let style = QSOStyle.allCases[round % 4]
            let mode = QSOMode.allCases[round / 4 % 2]
            var qso = try scriptedQSO(style, mode)
            while qso.phase != .done {
                let length = Int.random(in: 0...40, using: &generator)
                let text = String((0..<length).compactMap { _ in pool.randomElement(using: &generator) })
                let turn = try qso.receiving(text)
                #expect(try MorseText(turn.reply.text).skipped.isEmpty, "\(text)")
                let ignoredOnlyUnknown = turn.reply.ignoredCharacters.allSatisfy {
                    $0.count == 1 && $0.first.map { MorseCode.symbol(for: $0) == nil && !"<> ".contains($0) } == true
                }
                #expect(ignoredOnlyUnknown, "\(text)")
                #expect(
                    turn.reply.advanced
                        == (turn.qso.phase != qso.phase || turn.qso.exchangeNumber != qso.exchangeNumber))
                // Random text rarely completes a phase: a complete transmission moves on.
                qso =
                    turn.reply.advanced ? turn.qso : try turn.qso.receiving(transmission(holding: turn.qso.missing)).qso
            }
        }
    }
}

/// Builds a valid call sign in a table; an invalid text fails the test that uses it.
private func scriptedCallSign(_ text: String) -> CallSign {
    do {
        return try CallSign(text)
    } catch {
        Issue.record("\(text) is not a call sign: \(error)")
        return CallSign(checked: "X0X")
    }
}
