import Foundation
import Testing

@testable import MomentumCore

/// One complete contact: what the person sends in each phase, what the station answers, and the
/// phase after it.
struct QSOScript: Sendable, CustomTestStringConvertible {
    let style: QSOStyle
    let mode: QSOMode
    let opening: String?
    let turns: [(send: String, reply: String, phase: QSOPhase, exchangeNumber: Int?)]

    var testDescription: String { "\(style) \(mode)" }
}

@Suite("QSO engine: the state machine of every style and mode, repeats, and bad input")
struct QSOTests {
    static let scripts: [QSOScript] = [
        QSOScript(
            style: .firstContact, mode: .call, opening: nil,
            turns: [
                ("CQ CQ DE K1ABC K1ABC K", "K1ABC DE W1AW W1AW K", .answered, 1),
                (
                    "W1AW DE K1ABC UR RST 599 599 K",
                    "K1ABC DE W1AW R TNX FER RPT UR RST 579 579 K1ABC DE W1AW KN", .signOff, nil
                ),
                ("W1AW DE K1ABC TNX QSO 73 <SK>", "R TU 73 K1ABC DE W1AW <SK>", .done, nil),
            ]),
        QSOScript(
            style: .firstContact, mode: .answer, opening: "CQ CQ CQ DE W1AW W1AW K",
            turns: [
                (
                    "W1AW DE K1ABC K1ABC K",
                    "K1ABC DE W1AW TNX FER CALL UR RST 579 579 HW? K1ABC DE W1AW KN", .answered, 1
                ),
                ("W1AW DE K1ABC R TNX UR RST 599 599 K", "R TNX FER QSO 73 K1ABC DE W1AW <SK>", .signOff, nil),
                ("TU 73 W1AW DE K1ABC <SK>", "E E", .done, nil),
            ]),
        QSOScript(
            style: .signalReport, mode: .call, opening: nil,
            turns: [
                ("cq cq de k1abc k1abc k", "K1ABC DE W1AW W1AW K", .answered, 1),
                (
                    "W1AW DE K1ABC UR RST 599 599 NAME JOHN JOHN K",
                    "K1ABC DE W1AW R FB JOHN TNX FER RPT UR RST 579 579 NAME BOB BOB K1ABC DE W1AW KN", .signOff, nil
                ),
                ("W1AW DE K1ABC TNX BOB 73 SK", "R TU 73 K1ABC DE W1AW <SK>", .done, nil),
            ]),
        QSOScript(
            style: .signalReport, mode: .answer, opening: "CQ CQ CQ DE W1AW W1AW K",
            turns: [
                (
                    "W1AW DE K1ABC K",
                    "K1ABC DE W1AW TNX FER CALL UR RST 579 579 NAME BOB BOB HW? K1ABC DE W1AW KN", .answered, 1
                ),
                (
                    "W1AW DE K1ABC R FB BOB UR RST 599 NAME HR JOHN BK", "R FB JOHN TNX FER QSO 73 K1ABC DE W1AW <SK>",
                    .signOff, nil
                ),
                ("73 W1AW DE K1ABC <SK>", "E E", .done, nil),
            ]),
        QSOScript(
            style: .contest, mode: .call, opening: nil,
            turns: [
                ("CQ TEST K1ABC", "W1AW", .answered, 1),
                ("W1AW 5NN 001", "TU 5NN 042", .signOff, nil),
                ("TU K1ABC", "E E", .done, nil),
            ]),
        QSOScript(
            style: .contest, mode: .answer, opening: "CQ TEST W1AW W1AW",
            turns: [
                ("K1ABC", "K1ABC 5NN 042", .answered, 1),
                ("TU 5NN TT1", "TU 73 W1AW", .signOff, nil),
                ("73", "E E", .done, nil),
            ]),
        QSOScript(
            style: .ragChew, mode: .call, opening: nil,
            turns: [
                ("CQ CQ CQ DE K1ABC K1ABC K1ABC K", "K1ABC DE W1AW W1AW K", .answered, 1),
                (
                    "W1AW DE K1ABC TNX FER CALL UR RST 599 599 NAME JOHN JOHN QTH PARIS PARIS HW? W1AW DE K1ABC KN",
                    "K1ABC DE W1AW R FB JOHN TNX FER RPT UR RST 579 579 NAME BOB BOB QTH BOSTON MA BOSTON MA "
                        + "K1ABC DE W1AW KN", .exchange, 2
                ),
                (
                    "W1AW DE K1ABC R FB BOB RIG HR IC7300 100W ANT DIPOLE WX RAIN TEMP 12C W1AW DE K1ABC KN",
                    "K1ABC DE W1AW R FB JOHN RIG HR IC7300 100W ANT DIPOLE WX SUNNY TEMP 20C K1ABC DE W1AW KN",
                    .signOff, nil
                ),
                ("W1AW DE K1ABC TNX FER QSO 73 <SK>", "R TU 73 K1ABC DE W1AW <SK>", .done, nil),
            ]),
        QSOScript(
            style: .ragChew, mode: .answer, opening: "CQ CQ CQ DE W1AW W1AW K",
            turns: [
                (
                    "W1AW DE K1ABC K",
                    "K1ABC DE W1AW TNX FER CALL UR RST 579 579 NAME BOB BOB QTH BOSTON MA BOSTON MA HW? "
                        + "K1ABC DE W1AW KN", .answered, 1
                ),
                (
                    "W1AW DE K1ABC R FB BOB UR RST 599 599 NAME JOHN QTH NR PARIS K",
                    "K1ABC DE W1AW R FB JOHN RIG HR IC7300 100W ANT DIPOLE WX SUNNY TEMP 20C HW? K1ABC DE W1AW KN",
                    .exchange, 2
                ),
                ("W1AW DE K1ABC RIG IC7300 WX SUNNY K", "R FB JOHN TNX FER QSO 73 K1ABC DE W1AW <SK>", .signOff, nil),
                ("TU 73 W1AW DE K1ABC <SK> E E", "E E", .done, nil),
            ]),
    ]

