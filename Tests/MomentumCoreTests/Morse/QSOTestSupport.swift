import MomentumCore
import Testing

/// The station of the scripted contacts: the ARRL's W1AW, Bob in Boston, giving 579.
func scriptedStation() throws -> VirtualStation {
    VirtualStation(
        callSign: try CallSign("W1AW"), name: "BOB", location: "BOSTON MA", rig: "IC7300", power: 100,
        antenna: "DIPOLE", weather: "SUNNY", temperature: 20, report: try #require(SignalReport(text: "579")),
        serialNumber: 42)
}

/// A contact of K1ABC with ``scriptedStation()``.
func scriptedQSO(_ style: QSOStyle, _ mode: QSOMode) throws -> QSO {
    try QSO(style: style, mode: mode, ownCallSign: "K1ABC", station: try scriptedStation())
}

/// A transmission holding exactly `elements` of a contact of K1ABC with W1AW, in the usual order.
func transmission(holding elements: [QSOElement]) -> String {
    let fragments: [QSOElement: String] = [
        .cq: "CQ CQ", .stationCallSign: "W1AW", .ownCallSign: "DE K1ABC", .report: "UR RST 5NN",
        .serialNumber: "NR 007", .name: "NAME JOHN", .location: "QTH PARIS", .rig: "RIG IC7300",
        .weather: "WX SUNNY", .signOff: "73 <SK>",
    ]
    return (elements.sorted().compactMap { fragments[$0] } + ["K"]).joined(separator: " ")
}

extension QSO {
    /// The contact walked forward with complete transmissions until it reaches `phase`
    /// (`exchangeNumber` picks one of several exchanges).
    func advanced(to phase: QSOPhase, exchangeNumber: Int? = nil) throws -> QSO {
        var qso = self
        for _ in 0..<8 where qso.phase != phase || (exchangeNumber != nil && qso.exchangeNumber != exchangeNumber) {
            _ = try qso.receive(transmission(holding: qso.expected))
        }
        return qso
    }
}
