import Foundation
import MomentumCore
import MomentumStoreContract

/// The Morse course as both front ends use it: its settings, the stored progress, sessions that
/// start at the person's level and, when finished, move the progress on and write one practice
/// record — in one transaction, so a failure leaves progress and log as they were.
public struct MorseCourseService: Sendable {
    /// The setting row the course settings live in (JSON of ``MorseCourseSettings``).
    public static let settingsKey = MomentumSettings.morseCourseKey
    /// The setting row the person's call sign lives in (a JSON string), for QSO practice.
    public static let callSignKey = MomentumSettings.morseCallSignKey

    private let repository: any MorseCourseRepository
    private let settingValues: any SettingsRepository
    private let settings: SettingsService
    /// Where the Morse streak comes from: the practice log, like every streak.
    private let progressReports: ProgressService
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID
    private let device: String

    public init(
        repository: any MorseCourseRepository, settingValues: any SettingsRepository, settings: SettingsService,
        progressReports: ProgressService, now: @escaping @Sendable () -> Date,
        makeID: @escaping @Sendable () -> UUID,
        device: String
    ) {
        self.repository = repository
        self.settingValues = settingValues
        self.settings = settings
        self.progressReports = progressReports
        self.now = now
        self.makeID = makeID
        self.device = device
    }

    /// The course settings; missing or unreadable ones take the defaults (as every setting does).
    public func courseSettings() async throws(StoreError) -> MorseCourseSettings {
        let stored = try await settingValues.settingValues()[Self.settingsKey]
        // try?: a stored value that no longer decodes (older, or edited by hand) takes the defaults,
        // as every setting does; it is not overwritten until the course settings are saved.
        if let stored, let settings = try? JSONDecoder().decode(MorseCourseSettings.self, from: Data(stored.utf8)) {
            return settings
        }
        return Self.defaultSettings
    }

    /// Stores `settings` (already checked when they were made).
    public func saveCourseSettings(_ settings: MorseCourseSettings) async throws(MorseCourseServiceError) {
        let json: Data
        do {
            json = try JSONEncoder.sorted.encode(settings)
        } catch {
            throw .store(.database(message: "\(error)"))
        }
        do {
            try await settingValues.saveSettingValues(
                [Self.settingsKey: String(decoding: json, as: UTF8.self)], at: now())
        } catch {
            throw .store(error)
        }
    }

    /// The person's call sign for QSO practice, or `nil` when none is set (or the stored one no
    /// longer reads as a call sign: like every setting, an unreadable value counts as unset).
    public func callSign() async throws(StoreError) -> CallSign? {
        guard let stored = try await settingValues.settingValues()[Self.callSignKey],
            // try?: a stored value that is not a JSON string counts as unset, as documented above;
            // it stays stored until a call sign is saved.
            let text = try? JSONDecoder().decode(String?.self, from: Data(stored.utf8))
        else { return nil }
        // try?: likewise a text that no longer reads as a call sign (the rules got stricter).
        return try? CallSign(text)
    }

    /// Stores `callSign` as the person's own, or forgets it when `nil`.
    public func saveCallSign(_ callSign: CallSign?) async throws(StoreError) {
        let json = callSign.map { "\"\($0.text)\"" } ?? "null"
        try await settingValues.saveSettingValues([Self.callSignKey: json], at: now())
    }

    // The defaults can always be made; the force of `try!` is avoided with a checked fallback.
    static let defaultSettings: MorseCourseSettings = {
        // try?: the defaults are within every bound; were they not, the else branch stops the
        // program, so the failure is never silent.
        guard let settings = try? MorseCourseSettings() else { preconditionFailure("default Morse settings") }
        return settings
    }()

    /// The stored progress, or a new course in the settings' Koch order before the first session.
    ///
    /// - Throws: ``MorseCourseServiceError/corruptProgress(_:)`` when the stored row does not read
    ///   as valid progress (it is left untouched).
    public func progress() async throws(MorseCourseServiceError) -> MorseCourseProgress {
        let order: KochOrder
        do {
            order = try await courseSettings().order
        } catch {
            throw .store(error)
        }
        return try await progress(newCourseOrder: order)
    }

    /// The stored progress, or a new course in `order` before the first session.
    private func progress(newCourseOrder order: KochOrder) async throws(MorseCourseServiceError) -> MorseCourseProgress
    {
        let stored: String?
        do {
            stored = try await repository.morseCourseJSON()
        } catch {
            throw .store(error)
        }
        guard let stored else { return MorseCourseProgress(order: order) }
        do {
            return try MorseCourseProgress.decoded(fromJSON: Data(stored.utf8))
        } catch {
            throw .corruptProgress(error)
        }
    }

