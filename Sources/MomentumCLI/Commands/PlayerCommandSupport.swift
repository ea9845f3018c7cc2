import Foundation
import MomentumCore
import MomentumServices

/// The `--plan` output every player command shares: the timeline as pretty, sorted JSON.
enum TimelineJSON {
    static func text(_ timeline: Timeline) throws -> String { try JSONOutput.encode(timeline) + "\n" }
}

extension CommandContext {
    /// The cue player for a session: silent, the injected one, the system's, or the bell.
    func cuePlayer(soundOn: Bool, session: Session) -> any CuePlayer {
        guard soundOn else { return SilentCuePlayer() }
        if let make = makeCuePlayer { return make(session.dataDirectory) }
        let bell = BellCuePlayer(output: isInteractive ? output : errors)
        guard let command = SystemCuePlayer.detect(environment: environment) else {
            errors.write(session.catalog[.playerNoSound] + "\n")
            return bell
        }
        return SystemCuePlayer(
            command: command, cache: CueSoundCache(dataDirectory: session.dataDirectory), fallback: bell,
            failure: soundFailure)
    }

    /// The Morse player for a session: silent without sound or without a system player, else
    /// the injected one or the system's.
    func morsePlayer(soundOn: Bool, tone: MorseTone, session: Session) -> any MorseSoundPlayer {
        guard soundOn else { return SilentMorsePlayer() }
        if let make = makeMorsePlayer { return make(tone, session.dataDirectory) }
        guard let command = SystemCuePlayer.detect(environment: environment) else {
            errors.write(session.catalog[.morseNoSound] + "\n")
            return SilentMorsePlayer()
        }
        return SystemMorsePlayer(command: command, tone: tone, dataDirectory: session.dataDirectory)
    }

    /// The ambient player for a timeline's bed: silent without sound, without a bed, for
    /// people's own files (not streamed yet) or with no player that can stream; else the
    /// injected one or the system's.
    func ambientPlayer(for timeline: Timeline, soundOn: Bool, catalog: StringCatalog) -> any AmbientPlayer {
        guard soundOn, let choice = timeline.ambient, choice.volume > 0,
            case .generator(let generator) = AmbientCatalog.builtIn.sound(id: choice.id)?.source,
            generator != .silent
        else { return SilentAmbientPlayer() }
        if let make = makeAmbientPlayer { return make(generator, choice.volume) }
        guard let command = PipedAmbientPlayer.detect(environment: environment) else {
            errors.write(catalog[.playerNoAmbientPlayer] + "\n")
            return SilentAmbientPlayer()
        }
        return PipedAmbientPlayer(
            command: command, generator: generator, volume: choice.volume, seed: UInt64.random(in: 1...UInt64.max))
    }

    /// Says how a played practice ended, from the ending the one ``PracticeFinisher`` reports
    /// (the same for meditation, breathing and workouts).
    func reportEnding(_ ending: PracticeEnding, catalog: StringCatalog) {
        // Said after the practice, not during it: a line in the middle would break the live screen.
        if soundFailure.hasFailed { errors.write(catalog[.playerSoundFailed] + "\n") }
        let words = DurationFormatting.words(ending.practiced, language: catalog.language)
        if ending.outcome == .tooShortToLog {
            output.write(catalog.format(.playerTooShortToLog, ["duration": words]) + "\n")
        } else if !ending.isLogged {
            output.write(catalog[.playerDiscarded] + "\n")
        } else if ending.kind == .meditation {
            output.write(catalog.format(.playerLogged, ["duration": words]) + "\n")
        } else {
            // English reads "of breathing"; German keeps its capital noun ("Atmung").
            let name = catalog[ending.kind.nameKey]
            let practice = catalog.language == .english ? name.lowercased() : name
            output.write(catalog.format(.playerLoggedPractice, ["duration": words, "practice": practice]) + "\n")
        }
    }
}
