import Foundation

/// What listening to a guided meditation amounts to in the log: the same rule as every timed
/// practice (``PracticeOutcome``), measured in time listened.
///
/// Finishing logs the time listened; stopping after at least a minute logs it too (marked as
/// stopped early); stopping sooner logs nothing. A finish after less than a second of listening
/// (the person sought to the end) logs nothing either.
public enum GuidedListening {
    /// The outcome of listening for `listened`, to the end or not.
    public static func outcome(listened: Duration, finished: Bool) -> PracticeOutcome {
        let listened = max(listened, .zero)
        if finished && listened >= .seconds(1) { return .completed(listened) }
        if !finished && listened >= PracticeOutcome.minimumLoggedTime { return .stoppedEarly(listened) }
        return .tooShortToLog(listened)
    }

    /// The guided practice record for listening to `item` for `listened` until `endedAt`, or
    /// `nil` when it does not count. It starts `listened` before `endedAt` (pauses are not kept).
    public static func record(
        item: LibraryItem, listened: Duration, finished: Bool, endedAt: Date, id: UUID, device: String
    ) throws(PracticeRecordError) -> PracticeRecord? {
        let outcome = outcome(listened: listened, finished: finished)
        var details = ["libraryItem": item.id.uuidString.lowercased(), "name": item.name]
        if let teacher = item.teacher { details["teacher"] = teacher }
        return try outcome.record(
            id: id, kind: .guided, start: endedAt.addingTimeInterval(-outcome.time.inSeconds), end: endedAt,
            details: details, device: device)
    }
}