    @Test func theScriptsCoverEveryStyleInEveryMode() {
        let covered = Set(Self.scripts.map { "\($0.style) \($0.mode)" })
        #expect(covered.count == QSOStyle.allCases.count * QSOMode.allCases.count)
    }

    @Test(arguments: scripts)
    func aCompleteContactGoesThroughEveryPhaseWithTheStationsReplies(_ script: QSOScript) throws {
        var qso = try scriptedQSO(script.style, script.mode)
        #expect(qso.phase == .calling)
        #expect(qso.openingText == script.opening)
        #expect(qso.transcript == script.opening.map { [QSOLine(sender: .station, text: $0)] } ?? [])
        var phases: [QSOPhase] = [qso.phase]
        for turn in script.turns {
            let reply = try qso.receive(turn.send)
            #expect(reply == QSOReply(text: turn.reply, advanced: true, missing: [], ignoredCharacters: []))
            #expect(qso.phase == turn.phase)
            #expect(qso.exchangeNumber == turn.exchangeNumber)
            #expect(qso.heard.isEmpty)
            phases.append(qso.phase)
        }
        let exchangePhases: [QSOPhase] = script.style == .ragChew ? [.answered, .exchange] : [.answered]
        #expect(phases == [.calling] + exchangePhases + [.signOff, .done])
        #expect(qso.transcript.count == (script.opening == nil ? 0 : 1) + 2 * script.turns.count)
        #expect(qso.transcript.last == QSOLine(sender: .station, text: script.turns.last?.reply ?? ""))
        #expect(throws: QSOError.contactIsOver) { try qso.receive("73 <SK>") }
    }

    @Test(arguments: scripts)
    func everyStationTextCanBeKeyed(_ script: QSOScript) throws {
        for text in [script.opening].compactMap(\.self) + script.turns.map(\.reply) {
            let keyed = try MorseText(text)
            #expect(keyed.skipped.isEmpty)
        }
    }

