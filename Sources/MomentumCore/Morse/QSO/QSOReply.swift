/// The station's answer to one transmission of the person.
public struct QSOReply: Sendable, Hashable, Codable {
    /// What the station sends back, to be keyed in Morse: `K1ABC DE W1AW W1AW K`, `PSE RPT RST?`.
    /// Never empty; prosigns are written `<SK>`.
    public let text: String
    /// Whether the transmission was complete, so the contact moved on to its next phase.
    public let advanced: Bool
    /// What the station still needs before the contact can move on, in hint order; empty when
    /// it advanced.
    public let missing: [QSOElement]
    /// Characters of the transmission with no Morse code, read as spaces (see
    /// ``QSOTransmission/ignoredCharacters``).
    public let ignoredCharacters: [String]
    /// What the person asked instead of sending their part (`AGN?`, `QRS` …), which this reply
    /// answers; `nil` for an ordinary transmission.
    public let request: QSORequest?

    public init(
        text: String, advanced: Bool, missing: [QSOElement], ignoredCharacters: [String], request: QSORequest? = nil
    ) {
        self.text = text
        self.advanced = advanced
        self.missing = missing
        self.ignoredCharacters = ignoredCharacters
        self.request = request
    }
}

/// A transmission's outcome: the contact after it and the station's reply.
public struct QSOTurn: Sendable, Hashable, Codable {
    public let qso: QSO
    public let reply: QSOReply
}

/// One line of a contact's log: who sent what.
public struct QSOLine: Sendable, Hashable, Codable {
    /// Who sent a line.
    public enum Sender: String, Sendable, Hashable, Codable {
        case person
        case station
    }

    public let sender: Sender
    /// The text as sent: the person's as typed or decoded, the station's as it is keyed.
    public let text: String

    public init(sender: Sender, text: String) {
        self.sender = sender
        self.text = text
    }
}

/// What the station has copied of the person's details so far; the station's replies use them
/// (`FB JOHN`), and a front end can show them in a log.
public struct QSOCopy: Sendable, Hashable, Codable {
    public var report: SignalReport?
    public var serialNumber: Int?
    public var name: String?
    public var location: String?
    public var rig: String?
    public var weather: String?

    public init(
        report: SignalReport? = nil, serialNumber: Int? = nil, name: String? = nil, location: String? = nil,
        rig: String? = nil, weather: String? = nil
    ) {
        self.report = report
        self.serialNumber = serialNumber
        self.name = name
        self.location = location
        self.rig = rig
        self.weather = weather
    }
}
