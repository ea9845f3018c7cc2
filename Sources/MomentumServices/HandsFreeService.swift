import Foundation
import MomentumAudio
import MomentumCore
import MomentumStoreContract

/// Hands-free copy (``HandsFreePlan``): the form's view — its defaults from the course's settings
/// and the person's language, its bounds, a fresh seed, whether speech works here — the plan a
/// front end asks for, checked, and logging what was listened to as Morse practice.
public struct HandsFreeService: Sendable {
    private let morse: MorseCourseService
    private let settings: SettingsService
    private let log: any PracticeLogRepository
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID
    private let device: String

    public init(
        morse: MorseCourseService, settings: SettingsService, log: any PracticeLogRepository,
        now: @escaping @Sendable () -> Date, makeID: @escaping @Sendable () -> UUID, device: String
    ) {
        (self.morse, self.settings, self.log) = (morse, settings, log)
        (self.now, self.makeID, self.device) = (now, makeID, device)
    }

    /// The form: defaults and bounds, and `speech`'s problem as a sentence when it cannot speak.
    /// The seed is drawn from the id generator, so each visit offers a new session.
    public func view(speech problem: SpeechError?, catalog: StringCatalog) async throws(StoreError) -> HandsFreeView {
        let course = try await morse.courseSettings()
        let language = try await settings.load().language ?? catalog.language
        let seed = makeID().uuid
        return HandsFreeView(
            course: course, language: language,
            // 48 bits, so a browser's numbers hold it exactly; the id's last bytes, its most varied.
            seed: UInt64(seed.10) << 40 | UInt64(seed.11) << 32 | UInt64(seed.12) << 24 | UInt64(seed.13) << 16
                | UInt64(seed.14) << 8 | UInt64(seed.15),
            speechProblem: problem.map { ErrorMessages.message(for: $0, catalog: catalog) })
    }

    /// Logs listening to `plan` for `listened` until `endedAt` (default now) under `id`: asking
    /// twice with one id logs once. Returns the record, `nil` when it does not count.
    @discardableResult
    public func logListening(plan: HandsFreePlan, listened: Duration, finished: Bool, endedAt: Date?, id: UUID)
        async throws(HandsFreeServiceError) -> PracticeRecord?
    {
        guard listened >= .zero, listened.inSeconds <= PracticeRecord.maximumLength else {
            throw .listenedOutOfRange
        }
        let end = endedAt ?? now()
        let record: PracticeRecord?
        do {
            record = try HandsFreeListening.record(
                plan: plan, listened: listened, finished: finished, endedAt: end, id: id, device: device)
        } catch {
            throw .record(error)
        }
        if let record {
            do { try await log.savePracticeRecord(record, at: now()) } catch { throw .store(error) }
        }
        return record
    }
}

/// Why listening was not logged. Nothing is stored.
public enum HandsFreeServiceError: Error, Equatable, Sendable {
    /// The time listened is negative or longer than a practice record may be.
    case listenedOutOfRange
    case record(PracticeRecordError)
    case store(StoreError)
}

/// Everything the hands-free form shows: its choices, defaults and bounds (the page holds no
/// number of its own), a fresh seed, and why speech does not work here, if it does not.
public struct HandsFreeView: Sendable, Equatable, Encodable {
    public struct Bounds: Sendable, Equatable, Encodable {
        public let min: Int
        public let max: Int
    }

    public let contents: [HandsFreePlan.Content]
    public let languages: [Language]
    public let language: Language
    public let count: Int
    public let countBounds: Bounds
    public let listEntryMaxLength: Int
    public let pauseMs: Int
    public let pauseBoundsMs: Bounds
    public let itemGapMs: Int
    public let itemGapBoundsMs: Bounds
    public let repeatsMorse: Bool
    public let characterWPM: Double
    public let effectiveWPM: Double
    public let toneHertz: Double
    public let seed: UInt64
    /// `nil` when speech works; else the sentence saying why not.
    public let speechProblem: String?

    init(course: MorseCourseSettings, language: Language, seed: UInt64, speechProblem: String?) {
        func milliseconds(_ duration: Duration) -> Int { Int(duration.inSeconds * 1000) }
        contents = HandsFreePlan.Content.allCases
        languages = Language.allCases
        self.language = language
        count = 20
        countBounds = Bounds(min: HandsFreePlan.countBounds.lowerBound, max: HandsFreePlan.countBounds.upperBound)
        listEntryMaxLength = HandsFreePlan.entryLength.upperBound
        pauseMs = milliseconds(HandsFreePlan.standardPause)
        pauseBoundsMs = Bounds(
            min: milliseconds(HandsFreePlan.pauseBounds.lowerBound),
            max: milliseconds(HandsFreePlan.pauseBounds.upperBound))
        itemGapMs = milliseconds(HandsFreePlan.standardItemGap)
        itemGapBoundsMs = Bounds(
            min: milliseconds(HandsFreePlan.itemGapBounds.lowerBound),
            max: milliseconds(HandsFreePlan.itemGapBounds.upperBound))
        repeatsMorse = true
        // Words at the course's character speed, without Farnsworth spacing: copied whole.
        characterWPM = course.timing.characterWPM
        effectiveWPM = course.timing.characterWPM
        toneHertz = course.tone.hertz
        self.seed = seed
        self.speechProblem = speechProblem
    }
}
