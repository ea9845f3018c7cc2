// The stored and wire form of a plan: durations in whole milliseconds, interval gongs spelled out.

extension MeditationPlan: Codable {
    private enum CodingKeys: String, CodingKey {
        case durationMs, countdownMs, intervalGongs, reflectionMs, ambientID, ambientVolume, isOpenEnded
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = MeditationPlan()
        func duration(_ key: CodingKeys, _ fallback: Duration) throws -> Duration {
            try container.decodeIfPresent(Int64.self, forKey: key).map { .milliseconds($0) } ?? fallback
        }
        self.init(
            duration: try duration(.durationMs, defaults.duration),
            countdown: try duration(.countdownMs, defaults.countdown),
            intervalGongs: try container.decodeIfPresent(IntervalGongs.self, forKey: .intervalGongs) ?? .off,
            reflection: try duration(.reflectionMs, defaults.reflection),
            ambientID: try container.decodeIfPresent(String.self, forKey: .ambientID) ?? defaults.ambientID,
            ambientVolume: try container.decodeIfPresent(Double.self, forKey: .ambientVolume) ?? defaults.ambientVolume,
            isOpenEnded: try container.decodeIfPresent(Bool.self, forKey: .isOpenEnded) ?? false
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(duration.wholeMilliseconds, forKey: .durationMs)
        try container.encode(countdown.wholeMilliseconds, forKey: .countdownMs)
        try container.encode(intervalGongs, forKey: .intervalGongs)
        try container.encode(reflection.wholeMilliseconds, forKey: .reflectionMs)
        try container.encode(ambientID, forKey: .ambientID)
        try container.encode(ambientVolume, forKey: .ambientVolume)
        try container.encode(isOpenEnded, forKey: .isOpenEnded)
    }
}

extension IntervalGongs: Codable {
    private enum CodingKeys: String, CodingKey { case mode, minutes, offsetsMs }
    private enum Mode: String, Codable { case off, every, offsets }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Mode.self, forKey: .mode) {
        case .off: self = .off
        case .every: self = .every(minutes: try container.decode(Int.self, forKey: .minutes))
        case .offsets:
            self = .offsets(try container.decode([Int64].self, forKey: .offsetsMs).map { .milliseconds($0) })
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .off:
            try container.encode(Mode.off, forKey: .mode)
        case .every(let minutes):
            try container.encode(Mode.every, forKey: .mode)
            try container.encode(minutes, forKey: .minutes)
        case .offsets(let offsets):
            try container.encode(Mode.offsets, forKey: .mode)
            try container.encode(offsets.map(\.wholeMilliseconds), forKey: .offsetsMs)
        }
    }
}
