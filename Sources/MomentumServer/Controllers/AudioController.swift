import Crypto
import Foundation
import Hummingbird
import MomentumAudio
import MomentumCore
import MomentumServices

/// Audio as cacheable files: a whole practice rendered by the same renderer as `momentum render`
/// (`/api/v1/render/{kind}.wav`), each cue sound (`/api/v1/sounds/{cue}.wav`) and each built-in
/// ambient bed as a seamless loop (`/api/v1/sounds/ambient/{id}.wav`).
///
/// A render is made on a thread of its own and sent as it is made: a few at a time
/// (``RenderLimits``), never over ``Timeline/longestRender``, and stopped when the listener goes.
/// Renders that fit are kept in the data directory's cache under their ETag, a hash of what was
/// rendered, so asking again costs nothing and a browser revalidates with `If-None-Match`.
struct AudioController {
    let services: MomentumServices
    let dataDirectory: URL
    let rendering: AudioRendering
    let slots: RenderSlots
    let renderCache: RenderCache
    let fileIO = FileIO()

    /// What every person's audio routes share: the render slots and the cache (a render is the
    /// same whoever asks for it).
    struct Shared: Sendable {
        let dataDirectory: URL
        let slots: RenderSlots
        let renderCache: RenderCache

        init(configuration: ServerConfiguration) {
            dataDirectory = configuration.dataDirectory
            slots = RenderSlots(limits: configuration.renderLimits)
            renderCache = RenderCache(
                folder: dataDirectory.appendingPathComponent("cache/renders", isDirectory: true),
                capacity: configuration.renderLimits.cacheBytes)
            renderCache.removeLeftovers()
        }
    }

    init(services: MomentumServices, shared: Shared, rendering: AudioRendering = .live) {
        self.services = services
        dataDirectory = shared.dataDirectory
        self.rendering = rendering
        slots = shared.slots
        renderCache = shared.renderCache
    }