    /// Every phase of every style and mode, with each element it expects.
    static let expectations: [(QSOStyle, QSOMode, QSOPhase, Int?, [QSOElement])] = [
        (.firstContact, .call, .calling, nil, [.cq, .ownCallSign]),
        (.firstContact, .call, .answered, 1, [.stationCallSign, .ownCallSign, .report]),
        (.firstContact, .call, .signOff, nil, [.stationCallSign, .ownCallSign, .signOff]),
        (.firstContact, .answer, .calling, nil, [.stationCallSign, .ownCallSign]),
        (.firstContact, .answer, .answered, 1, [.stationCallSign, .ownCallSign, .report]),
        (.firstContact, .answer, .signOff, nil, [.stationCallSign, .ownCallSign, .signOff]),
        (.signalReport, .call, .calling, nil, [.cq, .ownCallSign]),
        (.signalReport, .call, .answered, 1, [.stationCallSign, .ownCallSign, .report, .name]),
        (.signalReport, .call, .signOff, nil, [.stationCallSign, .ownCallSign, .signOff]),
        (.signalReport, .answer, .calling, nil, [.stationCallSign, .ownCallSign]),
        (.signalReport, .answer, .answered, 1, [.stationCallSign, .ownCallSign, .report, .name]),
        (.signalReport, .answer, .signOff, nil, [.stationCallSign, .ownCallSign, .signOff]),
        (.contest, .call, .calling, nil, [.cq, .ownCallSign]),
        (.contest, .call, .answered, 1, [.stationCallSign, .report, .serialNumber]),
        (.contest, .call, .signOff, nil, [.signOff]),
        (.contest, .answer, .calling, nil, [.ownCallSign]),
        (.contest, .answer, .answered, 1, [.report, .serialNumber]),
        (.contest, .answer, .signOff, nil, [.signOff]),
        (.ragChew, .call, .calling, nil, [.cq, .ownCallSign]),
        (.ragChew, .call, .answered, 1, [.stationCallSign, .ownCallSign, .report, .name, .location]),
        (.ragChew, .call, .exchange, 2, [.stationCallSign, .ownCallSign, .rig, .weather]),
        (.ragChew, .call, .signOff, nil, [.stationCallSign, .ownCallSign, .signOff]),
        (.ragChew, .answer, .calling, nil, [.stationCallSign, .ownCallSign]),
        (.ragChew, .answer, .answered, 1, [.stationCallSign, .ownCallSign, .report, .name, .location]),
        (.ragChew, .answer, .exchange, 2, [.stationCallSign, .ownCallSign, .rig, .weather]),
        (.ragChew, .answer, .signOff, nil, [.stationCallSign, .ownCallSign, .signOff]),
    ]

    @Test(arguments: expectations)
    func eachPhaseExpectsItsElements(
        _ style: QSOStyle, _ mode: QSOMode, _ phase: QSOPhase, _ number: Int?, _ elements: [QSOElement]
    ) throws {
        let qso = try scriptedQSO(style, mode).advanced(to: phase, exchangeNumber: number)
        #expect(qso.phase == phase)
        #expect(qso.expected == elements)
        #expect(qso.missing == elements)
    }

    @Test(arguments: expectations)
    func aTransmissionLackingOneElementIsAskedForAgainAndDoesNotAdvance(
        _ style: QSOStyle, _ mode: QSOMode, _ phase: QSOPhase, _ number: Int?, _ elements: [QSOElement]
    ) throws {
        let qso = try scriptedQSO(style, mode).advanced(to: phase, exchangeNumber: number)
        for left in elements {
            let turn = try qso.receiving(transmission(holding: elements.filter { $0 != left }))
            #expect(turn.reply.advanced == false, "without \(left)")
            #expect(turn.reply.missing == [left], "without \(left)")
            #expect(turn.qso.phase == phase, "without \(left)")
            #expect(turn.qso.exchangeNumber == number, "without \(left)")
            #expect(turn.qso.missing == [left], "without \(left)")
            #expect(turn.qso.transcript.suffix(2).map(\.sender) == [.person, .station])
            // Sending only what was missing completes the phase.
            let completed = try turn.qso.receiving(transmission(holding: [left]))
            #expect(completed.reply.advanced, "then \(left) alone")
            #expect(completed.qso.phase != phase || completed.qso.exchangeNumber != number, "then \(left) alone")
        }
    }

