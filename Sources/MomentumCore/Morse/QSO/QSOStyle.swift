/// What a QSO is about: how much the two stations tell each other.
public enum QSOStyle: String, Sendable, Hashable, Codable, CaseIterable {
    /// Call signs and signal reports only.
    case firstContact
    /// Call signs, reports and names.
    case signalReport
    /// A contest exchange: the report (always `5NN`) and a serial number, nothing more.
    case contest
    /// A chat over several exchanges: report, name and town, then rig and weather.
    case ragChew

    /// What the person's exchanges must hold, one set per exchange, in order.
    ///
    /// Only the exchange fields are listed; which call signs must be sent as well depends on the
    /// mode (see ``QSO/expected``).
    public var exchanges: [[QSOElement]] {
        switch self {
        case .firstContact: [[.report]]
        case .signalReport: [[.report, .name]]
        case .contest: [[.report, .serialNumber]]
        case .ragChew: [[.report, .name, .location], [.rig, .weather]]
        }
    }
}

/// Who calls CQ.
public enum QSOMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// The person calls CQ and the virtual station answers.
    case call
    /// The virtual station calls CQ and the person answers.
    case answer
}

/// A part of a transmission the station listens for; the ones missing from a transmission are
/// listed in ``QSOReply/missing`` so a front end can show a hint.
///
/// The cases are in the order a hint lists them.
public enum QSOElement: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// `CQ`, when the person calls.
    case cq
    /// The other station's call sign.
    case stationCallSign
    /// The person's own call sign.
    case ownCallSign
    /// An RST report: three digits, `5NN` accepted.
    case report
    /// A contest serial number.
    case serialNumber
    /// The person's name, after `NAME` or `OP`.
    case name
    /// The person's town, after `QTH`.
    case location
    /// The person's rig, after `RIG`.
    case rig
    /// The person's weather, after `WX`.
    case weather
    /// `73` or `SK` (in a contest also `TU`), to end the contact.
    case signOff

    public static func < (lhs: QSOElement, rhs: QSOElement) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }

    /// How the station asks for this element again: `RST`, `NR`, `NAME`, `QTH`, `RIG`, `WX`;
    /// `nil` for call signs, `CQ` and the sign-off, which are asked for with `AGN?`.
    var requestWord: String? {
        switch self {
        case .report: "RST"
        case .serialNumber: "NR"
        case .name: "NAME"
        case .location: "QTH"
        case .rig: "RIG"
        case .weather: "WX"
        case .cq, .stationCallSign, .ownCallSign, .signOff: nil
        }
    }
}

/// Where a contact stands: what the person sends next.
public enum QSOPhase: String, Sendable, Hashable, Codable, CaseIterable {
    /// Calling: the person calls CQ (mode ``QSOMode/call``) or answers the station's CQ
    /// (``QSOMode/answer``).
    case calling
    /// The CQ has been answered; the person sends the first exchange.
    case answered
    /// The person sends a further exchange (a rag chew's second one).
    case exchange
    /// The exchanges are done; the person sends `73` / `SK`.
    case signOff
    /// The contact is over; nothing more can be sent.
    case done
}
