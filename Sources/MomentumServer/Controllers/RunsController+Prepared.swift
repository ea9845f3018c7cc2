import Crypto
import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

extension RunsController {
    /// What a device keeps to practise with the server out of reach (docs/offline.md).
    struct PreparedList: Encodable {
        var practices: [Prepared]
    }

    /// One practice ready to start offline: its plan resolved (what a report sends back), how it
    /// shows before it starts — the same run view a started run answers, at `idle` — and a
    /// version that changes whenever the practice does, so a device refreshes only what changed.
    struct Prepared: Encodable {
        /// `sit.ID`, `breathing.ID` or `workout.ID`.
        var key: String
        var kind: PracticeRun.Kind
        /// The name in the request's language (a built-in preset's or program's from the catalog).
        var name: String
        var version: String
        var practice: PreparedPractice
        /// The run as the page shows it before the start: timeline, summary, affirmations, board.
        var run: RunResponse
    }

    /// The id a prepared practice's run view carries: it is no run yet (the device makes the
    /// report's id when the person starts it).
    static let preparedRunID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// The key of the person's usual sit (Meditate's own settings) in the prepared list.
    static let usualSitKey = "sit.usual"

    /// `GET /api/v1/runs/prepared`: the person's saved sits and usual sit, their own breathing
    /// presets and workout programs, then the built-in ones, each as ``Prepared``: a device keeps them in this
    /// order while they fit its budget, so what the person made is kept first. Nothing is started
    /// or saved.
    @Sendable func prepared(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<
        PreparedList
    > {
        let language = try await LanguageChoice.language(for: request, settings: services.settings)
        let instant = WallInstant(now())
        let prepared = try await Self.preparedRuns(of: services, language: language)
        let practices = try prepared.map { key, name, run in
            let practice = PreparedPractice(run.stored)
            return Prepared(
                key: key, kind: run.kind, name: name, version: try Self.version(of: practice, name: name),
                practice: practice, run: RunResponse(run, at: instant, language: language))
        }
        return JSONResponse(PreparedList(practices: practices))
    }

    /// Every practice a device can keep, in the order the list gives them: its key, its name in
    /// `language` and a run of it not yet started.
    static func preparedRuns(of services: MomentumServices, language: Language) async throws -> [(
        key: String, name: String, run: PracticeRun
    )] {
        let catalog = StringCatalog.shared(for: language)
        var prepared: [(key: String, name: String, run: PracticeRun)] = []
        let presets = try await services.meditationPresets.presets()
        for preset in presets {
            let sit = try MeditationSit<WallInstant>(
                plan: preset.plan, affirmations: Affirmations(rotationIndex: 0, catalog: catalog))
            var run = PracticeRun(id: Self.preparedRunID, plan: .meditation(sit))
            run.meditationPreset = preset
            prepared.append(("sit.\(preset.id)", preset.name, run))
        }
        // The sit Meditate starts with (the person's usual one), unless a saved sit is the same or
        // it is open-ended (no end to prepare): a person who saved no sit has one kept too.
        let usual = try await services.settings.load().meditation
        if !usual.isOpenEnded, !presets.contains(where: { $0.plan == usual }) {
            let sit = try MeditationSit<WallInstant>(
                plan: usual, affirmations: Affirmations(rotationIndex: 0, catalog: catalog))
            let minutes = max(1, Int((usual.duration.inSeconds / 60).rounded()))
            prepared.append(
                (
                    Self.usualSitKey, catalog.format(.offlinePracticeUsualSit, ["minutes": String(minutes)]),
                    PracticeRun(id: Self.preparedRunID, plan: .meditation(sit))
                ))
        }
        var builtIn: [(key: String, name: String, run: PracticeRun)] = []
        for preset in try await services.breathing.presets() {
            // Named as a started preset is (the log keeps the English name of a built-in).
            let plan = preset.plan(catalog: .shared(for: .english))
            try plan.validate()
            let run = PracticeRun(
                id: Self.preparedRunID, plan: .breathing(plan, TimelineRun(timeline: try plan.timeline())))
            let entry = ("breathing.\(preset.id)", preset.displayName(catalog), run)
            if preset.isBuiltIn { builtIn.append(entry) } else { prepared.append(entry) }
        }
        for program in try await services.workouts.programs() {
            let plan = program.plan(catalog: catalog)
            let run = PracticeRun(
                id: Self.preparedRunID, plan: .workout(plan, TimelineRun(timeline: try plan.timeline())))
            let entry = ("workout.\(program.id)", program.displayName(catalog), run)
            if program.isBuiltIn { builtIn.append(entry) } else { prepared.append(entry) }
        }
        return prepared + builtIn
    }

    /// The first 16 hex digits of the SHA-256 of the practice and its name as sorted JSON.
    private static func version(of practice: PreparedPractice, name: String) throws -> String {
        struct Versioned: Encodable {
            var practice: PreparedPractice
            var name: String
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let digest = SHA256.hash(data: try encoder.encode(Versioned(practice: practice, name: name)))
        return digest.prefix(8).map { String(format: "%02x", $0) }.joined()
    }
}

extension PreparedPractice {
    /// The plan parts of a run's stored form.
    init(_ stored: PracticeRun.Stored) {
        self.init(
            kind: stored.kind, meditation: stored.meditation, preset: stored.preset, breathing: stored.breathing,
            workout: stored.workout)
    }
}
