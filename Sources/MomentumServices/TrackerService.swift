import Foundation
import MomentumCore
import MomentumStoreContract

/// One person's quiet daily trackers (docs/notifications.md): made and answered in the terminal
/// (`momentum track`), on the API, and from the question's notification; shown as a quiet line on
/// Progress and marks on its calendar. The rules are the core's (``TrackerRules``).
public struct TrackerService: Sendable {
    let repository: any TrackerRepository
    let progress: ProgressService
    let settings: SettingsService
    let now: @Sendable () -> Date
    let makeID: @Sendable () -> UUID

    public init(
        repository: any TrackerRepository, progress: ProgressService, settings: SettingsService,
        now: @escaping @Sendable () -> Date, makeID: @escaping @Sendable () -> UUID
    ) {
        (self.repository, self.progress, self.settings, self.now, self.makeID) =
            (repository, progress, settings, now, makeID)
    }

    /// Every tracker with its last days and run, in `language`.
    public func list(language: Language) async throws(TrackerServiceError) -> TrackersView {
        let (trackers, answers, today, hideRuns) = try await state()
        let catalog = StringCatalog.shared(for: language)
        return TrackersView(
            today: today.description,
            trackers: trackers.map { tracker in
                TrackerView(
                    tracker, answers: answers[tracker.id] ?? [], today: today, hideRun: hideRuns, catalog: catalog)
            })
    }

    /// One tracker's view, found by id or name.
    public func view(_ reference: String, language: Language) async throws(TrackerServiceError) -> TrackerView {
        let (trackers, answers, today, hideRuns) = try await state()
        let tracker = try Self.find(reference, in: trackers)
        return TrackerView(
            tracker, answers: answers[tracker.id] ?? [], today: today, hideRun: hideRuns,
            catalog: .shared(for: language))
    }

    /// Makes a tracker asked at `askAt` about `about`.
    public func add(name: String, askAt: TimeOfDay, about: Tracker.About) async throws(TrackerServiceError) -> Tracker {
        let existing = try await stored { () async throws(StoreError) in try await repository.trackers() }
        guard existing.count < Tracker.maximumPerPerson else {
            throw .invalid(.tooMany(maximum: Tracker.maximumPerPerson))
        }
        let now = now()
        let tracker: Tracker
        do {
            tracker = try Tracker(id: makeID(), name: name, askAt: askAt, about: about, createdAt: now)
            try TrackerRules.checkFree(tracker.name, among: existing)
        } catch { throw .invalid(error) }
        try await stored { () async throws(StoreError) in try await repository.saveTracker(tracker, at: now) }
        return tracker
    }

    /// Changes a tracker's name, hour or day (what is `nil` stays).
    public func change(
        _ reference: String, name: String? = nil, askAt: TimeOfDay? = nil, about: Tracker.About? = nil
    ) async throws(TrackerServiceError) -> Tracker {
        let existing = try await stored { () async throws(StoreError) in try await repository.trackers() }
        var tracker = try Self.find(reference, in: existing)
        do {
            if let name {
                tracker = try tracker.renamed(name)
                try TrackerRules.checkFree(tracker.name, among: existing, renaming: tracker.id)
            }
        } catch { throw .invalid(error) }
        if let askAt { tracker.askAt = askAt }
        if let about { tracker.about = about }
        let changed = tracker
        try await stored { () async throws(StoreError) in try await repository.saveTracker(changed, at: now()) }
        return changed
    }

    /// Ends a tracker and its answers.
    public func delete(_ reference: String) async throws(TrackerServiceError) -> Tracker {
        let existing = try await stored { () async throws(StoreError) in try await repository.trackers() }
        let tracker = try Self.find(reference, in: existing)
        try await stored { () async throws(StoreError) in try await repository.deleteTracker(id: tracker.id) }
        return tracker
    }

