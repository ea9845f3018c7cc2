// The wire form of a contact, for a server that keeps it in memory and a browser that shows it:
// the phase and the exchange number spelled out, with `expected` and `missing` so a front end
// need not know the rules. Decoding reads the stored fields only and rejects a phase or exchange
// number the style does not have.

extension QSO: Codable {
    private enum CodingKeys: String, CodingKey {
        case style, mode, ownCallSign, station, phase, exchangeNumber, expected, missing, heard, copied
        case transcript, stationSlowdown
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let style = try container.decode(QSOStyle.self, forKey: .style)
        let ownCallSign = try container.decode(CallSign.self, forKey: .ownCallSign)
        let station = try container.decode(VirtualStation.self, forKey: .station)
        guard station.callSign != ownCallSign else {
            throw DecodingError.dataCorruptedError(
                forKey: .station, in: container, debugDescription: "the station has the person's call sign")
        }
        let phase = try container.decode(QSOPhase.self, forKey: .phase)
        let exchangeNumber = try container.decodeIfPresent(Int.self, forKey: .exchangeNumber)
        guard let step = Self.step(of: phase, exchangeNumber: exchangeNumber, exchanges: style.exchanges.count) else {
            throw DecodingError.dataCorruptedError(
                forKey: .exchangeNumber, in: container,
                debugDescription: "\(phase) with exchange \(exchangeNumber.map(String.init) ?? "none") is not a step")
        }
        self.init(
            style: style, mode: try container.decode(QSOMode.self, forKey: .mode), ownCallSign: ownCallSign,
            station: station, step: step, heard: try container.decode([QSOElement].self, forKey: .heard).sorted(),
            copied: try container.decode(QSOCopy.self, forKey: .copied),
            transcript: try container.decode([QSOLine].self, forKey: .transcript),
            // Contacts kept before QRS existed have none.
            stationSlowdown: try container.decodeIfPresent(Int.self, forKey: .stationSlowdown) ?? 0)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(style, forKey: .style)
        try container.encode(mode, forKey: .mode)
        try container.encode(ownCallSign, forKey: .ownCallSign)
        try container.encode(station, forKey: .station)
        try container.encode(phase, forKey: .phase)
        try container.encodeIfPresent(exchangeNumber, forKey: .exchangeNumber)
        try container.encode(expected, forKey: .expected)
        try container.encode(missing, forKey: .missing)
        try container.encode(heard, forKey: .heard)
        try container.encode(copied, forKey: .copied)
        try container.encode(transcript, forKey: .transcript)
        // Only once asked: a contact without a QRS reads as it always did.
        if stationSlowdown > 0 { try container.encode(stationSlowdown, forKey: .stationSlowdown) }
    }

    /// The step of `phase`, or `nil` when the exchange number does not fit it.
    private static func step(of phase: QSOPhase, exchangeNumber: Int?, exchanges: Int) -> Int? {
        switch (phase, exchangeNumber) {
        case (.calling, nil): 0
        case (.answered, 1?), (.answered, nil): 1
        case (.exchange, let number?) where number >= 2 && number <= exchanges: number
        case (.signOff, nil): exchanges + 1
        case (.done, nil): exchanges + 2
        default: nil
        }
    }
}
