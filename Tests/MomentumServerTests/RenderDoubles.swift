import Dispatch
import Foundation
import Hummingbird
import HummingbirdTesting
import MomentumAudio
import MomentumCore
import Synchronization

@testable import MomentumServer

/// A server whose rendering the test sets: its limits and where the audio comes from.
struct RenderTestServer {
    let base: TestServer
    let router: Router<BasicRequestContext>

    init(limits: RenderLimits, rendering: AudioRendering = .live) async throws {
        base = try await TestServer()
        var configuration = base.configuration
        configuration.renderLimits = limits
        var dependencies = ServerDependencies(household: base.household, version: "test-version")
        dependencies.rendering = rendering
        router = buildRouter(configuration: configuration, dependencies: dependencies)
    }

    var cacheFolder: URL { base.configuration.dataDirectory.appendingPathComponent("cache/renders") }

    /// The names in the render cache's folder, sorted.
    func cacheContents() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cacheFolder.path)) ?? []).sorted()
    }

    func test<Value>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await Application(router: router).test(.router, body)
    }
}

/// Renders that stop at their first block until the test lets them go, and say when they got there.
final class RenderHold: Sendable {
    /// Yields once for each render that reached its first block.
    let arrivals: AsyncStream<Void>
    private let arrived: AsyncStream<Void>.Continuation
    private let gate = DispatchSemaphore(value: 0)
    /// Blocks rendered by every source so far.
    let blocksRendered = Mutex(0)

    init() {
        (arrivals, arrived) = AsyncStream.makeStream()
    }

    /// Sources of `frameCount` silent frames that hold at their first block.
    func rendering(frameCount: Int = 8_000) -> AudioRendering {
        AudioRendering { _, format throws(RenderError) in
            HeldSource(hold: self, format: format, frameCount: frameCount)
        }
    }

    /// Lets one held render go on.
    func release() { gate.signal() }

    fileprivate func wait() {
        arrived.yield()
        gate.wait()
    }
}

private struct HeldSource: AudioSource {
    let hold: RenderHold
    let format: AudioFormat
    let frameCount: Int
    private var position = 0

    init(hold: RenderHold, format: AudioFormat, frameCount: Int) {
        self.hold = hold
        self.format = format
        self.frameCount = frameCount
    }

    mutating func render(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        if position == 0 { hold.wait() }
        let frames = min(buffer.count / format.channels, frameCount - position)
        guard frames > 0 else { return 0 }
        for index in 0..<frames * format.channels { buffer[index] = 0 }
        position += frames
        hold.blocksRendered.withLock { $0 += 1 }
        return frames
    }
}

extension AudioRendering {
    /// Quiet sources of `frameCount` frames, whatever the timeline: for limits, not sound.
    static func quiet(frameCount: Int) -> AudioRendering {
        AudioRendering { _, format throws(RenderError) in QuietSource(format: format, frameCount: frameCount) }
    }
}

/// `frameCount` frames of silence, counting the blocks it renders.
struct QuietSource: AudioSource {
    let format: AudioFormat
    let frameCount: Int
    private(set) var position = 0

    init(format: AudioFormat, frameCount: Int) {
        self.format = format
        self.frameCount = frameCount
    }

    mutating func render(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        let frames = min(buffer.count / format.channels, frameCount - position)
        guard frames > 0 else { return 0 }
        for index in 0..<frames * format.channels { buffer[index] = 0 }
        position += frames
        return frames
    }
}
