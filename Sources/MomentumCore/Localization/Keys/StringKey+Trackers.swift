// Quiet daily trackers: their questions, answers and runs, in the terminal, on Progress and in
// their notifications; and why a tracker or an answer is refused.

extension StringKey {
    public static let trackerRun = StringKey("tracker.run")
    public static let trackerYes = StringKey("tracker.yes")
    public static let trackerNo = StringKey("tracker.no")
    public static let trackerQuestionToday = StringKey("tracker.question.today")
    public static let trackerQuestionYesterday = StringKey("tracker.question.yesterday")
    public static let trackerQuestionOn = StringKey("tracker.question.on")
    public static let pushTrackerBody = StringKey("push.tracker.body")
    public static let pushActionYes = StringKey("push.action.yes")
    public static let pushActionNo = StringKey("push.action.no")
}

// `momentum track`.
extension StringKey {
    public static let trackNone = StringKey("track.none")
    public static let trackAdded = StringKey("track.added")
    public static let trackChanged = StringKey("track.changed")
    public static let trackDeleted = StringKey("track.deleted")
    public static let trackAnswered = StringKey("track.answered")
    public static let trackCleared = StringKey("track.cleared")
    public static let trackAbout = StringKey("track.about")
}

extension StringKey {
    public static let errorTrackerEmptyName = StringKey("error.tracker.emptyName")
    public static let errorTrackerNameTooLong = StringKey("error.tracker.nameTooLong")
    public static let errorTrackerDuplicateName = StringKey("error.tracker.duplicateName")
    public static let errorTrackerTooMany = StringKey("error.tracker.tooMany")
    public static let errorTrackerFutureDay = StringKey("error.tracker.futureDay")
    public static let errorTrackerDayTooEarly = StringKey("error.tracker.dayTooEarly")
    public static let errorTrackerUnknown = StringKey("error.tracker.unknown")
    public static let errorTrackerAbout = StringKey("error.tracker.about")
}

// Backups, and the web app's line on Progress.
extension StringKey {
    public static let backupKindTrackers = StringKey("backup.kind.trackers")
    public static let backupKindTrackerDays = StringKey("backup.kind.trackerDays")
    public static let progressTrackersTitle = StringKey("progress.trackers.title")
    public static let progressTrackersAnswerYes = StringKey("progress.trackers.answerYes")
    public static let progressTrackersAnswerNo = StringKey("progress.trackers.answerNo")
    public static let progressTrackersYesDay = StringKey("progress.trackers.yesDay")
    public static let progressTrackersNoDay = StringKey("progress.trackers.noDay")
    public static let progressTrackersOpenDay = StringKey("progress.trackers.openDay")
    public static let progressTrackersFailed = StringKey("progress.trackers.failed")
    public static let progressTrackersAskToday = StringKey("progress.trackers.askToday")
    public static let progressTrackersAskYesterday = StringKey("progress.trackers.askYesterday")
}