    /// The course as both front ends show it at `at` (default now): levels, dates, statistics and
    /// the Morse streak — the practice log's, the same number Progress shows — unless hidden.
    public func overview(at instant: Date? = nil) async throws(MorseCourseServiceError) -> MorseCourseProgress.JSONForm
    {
        let now = instant ?? self.now()
        let progress = try await progress()
        let report: ProgressReport
        do {
            report = try await progressReports.report(at: now)
        } catch {
            throw .store(error)
        }
        return progress.jsonForm(now: now, report: report)
    }

    /// A session in `direction` at the person's level, weighted by their statistics, as long as
    /// `length` or else the settings say; it begins with the introduction at `at` (default now).
    /// The course keeps the Koch order it started with; a changed order applies to a new course.
    public func startSession(
        _ direction: MorseDirection, groupSize: Int = 1, length: Duration? = nil, at instant: Date? = nil
    ) async throws(MorseCourseServiceError) -> MorseSession {
        let progress = try await progress()
        let settings: MorseCourseSettings
        do {
            settings = try await courseSettings()
        } catch {
            throw .store(error)
        }
        do {
            return try MorseSession(
                direction: direction, order: progress.order, level: progress[direction].level,
                statistics: progress[direction].characterStatistics, groupSize: groupSize,
                length: length ?? settings.sessionLength, at: instant ?? now())
        } catch {
            throw .session(error)
        }
    }

    /// What finishing a session did: its result, the progress after it and the practice record
    /// written (nil when the session had no attempts — nothing was practised).
    public struct Finished: Sendable {
        public var result: MorseSessionResult
        public var progress: MorseCourseProgress
        public var previous: MorseCourseProgress
        public var record: PracticeRecord?

        /// Whether the course kept the session: it had answers (its history line and progress).
        public var isKept: Bool { result.attemptCount > 0 }

        /// What reached the practice log, in words: "Saved 5 min of Morse practice.", or why
        /// nothing did (a session stopped within its first minute; README, "What gets logged").
        public func loggedText(catalog: StringCatalog) -> String? {
            guard isKept else { return nil }
            let duration = DurationFormatting.words(result.trainingTime, language: catalog.language)
            return record == nil
                ? catalog.format(.morseSummaryNotLogged, ["duration": duration])
                : catalog.format(.morseSummarySaved, ["duration": duration])
        }
    }

    /// Ends `session` at `at` (default now), applies it to the progress and saves progress,
    /// history line and practice record together.
    public func finish(_ session: inout MorseSession, at instant: Date? = nil) async throws(MorseCourseServiceError)
        -> Finished
    {
        let dayCalendar: DayCalendar
        let newCourseOrder: KochOrder
        do {
            dayCalendar = try await progressReports.dayCalendar()
            newCourseOrder = try await courseSettings().order
        } catch {
            throw .store(error)
        }
        let end = instant ?? now()
        let previous = try await progress(newCourseOrder: newCourseOrder)
        var ended = session
        let result: MorseSessionResult
        do {
            result = try ended.end(at: end)
        } catch {
            throw .session(error)
        }
        let next: MorseCourseProgress
        do {
            next = try previous.applying(result, dayCalendar: dayCalendar)
        } catch {
            throw .progress(error)
        }
        guard result.attemptCount > 0 else {
            session = ended
            return Finished(result: result, progress: previous, previous: previous, record: nil)
        }
        let record = try Self.record(for: result, id: makeID(), device: device)
        do {
            let json = String(decoding: try next.encodedJSON(), as: UTF8.self)
            try await repository.saveMorseSession(
                progressJSON: json, summary: MorseSessionSummary(id: makeID(), result: result), record: record,
                at: end)
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.database(message: "\(error)"))
        }
        session = ended
        return Finished(result: result, progress: next, previous: previous, record: record)
    }

    /// Finished sessions, newest first.
    public func sessions(limit: Int = 100) async throws(StoreError) -> [MorseSessionSummary] {
        try await repository.morseSessions(limit: limit)
    }

    /// The practice-log record of a session — by the rule every kind follows (``PracticeOutcome``):
    /// its training time counted, accuracy in the details; `nil` when no character was answered or
    /// the session stopped before a minute.
    static func record(for result: MorseSessionResult, id: UUID, device: String) throws(MorseCourseServiceError)
        -> PracticeRecord?
    {
        guard let accuracy = result.accuracy else { return nil }
        do {
            return try result.outcome.record(
                id: id, kind: .morse, start: result.startedAt, end: result.endedAt,
                details: [
                    "direction": result.direction.rawValue, "level": "\(result.level)",
                    "accuracy": "\(Int((accuracy * 100).rounded()))%",
                ], device: device)
        } catch {
            throw .record(error)
        }
    }
}

/// Why the course could not do what was asked. Nothing is stored in any case.
public enum MorseCourseServiceError: Error, Equatable, Sendable {
    /// The stored progress does not read as valid progress; it is left as it is.
    case corruptProgress(MorseCourseProgressError)
    case session(MorseSessionError)
    case progress(MorseCourseProgressError)
    case record(PracticeRecordError)
    case store(StoreError)
}

extension JSONEncoder {
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
