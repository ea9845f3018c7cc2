import Foundation
import MomentumAudio
import MomentumCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Plays a practice's ambient bed while it runs: fading in at the start, out and in again on
/// pause and resume, and out at the end (after the end gong has started).
public protocol AmbientPlayer: Sendable {
    func start()
    func pause()
    func resume()
    /// Fades out and returns once the fade has been played (or a few seconds at most).
    func stop() async
}

/// No ambient sound: `--no-sound`, a silent choice, or no player that can stream.
public struct SilentAmbientPlayer: AmbientPlayer {
    public init() {}
    public func start() {}
    public func pause() {}
    public func resume() {}
    public func stop() async {}
}

/// Streams the bed as raw 16-bit PCM into a system player's standard input (`paplay`, `pw-play`,
/// `aplay`, sox's `play` or `ffplay`), generated just ahead of what is heard.
///
/// The pipe to the player is shrunk to one page where the system allows it, so a pause is heard
/// within about the player's own latency (~0.1 s), not seconds later. If the player fails (no
/// audio device), the bed simply stops; cues play on.
///
/// `@unchecked Sendable`: `stream`, `stopping` and `process` are only touched while `lock` is held.
public final class PipedAmbientPlayer: AmbientPlayer, @unchecked Sendable {
    /// The live bed's format: stereo, so the two channels carry independent beds (a wide space).
    public static let format = AudioFormat.liveAmbient

    private let command: SystemCuePlayer.Command
    private let lock = NSLock()
    private var stream: AmbientStream
    private var stopping = false
    private var process: Process?
    private let finished = DispatchSemaphore(value: 0)
    private var started = false
    private var written = 0
    /// Frames handed to the player so far.
    var framesWritten: Int { lock.withLock { written } }

    public init(command: SystemCuePlayer.Command, generator: AmbientGenerator, volume: Double, seed: UInt64) {
        self.command = command
        stream = AmbientStream(generator: generator, volume: volume, format: Self.format, seed: seed)
    }

    /// The first player on `PATH` that can play raw PCM from its standard input, with the
    /// arguments that say what it gets. (`afplay` cannot, so on a Mac the bed needs sox or ffplay.)
    public static func detect(environment: [String: String]) -> SystemCuePlayer.Command? {
        let rate: String = String(format.sampleRate)
        let channels: String = String(format.channels)
        let layout: String = format.channels == 2 ? "stereo" : "mono"
        let paplay: [String] = [
            "--raw", "--format=s16le", "--rate=" + rate, "--channels=" + channels, "--latency-msec=100",
        ]
        let pwPlay: [String] = ["--format=s16", "--rate=" + rate, "--channels=" + channels, "--latency=100ms", "-"]
        let aplay: [String] = ["-q", "-t", "raw", "-f", "S16_LE", "-r", rate, "-c", channels, "--buffer-time=100000"]
        let play: [String] = ["-q", "-t", "raw", "-r", rate, "-e", "signed", "-b", "16", "-L", "-c", channels, "-"]
        let ffplay: [String] = [
            "-nodisp", "-loglevel", "quiet", "-f", "s16le", "-ar", rate, "-ch_layout", layout, "-i", "-",
        ]
        let candidates: [(String, [String])] = [
            ("paplay", paplay), ("pw-play", pwPlay), ("aplay", aplay), ("play", play), ("ffplay", ffplay),
        ]
        return SystemCuePlayer.firstOnPath(candidates, environment: environment)
    }

    public func start() {
        lock.withLock {
            guard !started else { return }
            started = true
            stream.fadeIn()
        }
        // A player that goes away must not take the program with it.
        signal(SIGPIPE, SIG_IGN)
        let pipe = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command.executable)
        process.arguments = command.arguments
        process.standardInput = pipe
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            finished.signal()
            return
        }
        lock.withLock { self.process = process }
        let descriptor = pipe.fileHandleForWriting.fileDescriptor
        #if os(Linux)
            let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ
            _ = fcntl(descriptor, setPipeSize, 4096)
        #endif
        let thread = Thread { [self] in
            feed(descriptor)
            // try?: the feed is over; a pipe the player already closed has nothing left to lose.
            try? pipe.fileHandleForWriting.close()
            // The player plays what it holds, then ends: the fade is heard before we go on.
            process.waitUntilExit()
            finished.signal()
        }
        thread.name = "ambient"
        thread.start()
    }

    public func pause() { lock.withLock { stream.fadeOut() } }
    public func resume() { lock.withLock { stream.fadeIn() } }

    public func stop() async {
        let wasStarted = lock.withLock {
            stopping = true
            stream.fadeOut()
            return started
        }
        guard wasStarted else { return }
        // The fade takes 1.5 s of audio; a player stuck on a busy device gets a little longer.
        let finished = self.finished
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                _ = finished.wait(timeout: .now() + 3)
                done.resume()
            }
        }
    }

    /// Writes blocks until the stream has faded out after `stop`, or the player has gone. The
    /// pipe's back-pressure paces the loop: it runs only as fast as the player plays.
    private func feed(_ descriptor: Int32) {
        while true {
            let block: [Int16]? = lock.withLock {
                if stopping && stream.isSilent { return nil }
                return stream.renderPCM(frames: 1024)
            }
            guard let block else { return }
            let complete = block.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return true }
                var offset = 0
                while offset < bytes.count {
                    let written = write(descriptor, base + offset, bytes.count - offset)
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else { return false }
                    offset += written
                }
                return true
            }
            guard complete else { return }
            lock.withLock { written += block.count / Self.format.channels }
        }
    }
}
