/// What the virtual station sends, in the usual CW abbreviations.
extension QSO {
    /// The station's reply to the transmission that completed the current phase.
    func replyCompletingPhase() -> String {
        let person = ownCallSign.text
        let call = station.callSign.text
        let exchanges = style.exchanges.count
        let over = "\(person) DE \(call)"
        let greeting = copied.name.map { "FB \($0) " } ?? ""
        switch (mode, step) {
        case (.call, 0):
            // Answering a CQ: a contest station gives only its call.
            return style == .contest ? call : "\(over) \(call) K"
        case (.answer, 0):
            if style == .contest { return "\(person) 5NN \(station.serialNumberText)" }
            return "\(over) TNX FER CALL \(exchange(0)) HW? \(over) KN"
        case (.call, 1...exchanges):
            if style == .contest { return "TU 5NN \(station.serialNumberText)" }
            let thanks = step == 1 ? "TNX FER RPT " : ""
            return "\(over) R \(greeting)\(thanks)\(exchange(step - 1)) \(over) KN"
        case (.answer, 1..<exchanges):
            return "\(over) R \(greeting)\(exchange(step)) HW? \(over) KN"
        case (.answer, exchanges):
            // The station ends its side; the person's 73 closes the contact.
            if style == .contest { return "TU 73 \(call)" }
            return "R \(greeting)TNX FER QSO 73 \(over) <SK>"
        default:
            // The person's sign-off: when the person called, the station signs off in turn;
            // when the station called, it has signed off already and sends the friendly "dit dit".
            return mode == .call && style != .contest ? "R TU 73 \(over) <SK>" : "E E"
        }
    }

    /// The station's part of exchange `round` (from 0), without call signs.
    private func exchange(_ round: Int) -> String {
        guard round == 0 else {
            return "RIG HR \(station.rigText) WX \(station.weatherText)"
        }
        let report = "UR RST \(station.report.text) \(station.report.text)"
        let name = " NAME \(station.name) \(station.name)"
        let location = " QTH \(station.location) \(station.location)"
        switch style {
        case .firstContact, .contest: return report
        case .signalReport: return report + name
        case .ragChew: return report + name + location
        }
    }

    /// How the station asks again for what is `missing`.
    ///
    /// `QRZ?` ("who is calling me?") when an answer to its CQ lacked the person's call; `?` when
    /// nothing it listened for was in the transmission; `PSE RPT RST NAME?` (in a contest just
    /// `NR?`) for missing exchange fields; `AGN?` for a missing call sign, `CQ` or sign-off.
    func repeatRequest(for missing: [QSOElement], foundNothing: Bool, transmission: QSOTransmission) -> String {
        if mode == .answer, phase == .calling, missing.contains(.ownCallSign), !transmission.words.isEmpty {
            return "QRZ?"
        }
        if foundNothing { return "?" }
        let fields = missing.compactMap(\.requestWord).joined(separator: " ")
        if fields.isEmpty { return "AGN?" }
        return style == .contest ? "\(fields)?" : "PSE RPT \(fields)?"
    }
}
