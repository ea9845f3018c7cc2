// The wire form of a timeline: offsets and durations in whole milliseconds, as the browser and
// the `--plan` output read them.
//
// Besides the timeline itself it carries what a player needs and should not work out again:
// `leadInMs`, the opening countdown that is not practice (``Timeline/leadIn``), `scheduledCues`, every cue with a sound in order, repeating ones expanded (through the end, or
// ``Timeline/scheduleHorizon`` for an open-ended sit), and `ambientFadeMs` when there is a bed.
// Both are derived, so decoding ignores them.

extension Timeline: Codable {
    /// How far ahead the cues of an open-ended timeline are listed for a player.
    public static let scheduleHorizon: Duration = .seconds(24 * 3600)

    private enum CodingKeys: String, CodingKey {
        case practice, totalMs, leadInMs, segments, cues, repeatingCues, ambient, scheduledCues, ambientFadeMs
    }

    /// A cue as a player schedules it.
    private struct ScheduledCue: Encodable {
        var offsetMs: Int64
        var sound: CueSound
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        do {
            try self.init(
                practice: container.decode(PracticeKind.self, forKey: .practice),
                segments: container.decode([Segment].self, forKey: .segments),
                cues: container.decodeIfPresent([Cue].self, forKey: .cues) ?? [],
                repeatingCues: container.decodeIfPresent([RepeatingCue].self, forKey: .repeatingCues) ?? [],
                ambient: container.decodeIfPresent(AmbientChoice.self, forKey: .ambient)
            )
        } catch let error as TimelineError {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "Not a valid timeline: \(error)")
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(practice, forKey: .practice)
        try container.encode(totalDuration?.wholeMilliseconds, forKey: .totalMs)
        try container.encode(leadIn.wholeMilliseconds, forKey: .leadInMs)
        try container.encode(segments, forKey: .segments)
        try container.encode(cues, forKey: .cues)
        try container.encode(repeatingCues, forKey: .repeatingCues)
        try container.encodeIfPresent(ambient, forKey: .ambient)
        let through = totalDuration ?? Self.scheduleHorizon
        let scheduled = cues(after: .zero, includingLower: true, through: through).compactMap { cue in
            cue.sound.map { ScheduledCue(offsetMs: cue.offset.wholeMilliseconds, sound: $0) }
        }
        try container.encode(scheduled, forKey: .scheduledCues)
        if ambient != nil { try container.encode(AmbientChoice.fade.wholeMilliseconds, forKey: .ambientFadeMs) }
    }
}

extension Segment: Codable {
    private enum CodingKeys: String, CodingKey { case kind, startMs, durationMs, detail }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            kind: try container.decode(SegmentKind.self, forKey: .kind),
            start: .milliseconds(try container.decode(Int64.self, forKey: .startMs)),
            duration: try container.decodeIfPresent(Int64.self, forKey: .durationMs).map { .milliseconds($0) },
            detail: try container.decodeIfPresent(SegmentDetail.self, forKey: .detail)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(start.wholeMilliseconds, forKey: .startMs)
        try container.encode(duration?.wholeMilliseconds, forKey: .durationMs)
        try container.encodeIfPresent(detail, forKey: .detail)
    }
}

extension Cue: Codable {
    private enum CodingKeys: String, CodingKey { case offsetMs, sound, text }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            offset: .milliseconds(try container.decode(Int64.self, forKey: .offsetMs)),
            sound: try container.decodeIfPresent(CueSound.self, forKey: .sound),
            text: try container.decodeIfPresent(LocalizedText.self, forKey: .text)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(offset.wholeMilliseconds, forKey: .offsetMs)
        try container.encodeIfPresent(sound, forKey: .sound)
        try container.encodeIfPresent(text, forKey: .text)
    }
}

extension RepeatingCue: Codable {
    private enum CodingKeys: String, CodingKey { case firstMs, intervalMs, untilMs, sound }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            first: .milliseconds(try container.decode(Int64.self, forKey: .firstMs)),
            interval: .milliseconds(try container.decode(Int64.self, forKey: .intervalMs)),
            until: try container.decodeIfPresent(Int64.self, forKey: .untilMs).map { .milliseconds($0) },
            sound: try container.decodeIfPresent(CueSound.self, forKey: .sound)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(first.wholeMilliseconds, forKey: .firstMs)
        try container.encode(interval.wholeMilliseconds, forKey: .intervalMs)
        try container.encode(until?.wholeMilliseconds, forKey: .untilMs)
        try container.encodeIfPresent(sound, forKey: .sound)
    }
}
