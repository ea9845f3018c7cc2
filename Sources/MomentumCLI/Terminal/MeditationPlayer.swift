import Foundation
import MomentumCore

/// Plays a sit in the terminal: shows it, sounds its cues on time, plays its ambient bed (from
/// the countdown on, fading on pause, resume and stop), and answers space (pause or resume) and
/// `q` (stop). All timing comes from the sit's run; the player only asks it.
struct MeditationPlayer {
    var sit: MeditationSit<ContinuousClock.Instant>
    var screen: MeditationScreen
    let sound: any CuePlayer
    var ambient: any AmbientPlayer = SilentAmbientPlayer()
    let events: any PlayerEventSource
    let catalog: StringCatalog

    /// How a sit ended, for the command to log.
    struct Ending {
        var outcome: MeditationOutcome
        /// Whether the person chose to keep an early stop (always true otherwise).
        var keep: Bool
    }

    static let space = UInt8(ascii: " ")
    static let stopKeys: Set<UInt8> = [UInt8(ascii: "q"), UInt8(ascii: "Q"), 3, 4, 27]

    mutating func play() async throws -> Ending {
        sound.prepare()
        try sit.start(at: events.now)
        ambient.start()
        var lastChecked: ContinuousClock.Instant? = nil
        while true {
            let now = events.now
            for cue in sit.run.cues(after: lastChecked, through: now) {
                if let cueSound = cue.sound { sound.play(cueSound) }
            }
            lastChecked = now
            let phase = sit.phase(at: now)
            screen.show(phase: phase, state: sit.run.state(at: now), affirmation: sit.affirmation(for: phase))
            if sit.run.isCompleted(at: now) {
                // The end gong has started; now the bed fades out under it.
                await ambient.stop()
                return Ending(outcome: sit.outcome(at: now), keep: true)
            }
            switch await events.next(until: sit.run.wakeUp(after: now)) {
            case .tick, .straightKey:
                continue
            case .key(Self.space):
                let instant = events.now
                if sit.run.pausedSince == nil {
                    try sit.pause(at: instant)
                    ambient.pause()
                } else {
                    try sit.resume(at: instant)
                    ambient.resume()
                }
            case .key(let key) where Self.stopKeys.contains(key):
                return try await stop()
            case .key:
                continue
            case nil:
                // No key can come and nothing is scheduled (paused with input closed): end here.
                return try await stop()
            }
        }
    }

    private mutating func stop() async throws -> Ending {
        let instant = events.now
        let wasCompleted = sit.run.isCompleted(at: instant)
        let outcome = try sit.stop(at: instant)
        if !wasCompleted, let finalSound = sit.soundWhenFinishedByPerson { sound.play(finalSound) }
        await ambient.stop()
        screen.show(phase: sit.phase(at: instant), state: sit.run.state(at: instant), affirmation: nil)
        guard outcome.asksToKeep else { return Ending(outcome: outcome, keep: true) }
        let duration = DurationFormatting.words(outcome.meditated, language: catalog.language)
        var screen = self.screen
        let keep = await KeepQuestion.ask(
            catalog.format(.playerKeepEarlyStop, ["duration": duration]), events: events
        ) { text, newline in screen.say(text, newline: newline) }
        self.screen = screen
        return Ending(outcome: outcome, keep: keep)
    }
}
