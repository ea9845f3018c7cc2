/// A simulated on-air contact (a QSO) with a virtual station, as a value.
///
/// The contact goes calling → answered → further exchanges (a rag chew has two) → sign-off →
/// done. Each transmission of the person — text already typed or decoded — gives the contact
/// after it and the station's reply, to be keyed in Morse by the caller. A complete
/// transmission moves the contact on; an incomplete one leaves the phase where it was, and the
/// station asks for a repeat (`AGN?`, `PSE RPT RST?`, `QRZ?`, `?`) while ``QSOReply/missing``
/// names what was missing. Elements heard in an incomplete transmission count, so after
/// `PSE RPT NAME?` the name alone is enough.
///
/// ```swift
/// var generator = SeededRandomNumberGenerator(seed: 1)
/// var qso = try QSO(style: .firstContact, mode: .call, ownCallSign: "K1ABC", using: &generator)
/// let call = qso.station.callSign.text            // "NI9LTW"
/// try qso.receive("CQ CQ DE K1ABC K1ABC K").text  // "K1ABC DE NI9LTW NI9LTW K"; qso.phase == .answered
/// try qso.receive("\(call) DE K1ABC K")           // text "PSE RPT RST?", missing [.report]
/// ```
///
/// What each transmission must hold is ``expected``: the calling transmission needs `CQ` and the
/// person's call (or, answering, both calls); outside contests every later one names both
/// stations (`W1AW DE K1ABC`); a contest needs only the exchange (and, when the person runs the
/// frequency, the other call), and `TU` is a sign-off there.
public struct QSO: Sendable, Hashable {
    public let style: QSOStyle
    public let mode: QSOMode
    public let ownCallSign: CallSign
    public let station: VirtualStation
    /// 0 calling, 1 … n the n-th exchange, then sign-off, then done.
    private(set) var step: Int
    /// The elements of ``expected`` heard since this phase began, in hint order.
    public private(set) var heard: [QSOElement]
    /// The person's details the station has copied.
    public private(set) var copied: QSOCopy
    /// Every transmission so far, the station's opening CQ first when it calls.
    public private(set) var transcript: [QSOLine]
    /// How many times the person asked the station to send slower (`QRS`), less the `QRQ`s.
    public private(set) var stationSlowdown: Int

    /// The longest transmission taken, in characters: a long over is about 200.
    public static let maximumTransmissionLength = 500

    /// A contact of the person, signing `ownCallSign`, with `station`.
    ///
    /// - Throws: ``QSOError/noOwnCallSign`` when `ownCallSign` is `nil` or blank,
    ///   ``QSOError/invalidOwnCallSign(_:)`` when it is not a call sign, and
    ///   ``QSOError/stationHasOwnCallSign(_:)`` when the station signs the same.
    public init(style: QSOStyle, mode: QSOMode, ownCallSign: String?, station: VirtualStation) throws(QSOError) {
        let callSign = try Self.ownCallSign(ownCallSign)
        guard station.callSign != callSign else { throw .stationHasOwnCallSign(callSign) }
        self.init(style: style, mode: mode, ownCallSign: callSign, station: station)
    }

    /// A contact with a station drawn from `generator` (see
    /// ``VirtualStation/random(avoiding:using:)``); the same seed gives the same contact.
    ///
    /// - Throws: ``QSOError/noOwnCallSign`` or ``QSOError/invalidOwnCallSign(_:)``.
    public init(
        style: QSOStyle, mode: QSOMode, ownCallSign: String?, using generator: inout some RandomNumberGenerator
    ) throws(QSOError) {
        let callSign = try Self.ownCallSign(ownCallSign)
        let station = VirtualStation.random(avoiding: callSign, using: &generator)
        self.init(style: style, mode: mode, ownCallSign: callSign, station: station)
    }

    private init(style: QSOStyle, mode: QSOMode, ownCallSign: CallSign, station: VirtualStation) {
        self.init(
            style: style, mode: mode, ownCallSign: ownCallSign, station: station, step: 0, heard: [],
            copied: QSOCopy(), transcript: [])
        if let opening = openingText { transcript = [QSOLine(sender: .station, text: opening)] }
    }

    init(
        style: QSOStyle, mode: QSOMode, ownCallSign: CallSign, station: VirtualStation, step: Int,
        heard: [QSOElement], copied: QSOCopy, transcript: [QSOLine], stationSlowdown: Int = 0
    ) {
        self.style = style
        self.mode = mode
        self.ownCallSign = ownCallSign
        self.station = station
        self.step = step
        self.heard = heard
        self.copied = copied
        self.transcript = transcript
        self.stationSlowdown = min(QSORequest.slowdownLimit, max(0, stationSlowdown))
    }

    private static func ownCallSign(_ text: String?) throws(QSOError) -> CallSign {
        guard let text, text.contains(where: { !$0.isWhitespace }) else { throw .noOwnCallSign }
        do {
            return try CallSign(text)
        } catch {
            throw .invalidOwnCallSign(error)
        }
    }

