extension MeditationPlan {
    /// Compiles the plan into the timeline every player plays.
    ///
    /// Countdown, then the meditation (start gong at its beginning), then an optional reflection
    /// (phase gong), then the end gong. Interval gongs sound only inside the meditation segment:
    /// never at its start, never at or after its end.
    public func timeline(ambientCatalog: AmbientCatalog = .builtIn) throws(MeditationPlanError) -> Timeline {
        try validate(ambientCatalog: ambientCatalog)
        var segments: [Segment] = []
        if countdown > .zero {
            segments.append(Segment(kind: .countdown, start: .zero, duration: countdown))
        }
        let meditationStart = countdown
        var cues = [Cue(offset: meditationStart, sound: .startGong)]
        var repeatingCues: [RepeatingCue] = []

        if isOpenEnded {
            segments.append(Segment(kind: .meditation, start: meditationStart, duration: nil))
            switch intervalGongs {
            case .off: break
            case .every(let minutes):
                let interval = Duration.minutes(minutes)
                repeatingCues.append(
                    RepeatingCue(
                        first: meditationStart + interval, interval: interval, until: nil, sound: .intervalGong))
            case .offsets(let offsets):
                cues += Set(offsets).map { Cue(offset: meditationStart + $0, sound: .intervalGong) }
            }
        } else {
            segments.append(Segment(kind: .meditation, start: meditationStart, duration: duration))
            cues += intervalGongOffsets().map { Cue(offset: meditationStart + $0, sound: .intervalGong) }
            let meditationEnd = meditationStart + duration
            if reflection > .zero {
                segments.append(Segment(kind: .reflection, start: meditationEnd, duration: reflection))
                cues.append(Cue(offset: meditationEnd, sound: .phaseGong))
            }
            cues.append(Cue(offset: meditationEnd + reflection, sound: .endGong))
        }

        let ambient = ambientID == "silent" ? nil : AmbientChoice(id: ambientID, volume: ambientVolume)
        do {
            return try Timeline(
                practice: .meditation, segments: segments, cues: cues, repeatingCues: repeatingCues, ambient: ambient)
        } catch {
            // A validated plan always yields contiguous segments; reaching this is a bug in this function.
            throw .internalInconsistency
        }
    }

    /// Interval gong offsets from the start of the meditation segment, for a sit with a set length:
    /// sorted, without duplicates, all inside (0, duration).
    public func intervalGongOffsets() -> [Duration] {
        switch intervalGongs {
        case .off:
            return []
        case .every(let minutes):
            let interval = Duration.minutes(minutes)
            guard interval > .zero else { return [] }
            return Array(sequence(first: interval) { $0 + interval }.prefix { $0 < duration })
        case .offsets(let offsets):
            return Set(offsets).filter { $0 > .zero && $0 < duration }.sorted()
        }
    }
}
