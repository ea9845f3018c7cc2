import Foundation
import MomentumAudio
import MomentumCore

/// How much rendering the server takes on: renders at once, how many may wait and how long, and
/// how large the cache of finished renders grows.
public struct RenderLimits: Sendable, Equatable {
    /// Renders running at once; each keeps one core busy.
    public var concurrentRenders: Int
    /// Requests that wait for a render's turn; more are answered 503 at once.
    public var waitingRenders: Int
    /// How long a request waits for its turn before it is answered 503.
    public var longestWait: Duration
    /// What `Retry-After` tells a client that was turned away.
    public var retryAfter: Duration
    /// The most bytes the render cache keeps; the renders used longest ago go first. A render
    /// larger than this is streamed without being kept.
    public var cacheBytes: Int64
    /// Audio streams (a run's `/api/v1/runs/{id}/audio`, a focus timer's
    /// `/api/v1/timers/{id}/end-sound`) sent at once; more are answered 503. Their chunks are made
    /// one at a time on one thread of their own (``TimelineStreams``), so together they never keep
    /// more than one core busy.
    public var concurrentStreams: Int
    /// How long a render or an audio stream may go unread before it gives its turn to a request
    /// that finds none (a paused player, or a client that opens responses and never reads them).
    public var stallGrace: Duration = .seconds(60)

    /// One core for rendering, the rest for answering requests: `/health` stays quick on two cores.
    public static let defaultConcurrentRenders = max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
    public static let defaultCacheBytes: Int64 = 500 << 20

    public init(
        concurrentRenders: Int = Self.defaultConcurrentRenders, waitingRenders: Int = 2,
        longestWait: Duration = .seconds(10), retryAfter: Duration = .seconds(30),
        cacheBytes: Int64 = Self.defaultCacheBytes, concurrentStreams: Int = 16
    ) {
        self.concurrentStreams = concurrentStreams
        self.concurrentRenders = concurrentRenders
        self.waitingRenders = waitingRenders
        self.longestWait = longestWait
        self.retryAfter = retryAfter
        self.cacheBytes = cacheBytes
    }
}

/// Where rendered audio comes from: the timeline renderer, or in tests a source they can hold.
public struct AudioRendering: Sendable {
    /// The audio of `timeline` in `format`; throws what the renderer finds wrong with it.
    public var makeSource: @Sendable (Timeline, AudioFormat) throws(RenderError) -> any AudioSource

    /// The speech engine of hands-free copy, or why there is none.
    public var makeSpeech: @Sendable () throws(SpeechError) -> any SpeechEngine

    public init(
        makeSource: @escaping @Sendable (Timeline, AudioFormat) throws(RenderError) -> any AudioSource,
        makeSpeech: @escaping @Sendable () throws(SpeechError) -> any SpeechEngine = {
            () throws(SpeechError) -> any SpeechEngine in try EspeakSpeech.installed()
        }
    ) {
        self.makeSource = makeSource
        self.makeSpeech = makeSpeech
    }

    /// The renderer `momentum render` uses too, and espeak-ng from the `PATH`.
    public static let live = AudioRendering { timeline, format throws(RenderError) in
        try TimelineRenderer(timeline: timeline, format: format)
    }
}