    /// Answers `day` (default: the day the tracker's question is about now) yes or no, or clears
    /// it (`nil`); the day answered.
    @discardableResult
    public func answer(_ reference: String, _ answer: Bool?, day: Day? = nil) async throws(TrackerServiceError) -> Day {
        let existing = try await stored { () async throws(StoreError) in try await repository.trackers() }
        let tracker = try Self.find(reference, in: existing)
        let today = try await stored { () async throws(StoreError) in try await progress.dayCalendar() }.day(of: now())
        let day = day ?? TrackerRules.day(askedOn: today, about: tracker.about)
        do { try TrackerRules.checkAnswerable(day, today: today) } catch { throw .invalid(error) }
        let now = now()
        let id = makeID()
        let found = try await stored { () async throws(StoreError) in
            if let answer {
                return try await repository.saveTrackerAnswer(
                    TrackerAnswer(day: day, answer: answer, answeredAt: now), trackerID: tracker.id, id: id)
            } else {
                // Clearing a day that had no answer leaves it as it was.
                _ = try await repository.deleteTrackerAnswer(trackerID: tracker.id, day: day)
                return true
            }
        }
        guard found else { throw .invalid(.unknownTracker(reference)) }
        return day
    }

    /// The days answered in `month` (1–12) of `year`, each with every tracker's answer: the
    /// calendar's marks.
    public func month(year: Int, month: Int, language: Language) async throws(TrackerServiceError)
        -> TrackerMonthView
    {
        let trackers = try await stored { () async throws(StoreError) in try await repository.trackers() }
        let answers = try await stored { () async throws(StoreError) in try await repository.trackerAnswers() }
        return TrackerMonthView(
            year: year, month: month, trackers: trackers, answers: answers, catalog: .shared(for: language))
    }

    // MARK: Questions

    /// The questions due from `from` through `through`, and the person's time zone and quiet hours.
    func questions(from: Date, through: Date) async throws(StoreError) -> (
        questions: [TrackerQuestion], timeZone: TimeZone, quietHours: QuietHours
    ) {
        let trackers = try await repository.trackers()
        let zone = try await progress.dayCalendar().timeZone
        let quiet = try await settings.load().reminders.quietHours
        guard !trackers.isEmpty else { return ([], zone, quiet) }
        let answered = try await repository.trackerAnswers().mapValues { Set($0.map(\.day)) }
        return (
            TrackerQuestion.due(
                trackers, answered: answered, from: from, through: through, timeZone: zone, quietHours: quiet),
            zone, quiet
        )
    }

    /// The tracker `id` (for its question's text).
    func tracker(id: UUID) async throws(StoreError) -> Tracker? {
        try await repository.trackers().first { $0.id == id }
    }

    // MARK: Helpers

    private func state() async throws(TrackerServiceError) -> ([Tracker], [UUID: [TrackerAnswer]], Day, Bool) {
        try await stored { () async throws(StoreError) in
            let trackers = try await repository.trackers()
            let answers = try await repository.trackerAnswers()
            let today = try await progress.dayCalendar().day(of: now())
            let hide = try await settings.load().progress.hideStreaks
            return (trackers, answers, today, hide)
        }
    }

    private func stored<T>(_ body: () async throws(StoreError) -> T) async throws(TrackerServiceError) -> T {
        do { return try await body() } catch { throw .store(error) }
    }

    /// The tracker whose id or name (any case) is `reference`.
    static func find(_ reference: String, in trackers: [Tracker]) throws(TrackerServiceError) -> Tracker {
        let trimmed = reference.trimmingCharacters(in: .whitespaces)
        if let id = UUID(uuidString: trimmed), let tracker = trackers.first(where: { $0.id == id }) { return tracker }
        let folded = PresetNaming.folded(trimmed)
        guard let tracker = trackers.first(where: { PresetNaming.folded($0.name) == folded }) else {
            throw .invalid(.unknownTracker(String(trimmed.prefix(TextInput.maximumNameLength))))
        }
        return tracker
    }
}

/// Why a tracker's change was not made.
public enum TrackerServiceError: Error, Equatable, Sendable {
    case invalid(TrackerError)
    case store(StoreError)
}
