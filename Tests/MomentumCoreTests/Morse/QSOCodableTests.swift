import Foundation
import Testing

@testable import MomentumCore

@Suite("QSO wire form: the state a server returns as JSON, and what it refuses to read back")
struct QSOCodableTests {
    static func encoded(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func aContactInTheMiddleOfARagChewIsSpelledOutForFrontEnds() throws {
        var qso = try scriptedQSO(.ragChew, .answer)
        _ = try qso.receive("W1AW DE K1ABC K")
        _ = try qso.receive("W1AW DE K1ABC RST 5NN NAME JOHN QTH PARIS K")
        _ = try qso.receive("W1AW DE K1ABC RIG KX3 K")
        let json = try Self.encoded(qso)
        #expect(
            json == """
                {"copied":{"location":"PARIS","name":"JOHN","report":"599","rig":"KX3"},"exchangeNumber":2,\
                "expected":["stationCallSign","ownCallSign","rig","weather"],\
                "heard":["stationCallSign","ownCallSign","rig"],"missing":["weather"],"mode":"answer",\
                "ownCallSign":"K1ABC","phase":"exchange",\
                "station":{"antenna":"DIPOLE","callSign":"W1AW","location":"BOSTON MA","name":"BOB","power":100,\
                "report":"579","rig":"IC7300","serialNumber":42,"temperature":20,"weather":"SUNNY"},\
                "style":"ragChew","transcript":[\
                {"sender":"station","text":"CQ CQ CQ DE W1AW W1AW K"},\
                {"sender":"person","text":"W1AW DE K1ABC K"},\
                {"sender":"station","text":"K1ABC DE W1AW TNX FER CALL UR RST 579 579 NAME BOB BOB \
                QTH BOSTON MA BOSTON MA HW? K1ABC DE W1AW KN"},\
                {"sender":"person","text":"W1AW DE K1ABC RST 5NN NAME JOHN QTH PARIS K"},\
                {"sender":"station","text":"K1ABC DE W1AW R FB JOHN RIG HR IC7300 100W ANT DIPOLE \
                WX SUNNY TEMP 20C HW? K1ABC DE W1AW KN"},\
                {"sender":"person","text":"W1AW DE K1ABC RIG KX3 K"},{"sender":"station","text":"PSE RPT WX?"}]}
                """)
    }

    @Test func aTurnCarriesTheContactAndTheReply() throws {
        let turn = try scriptedQSO(.contest, .call).receiving("CQ TEST K1ABC ä")
        let json = try Self.encoded(turn.reply)
        #expect(json == #"{"advanced":true,"ignoredCharacters":["ä"],"missing":[],"text":"W1AW"}"#)
        #expect(try JSONDecoder().decode(QSOTurn.self, from: try JSONEncoder().encode(turn)) == turn)
    }

    @Test(arguments: QSOTests.scripts)
    func everyPhaseOfEveryContactReadsBackAsTheSameContact(_ script: QSOScript) throws {
        var qso = try scriptedQSO(script.style, script.mode)
        var contacts = [qso]
        for turn in script.turns {
            // Without its first or last word a transmission is mostly incomplete, so the contact
            // holds elements heard so far.
            let words = turn.send.split(separator: " ")
            for lacking in [words.first, words.last] {
                let partial = try qso.receiving(words.filter { $0 != lacking }.joined(separator: " "))
                if !partial.reply.advanced {
                    qso = partial.qso
                    contacts.append(qso)
                }
            }
            _ = try qso.receive(turn.send)
            contacts.append(qso)
        }
        #expect(contacts.contains { !$0.heard.isEmpty })
        for contact in contacts {
            let decoded = try JSONDecoder().decode(QSO.self, from: try JSONEncoder().encode(contact))
            #expect(decoded == contact)
            #expect(decoded.expected == contact.expected)
        }
    }

    @Test(arguments: [
        (#""exchangeNumber":2"#, #""exchangeNumber":3"#), (#""exchangeNumber":2"#, #""exchangeNumber":1"#),
        (#""exchangeNumber":2,"#, ""), (#""phase":"exchange""#, #""phase":"signOff""#),
        (#""phase":"exchange""#, #""phase":"answered""#), (#""phase":"exchange""#, #""phase":"over""#),
        (#""ownCallSign":"K1ABC""#, #""ownCallSign":"K1""#),
        (#""ownCallSign":"K1ABC""#, #""ownCallSign":"W1AW""#),
        (#""report":"579""#, #""report":"679""#),
        (#""style":"ragChew""#, #""style":"chat""#),
    ])
    func aStoredContactWithAnImpossibleStateDoesNotDecode(_ field: String, _ corrupted: String) throws {
        let qso = try scriptedQSO(.ragChew, .call).advanced(to: .exchange)
        let json = try Self.encoded(qso)
        #expect(json.contains(field))
        let data = Data(json.replacingOccurrences(of: field, with: corrupted).utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(QSO.self, from: data) }
    }

    @Test func aFirstContactHasNoExchangePhaseToDecode() throws {
        let json = try Self.encoded(try scriptedQSO(.firstContact, .call).advanced(to: .signOff))
        #expect(json.contains(#""phase":"signOff""#))
        let data = Data(json.replacingOccurrences(of: #""phase":"signOff""#, with: #""phase":"exchange""#).utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(QSO.self, from: data) }
    }
}
