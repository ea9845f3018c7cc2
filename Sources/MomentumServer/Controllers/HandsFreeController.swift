import Foundation
import Hummingbird
import MomentumAudio
import MomentumCore
import MomentumServices

/// `/api/v1/morse/hands-free…`: hands-free copy in the browser. The form's view, the session as
/// one WAV stream (`hands-free.wav?plan=`, rendered like every other render: a few at a time, kept
/// in the cache under a hash of the checked plan, so a second listen costs nothing), and logging
/// what was listened to.
///
/// The plan travels in the URL, so any server of a household answers it the same.
struct HandsFreeController {
    let handsFree: HandsFreeService
    let morse: MorseCourseService
    let settings: SettingsService
    let rendering: AudioRendering
    let slots: RenderSlots
    let renderCache: RenderCache
    let metrics: ServerMetrics

    /// Bump when the session's sound changes, so cached renders are not served.
    static let renderVersion = 1

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get("hands-free", use: view)
        group.get("hands-free.wav", use: audio)
        group.post("hands-free/items", use: items)
        group.post("hands-free/listened", use: listened)
    }

    struct Items: Encodable {
        /// What is sent and then said, in order.
        var items: [HandsFreeItem]
    }

    /// `POST hands-free/items`: the plan checked and its items, before any sound is made: the
    /// page shows a refusal's sentence from here, and the items after the session, to check the
    /// copy against.
    @Sendable func items(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Items> {
        let plan = try await RequestBody.decode(HandsFreePlanBody.self, from: request)
            .plan(course: try await morse.courseSettings())
        return JSONResponse(Items(items: plan.items()))
    }

    @Sendable func view(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<HandsFreeView> {
        let catalog = StringCatalog.shared(for: try await LanguageChoice.language(for: request, settings: settings))
        let problem: SpeechError?
        do {
            _ = try rendering.makeSpeech()
            problem = nil
        } catch {
            problem = error
        }
        return JSONResponse(try await handsFree.view(speech: problem, catalog: catalog))
    }

    @Sendable func audio(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let planJSON = Data((request.uri.queryParameters["plan"].map(String.init) ?? "").utf8)
        guard !planJSON.isEmpty else { throw APIError.badRequest(.apiBodyNeeded) }
        let plan = try RequestBody.decode(HandsFreePlanBody.self, from: planJSON)
            .plan(course: try await morse.courseSettings())
        let format = AudioFormat.runStream
        let speech = try rendering.makeSpeech()
        let canonical = try JSONResponse<HandsFreePlanBody>.encoder.encode(HandsFreePlanBody(plan))
        let tag = AudioController.tag(
            Data("hands-free|v\(Self.renderVersion)|\(format.sampleRate)|\(format.channels)|".utf8) + canonical)
        if request.headers[.ifNoneMatch] == "\"\(tag)\"" { return AudioController.notModified(tag: tag) }
        var headers = HTTPFields()
        headers[.contentType] = "audio/wav"
        headers[.cacheControl] = "private, max-age=86400"
        headers[.eTag] = "\"\(tag)\""
        if let cached = renderCache.open(tag: tag) {
            return Response(status: .ok, headers: headers, body: cached.body())
        }
        let slot = try await AudioController.takeSlot(slots)
        let job: RenderJob
        do {
            // Speaking every item runs the engine once per item: on the render's own thread.
            job = try await RenderWorker().run { () throws -> RenderJob in
                try RenderJob(source: HandsFreeRenderer(plan: plan, speech: speech, format: format))
            }
        } catch {
            if error is AudioFileError { throw APIError.invalid(.errorAudioTooLong, code: "render_too_long") }
            throw error
        }
        if renderCache.keeps(byteCount: job.byteCount) { job.keep(in: renderCache, tag: tag) }
        return Response(status: .ok, headers: headers, body: job.body(holding: slot, logger: context.logger))
    }

    struct Listened: Decodable {
        /// The report's own id: sent twice, it is logged once.
        var id: UUID
        var plan: HandsFreePlanBody
        /// The time actually listened, in milliseconds.
        var listenedMs: Int64
        /// Whether the session played to its end.
        var finished: Bool
    }

    /// `POST hands-free/listened`: logs a Morse practice ending now when the listening rule says
    /// it counts (``HandsFreeListening``).
    @Sendable func listened(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<ListenedAnswer>
    {
        let body = try await RequestBody.decode(Listened.self, from: request)
        let plan = try body.plan.plan(course: try await morse.courseSettings())
        let listened = Duration.milliseconds(body.listenedMs)
        let record = try await handsFree.logListening(
            plan: plan, listened: listened, finished: body.finished, endedAt: nil, id: body.id)
        if let record { metrics.recordSessionLogged(kind: record.kind.rawValue) }
        let language = try await LanguageChoice.language(for: request, settings: settings)
        let text = EndingSentence.listening(listened, logged: record != nil, language: language)
        return JSONResponse(ListenedAnswer(logged: record != nil, record: record, text: text))
    }
}

/// A hands-free plan as JSON: every field but `content` may be left out and then takes the
/// course's speed and tone and the form's defaults.
struct HandsFreePlanBody: Codable, Sendable {
    var content: HandsFreePlan.Content
    var list: [String]?
    var count: Int?
    var seed: UInt64?
    var characterWPM: Double?
    var toneHertz: Double?
    var language: Language?
    var pauseMs: Int64?
    var itemGapMs: Int64?
    var repeatsMorse: Bool?

    init(_ plan: HandsFreePlan) {
        content = plan.content
        list = plan.content == .list ? plan.list : nil
        count = plan.count
        seed = plan.seed
        characterWPM = plan.timing.characterWPM
        toneHertz = plan.tone.hertz
        language = plan.language
        pauseMs = plan.pauseAfterMorse.wholeMilliseconds
        itemGapMs = plan.itemGap.wholeMilliseconds
        repeatsMorse = plan.repeatsMorse
    }

    /// The checked plan; words are sent at the character speed, without Farnsworth spacing.
    func plan(course: MorseCourseSettings) throws -> HandsFreePlan {
        let wpm = characterWPM ?? course.timing.characterWPM
        let pause = pauseMs.map { Duration.milliseconds($0) } ?? HandsFreePlan.standardPause
        return try HandsFreePlan(
            content: content, list: list ?? [], count: count ?? 20, seed: seed ?? 1,
            timing: MorseTiming(characterWPM: wpm, effectiveWPM: wpm),
            tone: toneHertz.map { try MorseTone(hertz: $0, rise: course.tone.rise) } ?? course.tone,
            language: language ?? .english, pauseAfterMorse: pause, pauseAfterSpeech: pause,
            repeatsMorse: repeatsMorse ?? true,
            itemGap: itemGapMs.map { Duration.milliseconds($0) } ?? HandsFreePlan.standardItemGap)
    }
}
