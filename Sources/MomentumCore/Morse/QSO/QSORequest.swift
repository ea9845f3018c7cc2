/// What the person may ask the station instead of sending their part, as on the air: `AGN?` (or
/// a lone `?`, `RPT?`) for its last transmission again, `QRS` to send slower, `QRQ` faster, and
/// one part of its exchange again: `NR?`, `RST?`, `NAME?`, `QTH?`.
///
/// A request is a transmission of nothing else but call signs, `DE`, `PSE` and an end (`K`,
/// `KN`, `BK`): `W1AW DE K1ABC AGN? K` asks; `W1AW DE K1ABC UR RST 599 QTH?` does not (it is the
/// person's part, and the station answers it as such).
public enum QSORequest: String, Sendable, Hashable, Codable, CaseIterable {
    case again
    case slower
    case faster
    case number
    case report
    case name
    case location

    /// How much slower each `QRS` makes the station, in words per minute.
    public static let speedStep = 5.0
    /// More `QRS`s than this change nothing: 60 wpm, the fastest course, is 5 wpm after 11.
    public static let slowdownLimit = 11

    /// The request `transmission` makes of a contact between `person` and `station`, if any.
    static func made(in transmission: QSOTransmission, text: String, person: CallSign, station: CallSign)
        -> QSORequest?
    {
        let filler: Set<String> = ["DE", "PSE", "K", "KN", "BK", "R"]
        let words = transmission.words.filter {
            !filler.contains($0) && $0 != person.text && $0 != station.text
        }
        let asks = text.contains("?")
        switch (words, asks) {
        case ([], true), (["AGN"], _), (["RPT"], true): return .again
        case (["QRS"], _): return .slower
        case (["QRQ"], _): return .faster
        case (["NR"], true): return .number
        case (["RST"], true): return .report
        case (["NAME"], true), (["NM"], true), (["OP"], true): return .name
        case (["QTH"], true): return .location
        default: return nil
        }
    }
}

extension QSO {
    /// The station's answer to `request`, and the contact after it: the phase does not move,
    /// `QRS`/`QRQ` change ``stationSlowdown``. `nil` when there is nothing to answer yet (the
    /// station has sent nothing), so the transmission is read as the person's part instead.
    func answering(_ request: QSORequest) -> (reply: String, slowdown: Int)? {
        guard let last = transcript.last(where: { $0.sender == .station })?.text else { return nil }
        let twice = { (text: String) in "\(text) \(text)" }
        switch request {
        case .again: return (last, stationSlowdown)
        case .slower: return ("QRS \(last)", min(QSORequest.slowdownLimit, stationSlowdown + 1))
        case .faster: return ("QRQ \(last)", max(0, stationSlowdown - 1))
        case .number:
            return style == .contest
                ? ("NR \(twice(station.serialNumberText))", stationSlowdown) : (last, stationSlowdown)
        case .report: return ("UR RST \(twice(station.report.text))", stationSlowdown)
        case .name: return ("NAME \(twice(station.name))", stationSlowdown)
        case .location: return ("QTH \(twice(station.location))", stationSlowdown)
        }
    }

    /// The station's timing: the course's, `QSORequest.speedStep` slower for each `QRS` it was
    /// asked (and not undone by a `QRQ`), never below the slowest speed Morse is taught at.
    public func stationTiming(from timing: MorseTiming) -> MorseTiming {
        guard stationSlowdown > 0 else { return timing }
        let slowest = MorseTiming.characterSpeedBounds.lowerBound
        let character = max(slowest, timing.characterWPM - QSORequest.speedStep * Double(stationSlowdown))
        let effective = min(timing.effectiveWPM, character)
        // try?: both speeds are within bounds by construction; the course's timing stays otherwise.
        let slower = try? MorseTiming(
            characterWPM: character, effectiveWPM: effective, extraWordSpace: timing.extraWordSpace)
        return slower ?? timing
    }
}
