import Foundation
import MomentumCore
import MomentumServices

/// Makes a cue audible.
public protocol CuePlayer: Sendable {
    /// Gets ready to play (e.g. renders sounds) before the sit begins, so cues are never late.
    func prepare()
    /// Plays `sound` now, without waiting for it to finish.
    func play(_ sound: CueSound)
}

/// Plays nothing: `--no-sound`.
public struct SilentCuePlayer: CuePlayer {
    public init() {}
    public func prepare() {}
    public func play(_ sound: CueSound) {}
}

/// Rings the terminal bell: the fallback when no audio player is found.
public struct BellCuePlayer: CuePlayer {
    let output: any TextOutput
    public init(output: any TextOutput) { self.output = output }
    public func prepare() {}
    public func play(_ sound: CueSound) {
        // The phase gong's three strikes ring three times.
        output.write(String(repeating: "\u{07}", count: sound == .phaseGong ? 3 : 1))
    }
}

/// Plays cue sounds through the system's audio player (`paplay`, `pw-play`, `aplay`, `afplay` or
/// `ffplay`), falling back to the bell if the player fails (no audio device, say).
public final class SystemCuePlayer: CuePlayer {
    /// A player program and how to pass it a file.
    public struct Command: Sendable, Equatable {
        public var executable: String
        public var arguments: [String]
    }

    private let command: Command
    private let cache: CueSoundCache
    private let fallback: BellCuePlayer
    private let state: FailureFlag

    /// `failure` is marked when the player fails (the command tells the person once).
    public convenience init(command: Command, cache: CueSoundCache, fallback: BellCuePlayer) {
        self.init(command: command, cache: cache, fallback: fallback, failure: FailureFlag())
    }

    init(command: Command, cache: CueSoundCache, fallback: BellCuePlayer, failure: FailureFlag) {
        self.command = command
        self.cache = cache
        self.fallback = fallback
        self.state = failure
    }

    /// The first known player found on `PATH`, in order of preference.
    public static func detect(environment: [String: String]) -> Command? {
        let candidates: [(String, [String])] = [
            ("paplay", []), ("pw-play", []), ("aplay", ["-q"]), ("afplay", []), ("play", ["-q"]),
            ("ffplay", ["-nodisp", "-autoexit", "-loglevel", "quiet"]),
        ]
        return firstOnPath(candidates, environment: environment)
    }

    /// The first of `candidates` (a program's name and its arguments) that is on `PATH`.
    static func firstOnPath(_ candidates: [(String, [String])], environment: [String: String]) -> Command? {
        let directories = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for (name, arguments) in candidates {
            for directory in directories {
                let path = directory + "/" + name
                if FileManager.default.isExecutableFile(atPath: path) {
                    return Command(executable: path, arguments: arguments)
                }
            }
        }
        return nil
    }

    public func prepare() {
        // try?: rendering ahead only saves time at the first cue; a sound that fails here is
        // rendered again when it is played.
        for sound in CueSound.allCases { _ = try? cache.file(for: sound) }
    }

    public func play(_ sound: CueSound) {
        // try?: a sound that cannot be rendered or cached (the data folder full or read-only)
        // rings the bell in its place, so the cue is still heard.
        guard !state.hasFailed, let file = try? cache.file(for: sound) else {
            fallback.play(sound)
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command.executable)
        process.arguments = command.arguments + [file.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let state = self.state
        let fallback = self.fallback
        process.terminationHandler = { finished in
            if finished.terminationStatus != 0 && !state.hasFailed {
                state.markFailed()
                fallback.play(sound)
            }
        }
        do {
            try process.run()
        } catch {
            state.markFailed()
            fallback.play(sound)
        }
    }
}

/// Remembers that the system player failed once. `@unchecked Sendable`: `failed` is only
/// touched while `lock` is held.
final class FailureFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var failed = false
    var hasFailed: Bool { lock.withLock { failed } }
    func markFailed() { lock.withLock { failed = true } }
}
