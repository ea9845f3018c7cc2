extension WorkoutPlan {
    /// Compiles the plan into a timeline of segments and cues (SPEC §5).
    ///
    /// Segments: get ready, warm-up, then for every set each round's work followed by a rest
    /// (none after the last round of a set), a rest between sets, and the cool-down. Segments of
    /// 0 s are left out. Work and rest segments carry their round, set and exercise; a rest
    /// belongs to the round just finished, a rest between sets to the last round of its set.
    ///
    /// Cues:
    /// - `leadIn` at 0, with the first segment's name. When the workout starts straight with work
    ///   (no get ready, no warm-up) the lead-in is its start signal, so no long beep sounds there.
    /// - At every change into or out of work — including work to work when there is no rest
    ///   (EMOM) and a set ending without a rest between sets — a `longBeep` at the change and a
    ///   `shortBeep` 3, 2 and 1 s before it. A short beep must fall after the start of the
    ///   segment it sounds in: on that start a long beep or the lead-in already sounds, and
    ///   before it is another segment (or before 0).
    /// - `halfway` in the middle of every work interval of 20 s or more.
    /// - Each segment's start names it; a work interval names its exercise when there is one.
    ///   A rest or rest between sets announces what comes next: "Last round" before the very
    ///   last round of the whole workout, "Set 2 of 3" / "Last set" before the first round of a
    ///   set, else "Round 4 of 10"; then "Next: Plank" when rounds are named.
    /// - `finish` at the very end. When the workout ends with work, it replaces that change's
    ///   long beep; the three short beeps before it still count down.
    public func timeline() throws(WorkoutError) -> Timeline {
        try validate()
        let segments = workoutSegments()
        do {
            return try Timeline(practice: .workout, segments: segments, cues: Self.cues(for: segments))
        } catch {
            // Segments are laid end to end from zero with cues inside them; reaching this is a
            // bug in this file.
            throw .internalInconsistency
        }
    }

    /// The segments in order, each with its round, set and exercise; none of 0 s.
    private func workoutSegments() -> [Segment] {
        var segments: [Segment] = []
        var offset = Duration.zero
        func append(_ kind: SegmentKind, _ duration: Duration, _ detail: SegmentDetail? = nil) {
            guard duration > .zero else { return }
            segments.append(Segment(kind: kind, start: offset, duration: duration, detail: detail))
            offset += duration
        }
        append(.getReady, getReady)
        append(.warmUp, warmUp)
        for set in 1...sets {
            for round in 1...rounds {
                let detail = SegmentDetail(
                    round: round, rounds: rounds, set: set, sets: sets, exercise: exercise(round: round, set: set))
                append(.work, work, detail)
                if round < rounds { append(.rest, rest, detail) }
                if round == rounds, set < sets { append(.setRest, setRest, detail) }
            }
        }
        append(.coolDown, coolDown)
        return segments
    }

    /// The last seconds of a segment that beep (and that a board counts down large).
    public static let countdownSeconds = 3
    private static let shortestWorkWithHalfway: Duration = .seconds(20)

    /// Every cue of the timeline, from its segments alone.
    private static func cues(for segments: [Segment]) -> [Cue] {
        var cues: [Cue] = []
        for (index, segment) in segments.enumerated() {
            let previous = index > 0 ? segments[index - 1] : nil
            let next = index + 1 < segments.count ? segments[index + 1] : nil
            let touchesWork = previous?.kind == .work || segment.kind == .work
            if let previous, touchesWork {
                cues += countdown(before: segment.start, inside: previous)
            }
            let sound: CueSound? = previous == nil ? .leadIn : touchesWork ? .longBeep : nil
            cues.append(Cue(offset: segment.start, sound: sound, text: startText(of: segment, before: next)))
            if segment.kind == .rest || segment.kind == .setRest, let exercise = next?.detail?.exercise {
                cues.append(
                    Cue(
                        offset: segment.start, sound: nil,
                        text: LocalizedText(.workoutNextExercise, ["exercise": exercise])))
            }
            if segment.kind == .work, let duration = segment.duration, duration >= shortestWorkWithHalfway {
                cues.append(
                    Cue(offset: segment.start + duration / 2, sound: .halfway, text: LocalizedText(.workoutHalfway)))
            }
        }
        if let last = segments.last, let end = last.end {
            if last.kind == .work { cues += countdown(before: end, inside: last) }
            cues.append(Cue(offset: end, sound: .finish, text: LocalizedText(.workoutFinish)))
        }
        return cues
    }

    /// Short beeps 3, 2 and 1 s before `change`, only those after the start of `segment`.
    private static func countdown(before change: Duration, inside segment: Segment) -> [Cue] {
        (1...countdownSeconds).reversed().map { change - .seconds($0) }
            .filter { $0 > segment.start }
            .map { Cue(offset: $0, sound: .shortBeep) }
    }

    /// What the start of `segment` says: its name, the exercise of a work interval, or for a
    /// rest what comes after it (`next`).
    private static func startText(of segment: Segment, before next: Segment?) -> LocalizedText {
        switch segment.kind {
        case .work:
            let arguments = segment.detail.map(\.arguments) ?? [:]
            guard let exercise = segment.detail?.exercise else { return LocalizedText(.workoutWork, arguments) }
            return LocalizedText(.workoutWorkExercise, arguments.merging(["exercise": exercise]) { $1 })
        case .rest, .setRest:
            guard let upcoming = next?.detail else { return LocalizedText(segment.kind.workoutNameKey) }
            return upcoming.announcement
        default:
            return LocalizedText(segment.kind.workoutNameKey)
        }
    }
}

extension SegmentDetail {
    /// Round and set as text arguments (`round`, `rounds`, `set`, `sets`).
    var arguments: [String: String] {
        ["round": "\(round)", "rounds": "\(rounds)", "set": "\(set)", "sets": "\(sets)"]
    }

    /// Whether this is the last round of the last set.
    public var isLastRound: Bool { round == rounds && set == sets }

    /// How a rest announces this round when it comes next: "Last round" for the very last round
    /// of the workout, "Set 2 of 3" or "Last set" when a new set begins, else "Round 4 of 10".
    var announcement: LocalizedText {
        if isLastRound { return LocalizedText(.workoutLastRound, arguments) }
        if round == 1, sets > 1 {
            return LocalizedText(set == sets ? .workoutLastSet : .workoutSet, arguments)
        }
        return LocalizedText(.workoutRound, arguments)
    }
}

extension SegmentKind {
    /// The catalog key naming a workout segment ("Get ready", "Work", "Rest between sets" …).
    /// Kinds of other practices fall back to the work text; workout timelines never hold them.
    public var workoutNameKey: StringKey {
        switch self {
        case .getReady: .workoutSegmentGetReady
        case .warmUp: .workoutSegmentWarmUp
        case .rest: .workoutSegmentRest
        case .setRest: .workoutSegmentSetRest
        case .coolDown: .workoutSegmentCoolDown
        default: .workoutSegmentWork
        }
    }
}
