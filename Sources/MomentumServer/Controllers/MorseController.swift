import Foundation
import Hummingbird
import MomentumCore
import MomentumServices
import MomentumStoreContract

/// `/api/v1/morse/…`: the Koch course in the browser. The server keeps each session and draws,
/// keys, decodes and scores with the core; the browser only plays the elements it is given on the
/// Web Audio clock and reports what the person typed or keyed.
struct MorseController {
    let morse: MorseCourseService
    let registry: any MorseExchanges<MorseTraining>
    let contacts: any MorseExchanges<MorseContact>
    let now: @Sendable () -> Date
    let makeID: @Sendable () -> UUID
    let metrics: ServerMetrics

    /// `exchanges`: where the person's sessions and contacts are kept so that every server of the
    /// household sees them (PostgreSQL); without it, in this server's memory.
    init(
        morse: MorseCourseService, exchanges: (any MorseExchangeStore)? = nil, now: @escaping @Sendable () -> Date,
        makeID: @escaping @Sendable () -> UUID, metrics: ServerMetrics
    ) {
        self.morse = morse
        if let exchanges {
            registry = StoredMorseExchanges<MorseTraining>(store: exchanges, unknown: .apiNoMorseSession)
            contacts = StoredMorseExchanges<MorseContact>(store: exchanges, unknown: .apiNoContact)
        } else {
            registry = ExpiringRegistry<MorseTraining>(unknown: .apiNoMorseSession)
            contacts = ExpiringRegistry<MorseContact>(unknown: .apiNoContact)
        }
        self.now = now
        self.makeID = makeID
        self.metrics = metrics
    }

