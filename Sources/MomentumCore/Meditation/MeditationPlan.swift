/// What the person chose for a sit: how long, how it begins and ends, and what sounds in between.
///
/// A plan holds any values; ``validate(ambientCatalog:)`` (called by ``timeline(ambientCatalog:)``)
/// checks every field against its bounds and names the first one that is out of them.
///
/// ```swift
/// let plan = MeditationPlan(duration: .minutes(20), intervalGongs: .every(minutes: 5))
/// let timeline = try plan.timeline()
/// ```
public struct MeditationPlan: Sendable, Equatable {
    /// How long the sit lasts (ignored when open-ended, but remembered for next time).
    public var duration: Duration
    /// The settling-in time before the start gong; zero skips it.
    public var countdown: Duration
    public var intervalGongs: IntervalGongs
    /// A quiet phase after the sit, opened by the three-strike phase gong; zero turns it off.
    public var reflection: Duration
    public var ambientID: String
    public var ambientVolume: Double
    /// When on, the sit has no set length: it runs until the person stops it.
    public var isOpenEnded: Bool

    public init(
        duration: Duration = Self.defaultDuration,
        countdown: Duration = Self.defaultCountdown,
        intervalGongs: IntervalGongs = .off,
        reflection: Duration = .zero,
        ambientID: String = "silent",
        ambientVolume: Double = Self.defaultAmbientVolume,
        isOpenEnded: Bool = false
    ) {
        self.duration = duration
        self.countdown = countdown
        self.intervalGongs = intervalGongs
        self.reflection = reflection
        self.ambientID = ambientID
        self.ambientVolume = ambientVolume
        self.isOpenEnded = isOpenEnded
    }

    public static let defaultDuration = Duration.minutes(10)
    public static let defaultCountdown = Duration.seconds(15)
    public static let defaultAmbientVolume = 0.15

    public static let durationBounds = Duration.seconds(1)...Duration.seconds(10 * 3600)
    public static let countdownBounds = Duration.zero...Duration.seconds(60)
    public static let intervalMinutesBounds = 1...60
    public static let reflectionBounds = Duration.zero...Duration.minutes(60)
    public static let ambientVolumeBounds = 0.0...1.0
    /// Explicit interval offsets a plan may list.
    public static let maximumIntervalOffsets = 100

    /// Checks every field; throws the first problem found, in the order of the plan's fields.
    public func validate(ambientCatalog: AmbientCatalog = .builtIn) throws(MeditationPlanError) {
        // Checked for open-ended sits too: the length is remembered for the next sit.
        guard duration >= Self.durationBounds.lowerBound else { throw .durationTooShort }
        guard duration <= Self.durationBounds.upperBound else { throw .durationTooLong }
        guard countdown >= .zero else { throw .countdownNegative }
        guard countdown <= Self.countdownBounds.upperBound else { throw .countdownTooLong }
        switch intervalGongs {
        case .off:
            break
        case .every(let minutes):
            guard minutes >= Self.intervalMinutesBounds.lowerBound else { throw .intervalTooShort }
            guard minutes <= Self.intervalMinutesBounds.upperBound else { throw .intervalTooLong }
        case .offsets(let offsets):
            guard !offsets.isEmpty else { throw .intervalOffsetsEmpty }
            guard offsets.count <= Self.maximumIntervalOffsets else { throw .tooManyIntervalOffsets }
            guard offsets.allSatisfy({ $0 > .zero }) else { throw .intervalOffsetNotAfterStart }
        }
        if let late = firstIntervalGongAtOrAfterEnd {
            throw .intervalGongAtOrAfterEnd(offset: late, duration: duration)
        }
        guard reflection >= .zero else { throw .reflectionNegative }
        guard reflection <= Self.reflectionBounds.upperBound else { throw .reflectionTooLong }
        guard ambientCatalog.sound(id: ambientID) != nil else { throw .unknownAmbient(ambientID) }
        guard Self.ambientVolumeBounds.contains(ambientVolume) else { throw .ambientVolumeOutOfRange }
    }
}

extension MeditationPlan {
    /// The first interval gong that would sound at or after the end of a sit with a set length
    /// (such a gong never sounds, so asking for it is a mistake); `nil` for an open-ended sit.
    var firstIntervalGongAtOrAfterEnd: Duration? {
        guard !isOpenEnded else { return nil }
        switch intervalGongs {
        case .off: return nil
        case .every(let minutes): return .minutes(minutes) >= duration ? .minutes(minutes) : nil
        case .offsets(let offsets): return offsets.filter { $0 >= duration }.min()
        }
    }

    /// This plan with the interval gongs that would sound at or after its end left out (all of
    /// them turned off when none is left): what stored settings from before that rule become
    /// (see the store's migration "v12").
    public var withoutIntervalGongsAtOrAfterEnd: MeditationPlan {
        guard firstIntervalGongAtOrAfterEnd != nil else { return self }
        var plan = self
        switch intervalGongs {
        case .off, .every: plan.intervalGongs = .off
        case .offsets(let offsets):
            let inside = offsets.filter { $0 < duration }
            plan.intervalGongs = inside.isEmpty ? .off : .offsets(inside)
        }
        return plan
    }
}

extension MeditationPlan {
    /// "Your last sit" — where the next quick sit starts from — after a sit with `plan` (issue
    /// 38): a sit of your own becomes it; a saved sit is its own and leaves it as it was, so
    /// using "Zazen" never turns the quick sit into a 40-minute one with Zazen's gongs.
    public static func lastSit(after plan: MeditationPlan, fromSavedSit: Bool, before last: MeditationPlan)
        -> MeditationPlan
    {
        fromSavedSit ? last : plan
    }

    /// This plan with a length chosen now (`meditate 3`): set, no longer open-ended, and the
    /// interval gongs it brought from before left out where they no longer fit — gongs the
    /// person did not choose for this sit never refuse it. Gongs chosen with the length are
    /// kept and checked as they are.
    public func withLength(_ length: Duration, gongsChosenToo: Bool) -> MeditationPlan {
        var plan = self
        plan.duration = length
        plan.isOpenEnded = false
        return gongsChosenToo ? plan : plan.withoutIntervalGongsAtOrAfterEnd
    }
}

/// When interval gongs sound during the meditation segment.
public enum IntervalGongs: Sendable, Equatable {
    case off
    /// Every N minutes after the start gong (N = 1 … 60).
    case every(minutes: Int)
    /// At explicit offsets after the start gong.
    case offsets([Duration])
}

/// A plan field out of its bounds. Each case names one field and one edge.
public enum MeditationPlanError: Error, Equatable, Sendable {
    case durationTooShort
    case durationTooLong
    case countdownNegative
    case countdownTooLong
    case intervalTooShort
    case intervalTooLong
    case intervalOffsetsEmpty
    case tooManyIntervalOffsets
    case intervalOffsetNotAfterStart
    case reflectionNegative
    case reflectionTooLong
    case unknownAmbient(String)
    case ambientVolumeOutOfRange
    /// The plan compiled to an impossible timeline; a bug, reported rather than crashed on.
    case internalInconsistency
    /// An interval gong at `offset` after the start gong would sound at or after the end of a
    /// sit of `duration`: it never would, so the plan is refused rather than silently shortened.
    case intervalGongAtOrAfterEnd(offset: Duration, duration: Duration)
}
