import Foundation
import MomentumAudio
import MomentumCore

/// Makes Morse audible: a drill item, a keyed dit or dah, a station's transmission.
public protocol MorseSoundPlayer: Sendable {
    /// Plays `keying` now, without waiting for it to end; `text` says what it is (`K`, `.`,
    /// `CQ CQ DE W1AW K`), for a transcript or a test.
    func play(_ keying: MorseKeying, text: String)
    /// Plays `keying` as heard on `band` (its noise, fading, other station and chirp; the hand
    /// is already in the elements), with the other station at `timing`, its noise drawn from
    /// `seed`. Players that cannot make a band play the keying clean.
    func play(_ keying: MorseKeying, text: String, on band: MorseBandConditions, timing: MorseTiming, seed: UInt64)
}

extension MorseSoundPlayer {
    public func play(
        _ keying: MorseKeying, text: String, on band: MorseBandConditions, timing: MorseTiming, seed: UInt64
    ) {
        play(keying, text: text)
    }

    /// Plays `keying` (keyed at `timing`) clean, or on `band` as its sender's hand keys it, that
    /// hand and the noise drawn from `seed`; returns what sounds, whose length is the sound's.
    @discardableResult
    func play(
        _ keying: MorseKeying, text: String, on band: MorseBandConditions?, timing: MorseTiming, seed: UInt64
    ) -> MorseKeying {
        guard let band else {
            play(keying, text: text)
            return keying
        }
        let keyed = MorseKeying(elements: band.fist.keyed(keying.elements, unit: timing.unit, seed: seed))
        play(keyed, text: text, on: band.withSteadyHand, timing: timing, seed: seed)
        return keyed
    }
}

/// Plays nothing: `--no-sound`, or no system player.
public struct SilentMorsePlayer: MorseSoundPlayer {
    public init() {}
    public func play(_ keying: MorseKeying, text: String) {}
}

/// Plays Morse through the system's audio player (the one cues use): each keying is rendered
/// with the course's tone into a short WAV file, which the player reads and which is removed
/// when it is done. If the player fails once (no audio device), the rest stays silent.
public final class SystemMorsePlayer: MorseSoundPlayer {
    private let command: SystemCuePlayer.Command
    private let tone: MorseTone
    private let directory: URL
    private let state = FailureFlag()

    public init(command: SystemCuePlayer.Command, tone: MorseTone, dataDirectory: URL) {
        self.command = command
        self.tone = tone
        directory = dataDirectory.appendingPathComponent("cache/morse", isDirectory: true)
    }

    public func play(_ keying: MorseKeying, text: String) {
        play(keying) { format in
            var renderer = MorseRenderer(elements: keying.elements, tone: tone, format: format)
            return renderer.renderAll()
        }
    }

    public func play(
        _ keying: MorseKeying, text: String, on band: MorseBandConditions, timing: MorseTiming, seed: UInt64
    ) {
        let tone = self.tone
        play(keying) { format in
            var renderer = try BandConditionsRenderer(
                elements: keying.elements, timing: timing, tone: tone, conditions: band, format: format, seed: seed)
            return renderer.renderAll()
        }
    }

    /// Renders `keying` with `samples` into a WAV and starts the player on it.
    private func play(_ keying: MorseKeying, samples: (AudioFormat) throws -> [Float]) {
        // try?: a keying whose WAV cannot be written (the data folder's cache full or read-only)
        // stays silent, as a failed player does (see above); the drill itself goes on.
        guard !state.hasFailed, !keying.elements.isEmpty, let file = try? render(samples) else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command.executable)
        process.arguments = command.arguments + [file.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let state = self.state
        process.terminationHandler = { finished in
            // try?: the WAV was only for this playing; one left in cache/morse takes a little room.
            try? FileManager.default.removeItem(at: file)
            if finished.terminationStatus != 0 { state.markFailed() }
        }
        do {
            try process.run()
        } catch {
            // try?: as above: the unplayed WAV in cache/morse is ours and holds nothing else.
            try? FileManager.default.removeItem(at: file)
            state.markFailed()
        }
    }

    /// The WAV of `samples` (made at 44.1 kHz) in cache/morse.
    func render(_ samples: (AudioFormat) throws -> [Float]) throws -> URL {
        let format = try AudioFormat(sampleRate: 44_100)
        let data = try WAVFile.encode(samples: samples(format), format: format)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("\(UUID().uuidString).wav")
        try data.write(to: url)
        return url
    }
}