    /// The station's CQ that opens the contact when the person answers (`CQ CQ CQ DE W1AW W1AW K`);
    /// `nil` when the person calls.
    public var openingText: String? {
        guard mode == .answer else { return nil }
        let call = station.callSign.text
        return style == .contest ? "CQ TEST \(call) \(call)" : "CQ CQ CQ DE \(call) \(call) K"
    }

    /// Where the contact stands.
    public var phase: QSOPhase {
        let exchanges = style.exchanges.count
        if step == 0 { return .calling }
        if step == 1 { return .answered }
        if step <= exchanges { return .exchange }
        return step == exchanges + 1 ? .signOff : .done
    }

    /// The exchange the person sends next, from 1, in phases ``QSOPhase/answered`` and
    /// ``QSOPhase/exchange``; `nil` otherwise.
    public var exchangeNumber: Int? {
        (1...style.exchanges.count).contains(step) ? step : nil
    }

    /// What the person's next transmission must hold, in hint order; empty when done.
    public var expected: [QSOElement] {
        let bothCalls: [QSOElement] = [.stationCallSign, .ownCallSign]
        switch phase {
        case .calling:
            if mode == .call { return [.cq, .ownCallSign] }
            return style == .contest ? [.ownCallSign] : bothCalls
        case .answered, .exchange:
            let calls: [QSOElement] = style != .contest ? bothCalls : mode == .call ? [.stationCallSign] : []
            return (calls + style.exchanges[step - 1]).sorted()
        case .signOff:
            return style == .contest ? [.signOff] : bothCalls + [.signOff]
        case .done:
            return []
        }
    }

    /// What of ``expected`` has not been heard yet in this phase.
    public var missing: [QSOElement] {
        expected.filter { !heard.contains($0) }
    }

    /// The contact after the person sent `text`, with the station's reply.
    ///
    /// - Throws: ``QSOError/contactIsOver`` when the contact is done, and
    ///   ``QSOError/transmissionTooLong(characterCount:)``. Nothing else: any text, however
    ///   wrong, gets a reply.
    public func receiving(_ text: String) throws(QSOError) -> QSOTurn {
        guard phase != .done else { throw .contactIsOver }
        let count = text.count
        guard count <= Self.maximumTransmissionLength else { throw .transmissionTooLong(characterCount: count) }
        let transmission = QSOTransmission(text)
        var next = self
        next.transcript.append(QSOLine(sender: .person, text: text))
        if let request = QSORequest.made(
            in: transmission, text: text, person: ownCallSign, station: station.callSign),
            let (reply, slowdown) = answering(request)
        {
            next.stationSlowdown = slowdown
            next.transcript.append(QSOLine(sender: .station, text: reply))
            return QSOTurn(
                qso: next,
                reply: QSOReply(
                    text: reply, advanced: false, missing: missing, ignoredCharacters: transmission.ignoredCharacters,
                    request: request))
        }
        let found = expected.filter { isPresent($0, in: transmission) }
        next.copy(found, from: transmission)
        next.heard = Set(heard + found).sorted()
        let missing = next.missing
        let reply: String
        if missing.isEmpty {
            reply = next.replyCompletingPhase()
            next.step += 1
            next.heard = []
        } else {
            reply = repeatRequest(for: missing, foundNothing: found.isEmpty, transmission: transmission)
        }
        next.transcript.append(QSOLine(sender: .station, text: reply))
        return QSOTurn(
            qso: next,
            reply: QSOReply(
                text: reply, advanced: missing.isEmpty, missing: missing,
                ignoredCharacters: transmission.ignoredCharacters))
    }

    /// Takes the person's transmission `text` and returns the station's reply (see
    /// ``receiving(_:)``).
    public mutating func receive(_ text: String) throws(QSOError) -> QSOReply {
        let turn = try receiving(text)
        self = turn.qso
        return turn.reply
    }

    private func isPresent(_ element: QSOElement, in transmission: QSOTransmission) -> Bool {
        switch element {
        case .cq: transmission.containsCQ
        case .stationCallSign: transmission.contains(station.callSign)
        case .ownCallSign: transmission.contains(ownCallSign)
        case .report: transmission.report != nil
        case .serialNumber: transmission.serialNumber != nil
        case .name: transmission.name != nil
        case .location: transmission.location != nil
        case .rig: transmission.rig != nil
        case .weather: transmission.weather != nil
        case .signOff: transmission.containsSignOff(in: style)
        }
    }

    private mutating func copy(_ elements: [QSOElement], from transmission: QSOTransmission) {
        for element in elements {
            switch element {
            case .report: copied.report = transmission.report
            case .serialNumber: copied.serialNumber = transmission.serialNumber
            case .name: copied.name = transmission.name
            case .location: copied.location = transmission.location
            case .rig: copied.rig = transmission.rig
            case .weather: copied.weather = transmission.weather
            case .cq, .stationCallSign, .ownCallSign, .signOff: break
            }
        }
    }
}