    /// Longest typed answer and most key signals one answer may carry.
    static let answerLimit = MorseAttempt.maximumAnswerLength
    static let signalLimit = 2000

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get("progress", use: progress)
        group.get("settings", use: settings)
        group.put("settings", use: saveSettings)
        group.patch("settings", use: changeSettings)
        group.post("decode", use: decode)
        group.get("keyer", use: keyer)
        group.get("sessions", use: history)
        group.post("sessions", use: start)
        group.get("sessions/:id", use: show)
        group.post("sessions/:id/start", use: startTraining)
        group.post("sessions/:id/answer", use: answer)
        group.post("sessions/:id/pause", use: pause)
        group.post("sessions/:id/resume", use: resume)
        group.post("sessions/:id/end", use: end)
        group.get("sessions/:id/item.wav", use: itemSound)
        group.get("call-sign", use: callSign)
        group.put("call-sign", use: saveCallSign)
        group.post("qso", use: startContact)
        group.get("qso/:id", use: showContact)
        group.post("qso/:id/send", use: send)
        group.get("qso/:id/station.wav", use: stationSound)
    }

    // MARK: Course

    @Sendable func progress(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<MorseCourseProgress.JSONForm>
    {
        JSONResponse(try await morse.overview(at: now()))
    }

    @Sendable func settings(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<MorseCourseSettings>
    {
        JSONResponse(try await morse.courseSettings())
    }

    /// `GET /morse/keyer`: the unit, tone and modes the page's paddle keyer and sidetone use.
    @Sendable func keyer(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<MorseKeyerView>
    {
        JSONResponse(try await morse.keyerView())
    }

    /// The whole settings object (every value); a bad one changes nothing.
    @Sendable func saveSettings(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<MorseCourseSettings>
    {
        let wanted = try await RequestBody.decode(MorseCourseSettings.self, from: request)
        try await morse.saveCourseSettings(wanted)
        return await JSONResponse(try morse.courseSettings())
    }

    /// Changes only the values named, e.g. `{"characterWPM": 25}`; a bad one changes nothing.
    @Sendable func changeSettings(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<MorseCourseSettings>
    {
        guard
            let body = try await RequestBody.data(of: request),
            // try?: a body that is not JSON is refused like one that is not an object: 400, a
            // settings object is needed.
            let patch = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        else { throw APIError.badRequest(.apiSettingsObjectNeeded) }
        guard
            var merged = try await JSONSerialization.jsonObject(
                with: JSONResponse<MorseCourseSettings>.encoder.encode(morse.courseSettings())) as? [String: Any]
        else { throw APIError.serverFault }
        if let unknown = patch.keys.sorted().first(where: { merged[$0] == nil }) {
            throw JSONInputError.unknownField(unknown)
        }
        SettingsController.merge(patch, into: &merged)
        let wanted = try RequestBody.decode(
            MorseCourseSettings.self, from: JSONSerialization.data(withJSONObject: merged))
        try await morse.saveCourseSettings(wanted)
        return await JSONResponse(try morse.courseSettings())
    }

    // MARK: Keying

    /// One stretch of a straight key as the browser measured it: `{"down": 62}` or `{"up": 70}`
    /// (milliseconds).
    struct KeySignalBody: Decodable {
        var signal: MorseKeySignal

        private enum CodingKeys: String, CodingKey { case down, up }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            switch (
                try container.decodeIfPresent(Double.self, forKey: .down),
                try container.decodeIfPresent(Double.self, forKey: .up)
            ) {
            case (let down?, nil): signal = .pressed(try Self.duration(down, key: .down, in: container))
            case (nil, let up?): signal = .released(try Self.duration(up, key: .up, in: container))
            default:
                throw APIError.invalid(.apiMorseSignalShape)
            }
        }

        private static func duration(
            _ milliseconds: Double, key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>
        ) throws -> Duration {
            guard milliseconds.isFinite, milliseconds > 0, milliseconds <= MorseAttempt.maximumSignalMilliseconds else {
                throw APIError.invalid(.apiMorseSignalDuration)
            }
            return .microseconds(Int64((milliseconds * 1000).rounded()))
        }
    }

    struct DecodeBody: Decodable {
        var signals: [KeySignalBody]
        /// The speed the reading starts from (default: the course's character speed).
        var wpm: Double?
        /// What the keying meant to send, for the report's characters that came out wrong.
        var expected: String?
    }

    struct DecodedResponse: Encodable {
        var text: String
        var estimatedWPM: Double
        /// Speed, weight and spacing against the ARRL model, and what went wrong.
        var report: MorseKeyingReport
    }

    /// `POST /morse/decode`: press and gap durations read as text by the core's decoder.
    @Sendable func decode(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<DecodedResponse>
    {
        let body = try await RequestBody.decode(DecodeBody.self, from: request)
        try Self.checkSignalCount(body.signals.count)
        let expectedWPM = if let wpm = body.wpm { wpm } else { try await morse.courseSettings().timing.characterWPM }
        let expected = try body.expected.map { text throws in
            guard text.count <= Self.answerLimit else {
                throw APIError.invalid(.apiMorseExpectedTooLong, ["limit": "\(Self.answerLimit)"])
            }
            return try MorseText(text)
        }
        var decoder = try MorseTimingDecoder(expectedWPM: expectedWPM)
        let reading = try decoder.read(body.signals.map(\.signal))
        return JSONResponse(
            DecodedResponse(
                text: reading.text.text, estimatedWPM: (decoder.estimatedWPM * 10).rounded() / 10,
                report: MorseKeyingReport(reading: reading, expected: expected)))
    }

    private static func checkSignalCount(_ count: Int) throws {
        guard count <= signalLimit else {
            throw APIError.invalid(.apiTooManySignals, ["limit": "\(signalLimit)", "count": "\(count)"])
        }
    }

    // MARK: Sessions

    struct StartBody: Decodable {
        var direction: MorseDirection
        var groupSize: Int?
        /// Makes the drill repeatable; without it the server picks one.
        var seed: UInt64?
        /// Receive only: the band the items are heard on (clean, the default, average-evening,
        /// contest or weak-dx).
        var conditions: MorseBandConditions.Preset?
        var at: Date?
    }

    struct ActionBody: Decodable {
        var at: Date?
    }

    /// What the person answered: typed text, dit/dah patterns (one per character, `.-`), or key
    /// signals of a straight key. None of them: no answer in time (a miss).
    struct AnswerBody: Decodable {
        var answer: String?
        var patterns: [String]?
        var signals: [KeySignalBody]?
        /// From the end of the item's sound to the answer, as the browser measured it.
        var responseMs: Double?
        var at: Date?
    }

    @Sendable func history(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<MorseWire.History>
    {
        let sessions = try await morse.sessions(limit: 100)
        return JSONResponse(MorseWire.History(sessions: sessions.map { MorseWire.HistoryLine($0) }))
    }

    @Sendable func start(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<MorseWire.Session>
    {
        let body = try await RequestBody.decode(StartBody.self, from: request)
        let instant = try ReportedInstant.instant(body.at, now: now())
        let conditions = body.conditions ?? .clean
        // Send training is the person's own keying: there is no band to hear it on.
        guard body.direction == .receive || conditions == .clean else { throw APIError.invalid(.apiBandReceiveOnly) }
        let settings = try await morse.courseSettings()
        let session = try await morse.startSession(body.direction, groupSize: body.groupSize ?? 1, at: instant)
        let training = try MorseTraining(
            id: makeID(), session: session, settings: settings, seed: body.seed ?? UInt64.random(in: .min ... .max),
            conditions: conditions)
        try await registry.add(training)
        return JSONResponse(MorseWire.Session(training, at: instant), status: .created)
    }

    @Sendable func show(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<MorseWire.Session>
    {
        let id = try sessionID(context)
        return JSONResponse(MorseWire.Session(try await registry.value(id: id), at: now()))
    }

    /// Ends the introduction: training time starts and the first item is drawn.
    @Sendable func startTraining(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<MorseWire.Session>
    {
        try await act(request, context) { training, instant in
            try MorseTraining.sessionStep { () throws(MorseSessionError) in try training.startTraining(at: instant) }
        }
    }

    @Sendable func pause(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<MorseWire.Session>
    {
        try await act(request, context) { training, instant in
            try MorseTraining.sessionStep { () throws(MorseSessionError) in try training.pause(at: instant) }
        }
    }

    /// Goes on; the item on screen is handed out again from now, so the pause is not response time.
    @Sendable func resume(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<MorseWire.Session>
    {
        try await act(request, context) { training, instant in
            try MorseTraining.sessionStep { () throws(MorseSessionError) in try training.resume(at: instant) }
        }
    }

    /// Scores the answer to the item on screen and draws the next one (none once time is up).
    @Sendable func answer(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<MorseWire.Session>
    {
        let id = try sessionID(context)
        let body = try await RequestBody.decode(AnswerBody.self, from: request, orEmpty: AnswerBody())
        let instant = try ReportedInstant.instant(body.at, now: now())
        // Checked before anything changes: `1e300` ms must be a 422, not a trap.
        let reportedResponse = try body.responseMs.map { ms throws(NumberInputError) in
            try Duration(checkingMilliseconds: ms, field: "responseMs")
        }
        let training = try await registry.update(id: id) { training in
            guard training.isWaitingForAnswer else { throw APIError.conflict(.apiMorseNoItemWaiting) }
            try training.answer(Self.givenAnswer(body), reportedResponse: reportedResponse, at: instant)
            return training
        }
        return JSONResponse(MorseWire.Session(training, at: instant))
    }

    /// Ends the session, saves it (progress, history and one practice record together) and
    /// answers with the results; a session without attempts saves nothing.
    @Sendable func end(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<MorseWire.Ending>
    {
        let id = try sessionID(context)
        let body = try await RequestBody.decode(ActionBody.self, from: request, orEmpty: ActionBody())
        let instant = try ReportedInstant.instant(body.at, now: now())
        let morse = morse
        let (training, finished) = try await registry.update(id: id) { training in
            let finished = try await training.end(at: instant) { session in
                try await morse.finish(&session, at: instant)
            }
            return (training, finished)
        }
        try await registry.remove(id: id)
        if finished.record != nil { metrics.recordSessionLogged(kind: "morse") }
        let overview = try await morse.overview(at: instant)
        let language = LanguageChoice.accepted(by: request) ?? .english
        return JSONResponse(
            MorseWire.Ending(
                training: training, finished: finished, overview: overview, at: instant, language: language))
    }

    // MARK: Helpers

    private func act(
        _ request: Request, _ context: BasicRequestContext,
        _ step: @Sendable (inout MorseTraining, Date) throws -> Void
    ) async throws -> JSONResponse<MorseWire.Session> {
        let id = try sessionID(context)
        let body = try await RequestBody.decode(ActionBody.self, from: request, orEmpty: ActionBody())
        let instant = try ReportedInstant.instant(body.at, now: now())
        let training = try await registry.update(id: id) { training in
            try step(&training, instant)
            return training
        }
        return JSONResponse(MorseWire.Session(training, at: instant))
    }

    /// The answer given: typed, read from patterns (as text), or key signals for the session's
    /// decoder; none of them, nothing.
    private static func givenAnswer(_ body: AnswerBody) throws -> MorseTraining.GivenAnswer {
        let given = [body.answer != nil, body.patterns != nil, body.signals != nil].filter { $0 }.count
        guard given <= 1 else { throw APIError.invalid(.apiMorseOneAnswerKind) }
        if let answer = body.answer {
            guard answer.count <= answerLimit else {
                throw APIError.invalid(.apiMorseAnswerTooLong, ["maximum": "\(answerLimit)"])
            }
            return .text(answer)
        }
        if let patterns = body.patterns {
            guard patterns.count <= answerLimit else {
                throw APIError.invalid(.apiMorseAnswerTooLong, ["maximum": "\(answerLimit)"])
            }
            return .text(
                try patterns.map { text in
                    guard let marks = MorseMark.marks(from: text) else {
                        throw APIError.invalid(.apiMorseNotAPattern, ["value": String(text.prefix(20))])
                    }
                    // try?: a pattern of no symbol answers `*`, which matches no character and
                    // is scored wrong, as ``MorseKeyedCharacter`` answers it.
                    return (try? MorseCode.decode(marks).displayText) ?? "*"
                }.joined())
        }
        if let signals = body.signals {
            try checkSignalCount(signals.count)
            return .signals(signals.map { MorseTraining.GivenAnswer.Signal($0.signal) })
        }
        return .nothing
    }

    /// The id in the path; `unknown` answers one that is not an id.
    func sessionID(_ context: BasicRequestContext, unknown: StringKey = .apiNoMorseSession) throws -> UUID {
        guard let text = context.parameters.get("id"), let id = UUID(uuidString: text) else {
            throw APIError.notFound(unknown, ["id": context.parameters.get("id") ?? ""])
        }
        return id
    }
}