    @Test(arguments: expectations)
    func anEmptyOrUnrelatedTransmissionGetsAQuestionMarkAndChangesNothingButTheLog(
        _ style: QSOStyle, _ mode: QSOMode, _ phase: QSOPhase, _ number: Int?, _ elements: [QSOElement]
    ) throws {
        let qso = try scriptedQSO(style, mode).advanced(to: phase, exchangeNumber: number)
        for text in ["", "   ", "HELLO WORLD", "W1AX DE K1ABD", "äöü !!"] {
            let turn = try qso.receiving(text)
            // Answering a CQ, any words at all without the person's call make it ask who called.
            let someoneCalled = mode == .answer && phase == .calling && !QSOTransmission(text).words.isEmpty
            let expectedReply = someoneCalled ? "QRZ?" : "?"
            #expect(turn.reply.text == expectedReply, "\(text)")
            #expect(turn.reply.missing == elements, "\(text)")
            #expect(turn.reply.advanced == false)
            #expect(turn.qso.phase == phase)
            #expect(turn.qso.heard.isEmpty)
            #expect(turn.qso.copied == qso.copied)
        }
    }

    static let repeatRequests: [(QSOStyle, QSOMode, String, String, [QSOElement])] = [
        (.firstContact, .call, "CQ CQ K", "AGN?", [.ownCallSign]),
        (.firstContact, .call, "DE K1ABC K", "AGN?", [.cq]),
        (.firstContact, .answer, "W1AW W1AW K", "QRZ?", [.ownCallSign]),
        (.firstContact, .answer, "K1ABC K", "AGN?", [.stationCallSign]),
        (.signalReport, .answer, "W1AW DE K1ABC NAME JOHN K", "PSE RPT RST?", [.report]),
        (.signalReport, .answer, "W1AW DE K1ABC 599 K", "PSE RPT NAME?", [.name]),
        (.signalReport, .answer, "W1AW K", "PSE RPT RST NAME?", [.ownCallSign, .report, .name]),
        (.ragChew, .answer, "W1AW DE K1ABC RST 599 NAME JOHN", "PSE RPT QTH?", [.location]),
        (.ragChew, .answer, "K1ABC UR 559", "PSE RPT NAME QTH?", [.stationCallSign, .name, .location]),
        (.contest, .answer, "5NN", "NR?", [.serialNumber]),
        (.contest, .answer, "NR 12", "RST?", [.report]),
        (.contest, .call, "CQ TEST", "AGN?", [.ownCallSign]),
    ]

    @Test(arguments: repeatRequests)
    func theStationAsksForWhatIsMissingInTheUsualAbbreviations(
        _ style: QSOStyle, _ mode: QSOMode, _ text: String, _ reply: String, _ missing: [QSOElement]
    ) throws {
        var qso = try scriptedQSO(style, mode)
        if mode == .answer && !text.hasPrefix("W1AW W1AW") && !text.hasPrefix("K1ABC K") {
            qso = try qso.advanced(to: .answered)
        }
        let turn = try qso.receiving(text)
        #expect(turn.reply.text == reply)
        #expect(turn.reply.missing == missing)
        #expect(turn.reply.advanced == false)
    }

    @Test func repeatsAddUpWithinAPhaseSoTheNameAloneCompletesAfterPseRptName() throws {
        var qso = try scriptedQSO(.signalReport, .call).advanced(to: .answered)
        let first = try qso.receive("W1AW DE K1ABC UR RST 559 559 K")
        #expect(first.text == "PSE RPT NAME?")
        #expect(qso.heard == [.stationCallSign, .ownCallSign, .report])
        #expect(qso.copied == QSOCopy(report: SignalReport(text: "559")))
        let second = try qso.receive("NAME JIM JIM")
        #expect(second.advanced)
        #expect(second.text.hasPrefix("K1ABC DE W1AW R FB JIM TNX FER RPT"))
        #expect(qso.copied == QSOCopy(report: SignalReport(text: "559"), name: "JIM"))
        #expect(qso.phase == .signOff)
    }

    @Test func whatTheStationCopiedIsKeptForTheLog() throws {
        var qso = try scriptedQSO(.ragChew, .answer)
        _ = try qso.receive("W1AW DE K1ABC K")
        _ = try qso.receive("W1AW DE K1ABC UR RST 5NN NAME HR IS ANN QTH LYON LYON K")
        _ = try qso.receive("W1AW DE K1ABC RIG KX3 5W WX FOG TEMP 3C K")
        #expect(
            qso.copied
                == QSOCopy(
                    report: SignalReport(text: "599"), name: "ANN", location: "LYON", rig: "KX3 5W",
                    weather: "FOG TEMP 3C"))
        var contest = try scriptedQSO(.contest, .call).advanced(to: .answered)
        _ = try contest.receive("W1AW 5NN 1T4")
        #expect(contest.copied == QSOCopy(report: SignalReport(text: "599"), serialNumber: 104))
    }
}