    /// Bump when the renderer's output changes, so cached renders are not served.
    static let renderVersion = 2

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get("render/{kind}.wav", use: render)
        group.get("sounds/{cue}.wav", use: sound)
        group.get("sounds/ambient/{id}.wav", use: ambientLoop)
    }

    @Sendable func render(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let timeline = try await timeline(kind: context.parameters.get("kind") ?? "", request: request)
        let rate = try query["rate"].map { text in
            guard let value = Int(text) else { throw APIError.badRequest(.apiRateNotWhole) }
            return value
        }
        let format: AudioFormat
        do {
            format = try AudioFormat(sampleRate: rate ?? 44_100, channels: query["stereo"] == "true" ? 2 : 1)
        } catch {
            throw APIError.invalid(.apiRateRange)
        }
        do {
            try timeline.checkRenderLength()
        } catch {
            throw APIError(.unprocessableContent, code: "render_too_long", describing: error)
        }
        let source: any AudioSource
        do {
            source = try rendering.makeSource(timeline, format)
        } catch .openEnded {
            throw APIError.invalid(.apiOpenEndedNoRender)
        } catch {
            context.logger.notice("ambient sound not rendered", metadata: ["error": "\(error)"])
            throw APIError.invalid(.apiAmbientUnrenderable)
        }
        let job: RenderJob
        do {
            job = try RenderJob(source: source)
        } catch {
            throw APIError.invalid(.errorAudioTooLong, code: "render_too_long")
        }
        let canonical = try JSONResponse<Timeline>.encoder.encode(timeline)
        let tag = Self.tag(
            Data("v\(Self.renderVersion)|\(format.sampleRate)|\(format.channels)|".utf8) + canonical)
        if request.headers[.ifNoneMatch] == "\"\(tag)\"" { return Self.notModified(tag: tag) }
        var headers = HTTPFields()
        headers[.contentType] = "audio/wav"
        headers[.cacheControl] = "private, max-age=86400"
        headers[.eTag] = "\"\(tag)\""
        headers[.contentDisposition] = "attachment; filename=\"momentum-\(timeline.practice.rawValue).wav\""
        if let cached = renderCache.open(tag: tag) {
            return Response(status: .ok, headers: headers, body: cached.body())
        }
        let slot = try await Self.takeSlot(slots)
        if renderCache.keeps(byteCount: job.byteCount) { job.keep(in: renderCache, tag: tag) }
        return Response(status: .ok, headers: headers, body: job.body(holding: slot, logger: context.logger))
    }

    @Sendable func sound(_ request: Request, context: BasicRequestContext) async throws -> Response {
        guard let name = context.parameters.get("cue"), let cue = CueSound(rawValue: name) else {
            throw APIError.notFound(.apiNoCueSound)
        }
        let file = try CueSoundCache(dataDirectory: dataDirectory).file(for: cue)
        let tag = Self.tag(Data(file.lastPathComponent.utf8))
        if request.headers[.ifNoneMatch] == "\"\(tag)\"" { return Self.notModified(tag: tag) }
        return try await fileResponse(file, tag: tag, cacheControl: "public, max-age=604800", context: context)
    }

    /// A built-in ambient bed as a seamless 30-second loop at volume 1, for the browser to loop
    /// under a live practice with its own volume and fades. Made once, then kept in the cache.
    @Sendable func ambientLoop(_ request: Request, context: BasicRequestContext) async throws -> Response {
        guard
            let id = context.parameters.get("id"), let sound = AmbientCatalog.builtIn.sound(id: id),
            case .generator(let generator) = sound.source, generator != .silent
        else { throw APIError.notFound(.apiNoAmbient) }
        let format = AudioFormat.liveAmbient
        let tag = Self.tag(
            Data("ambient-loop|v\(Self.renderVersion)|\(id)|\(format.sampleRate)|\(format.channels)".utf8))
        if request.headers[.ifNoneMatch] == "\"\(tag)\"" { return Self.notModified(tag: tag) }
        let folder = dataDirectory.appendingPathComponent("cache/ambient", isDirectory: true)
        let file = folder.appendingPathComponent("\(tag).wav")
        if !FileManager.default.fileExists(atPath: file.path) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var loop = AmbientLoop(generator: generator, format: format)
            try WAVFileWriter.render(&loop, to: file)
        }
        return try await fileResponse(file, tag: tag, cacheControl: "public, max-age=604800", context: context)
    }

    /// The practice to render from `?plan=` (the same JSON as the timeline routes), with an
    /// optional `?ambient=` and `?volume=` bed under breathing and workouts.
    private func timeline(kind: String, request: Request) async throws -> Timeline {
        let query = request.uri.queryParameters
        let planJSON = Data((query["plan"].map(String.init) ?? "{}").utf8)
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try RequestBody.decode(T.self, from: planJSON) }
        var timeline: Timeline
        switch kind {
        case "meditation":
            let plan =
                if query["plan"] == nil { try await services.settings.load().meditation } else {
                    try decode(MeditationPlan.self)
                }
            return try plan.timeline()
        case "breathing":
            timeline = try await decode(BreathingPlanBody.self).plan(breathing: services.breathing).timeline()
        case "workout":
            timeline = try decode(WorkoutPlanBody.self).plan().timeline()
        default:
            throw APIError.notFound(.apiNotRendered)
        }
        if let ambient = try RenderAmbient.choice(
            id: query["ambient"].map(String.init), volume: query["volume"].map(String.init))
        {
            timeline.ambient = ambient
        }
        return timeline
    }

    private func fileResponse(_ file: URL, tag: String, cacheControl: String, context: BasicRequestContext)
        async throws -> Response
    {
        let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        let body = try await fileIO.loadFile(path: file.path, context: context)
        var headers = HTTPFields()
        headers[.contentType] = "audio/wav"
        headers[.contentLength] = "\(size)"
        headers[.cacheControl] = cacheControl
        headers[.eTag] = "\"\(tag)\""
        return Response(status: .ok, headers: headers, body: body)
    }

    /// A turn to render, or 503 with `Retry-After` when every turn is taken.
    static func takeSlot(_ slots: RenderSlots) async throws -> RenderSlot {
        do {
            return try await slots.take(connection: ClientConnection.current?.channel)
        } catch is RenderSlots.Busy {
            let seconds = Int(slots.limits.retryAfter.components.seconds)
            var busy = APIError(
                .serviceUnavailable, code: "render_busy", key: .errorRenderBusy, arguments: ["seconds": "\(seconds)"])
            busy.headers[.retryAfter] = "\(seconds)"
            throw busy
        }
    }

    static func notModified(tag: String) -> Response {
        Response(status: .notModified, headers: [.eTag: "\"\(tag)\""])
    }

    /// A short, stable hash of `data` for ETags and cache file names.
    static func tag(_ data: Data) -> String {
        SHA256.hash(data: data).prefix(16).map { String(format: "%02x", $0) }.joined()
    }
}