@Suite("QSO: the person asks the station — AGN?, NR?, RST?, NAME?, QTH?, QRS, QRQ")
struct QSORequestTests {
    static func contact(_ style: QSOStyle, _ mode: QSOMode) throws -> QSO {
        var generator = SeededRandomNumberGenerator(seed: 4)
        return try QSO(style: style, mode: mode, ownCallSign: "K1ABC", using: &generator)
    }

    @Test func agnRepeatsTheStationsLastTransmissionWithoutMovingOn() throws {
        var qso = try Self.contact(.ragChew, .answer)
        let opening = try #require(qso.transcript.last?.text)
        for asking in ["AGN?", "?", "PSE AGN", "\(qso.station.callSign.text) DE K1ABC AGN? K", "rpt?"] {
            let reply = try qso.receive(asking)
            #expect(reply.text == opening, "\(asking)")
            #expect(reply.request == .again)
            #expect(!reply.advanced)
            #expect(qso.phase == .calling)
        }
        // Its part, after all those questions, still moves the contact on.
        let call = qso.station.callSign.text
        #expect(try qso.receive("\(call) DE K1ABC K").advanced)
    }

    @Test func theStationRepeatsTheFieldAskedFor() throws {
        var contest = try Self.contact(.contest, .answer)
        let station = contest.station
        #expect(try contest.receive("NR?").text == "NR \(station.serialNumberText) \(station.serialNumberText)")
        #expect(try contest.receive("RST?").text == "UR RST \(station.report.text) \(station.report.text)")
        var chat = try Self.contact(.ragChew, .answer)
        #expect(try chat.receive("NAME?").text == "NAME \(chat.station.name) \(chat.station.name)")
        #expect(try chat.receive("PSE QTH?").text == "QTH \(chat.station.location) \(chat.station.location)")
        #expect(try chat.receive("NR?").request == .number)
    }

    @Test func qrsSlowsTheStationAndQrqSpeedsItUpAgain() throws {
        var qso = try Self.contact(.firstContact, .answer)
        let course = try MorseTiming(characterWPM: 20, effectiveWPM: 13)
        let opening = try #require(qso.transcript.last?.text)
        let reply = try qso.receive("QRS PSE")
        #expect(reply.text == "QRS \(opening)")
        #expect(reply.request == .slower)
        #expect(qso.stationTiming(from: course).characterWPM == 15)
        #expect(qso.stationTiming(from: course).effectiveWPM == 13)
        _ = try qso.receive("QRS")
        #expect(qso.stationTiming(from: course).characterWPM == 10)
        #expect(qso.stationTiming(from: course).effectiveWPM == 10)
        for _ in 0..<20 { _ = try qso.receive("QRS") }
        #expect(qso.stationTiming(from: course).characterWPM == 5)
        #expect(qso.stationSlowdown == QSORequest.slowdownLimit)
        _ = try qso.receive("QRQ")
        #expect(qso.stationSlowdown == QSORequest.slowdownLimit - 1)
        // The slowdown is kept with the contact.
        let decoded = try JSONDecoder().decode(QSO.self, from: JSONEncoder().encode(qso))
        #expect(decoded == qso)
    }

    @Test func aTransmissionWithItsPartIsNoRequestAndNothingToRepeatIsNone() throws {
        var qso = try Self.contact(.firstContact, .answer)
        let call = qso.station.callSign.text
        let reply = try qso.receive("\(call) DE K1ABC K1ABC UR 599 QTH? K")
        #expect(reply.request == nil)
        #expect(reply.advanced)
        // Calling CQ, the station has sent nothing yet: AGN? is read as a (poor) transmission.
        var calling = try Self.contact(.firstContact, .call)
        let first = try calling.receive("AGN?")
        #expect(first.request == nil)
        #expect(!first.advanced)
    }
}
