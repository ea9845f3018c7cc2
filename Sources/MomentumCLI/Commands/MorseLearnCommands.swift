import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

extension MorseCommand {
    /// `momentum morse learn receive|send`: a Koch training session at the person's level.
    struct Learn: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Train with the Koch method: receive (type what you hear) or send (key what you see).",
            subcommands: [Receive.self, Send.self])
    }
}

extension MorseCommand.Learn {
    /// `momentum morse learn receive [--group N] [--seed S] [--minutes M]`.
    struct Receive: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Receive training: hear a character (or group), type it, get feedback at once.",
            discussion: """
                The session starts at your receive level with its characters, newest first; Enter begins. Each \
                item plays, then you have 3 seconds (counted from the end of the sound) to type it and press \
                Enter; what you typed counts when the time runs out, and nothing typed is a miss. A miss shows \
                the right text and its pattern and plays it again. Space pauses, q ends early (Esc once Q is \
                a character of your level). When the time is up the session is saved and summed up.

                --conditions plays each item as heard on a band — average-evening, contest or weak-dx, as \
                momentum morse render --conditions makes them (noise, fading, another station, a chirp, a \
                human hand); the answer time starts when that sound ends, and a miss is replayed clean.
                """)

        @Option(
            help: ArgumentHelp(
                "Hear the items on a band: clean, average-evening, contest or weak-dx.", valueName: "name"))
        var conditions: String?

        @Option(help: ArgumentHelp("Characters per item, 1–10.", valueName: "n"))
        var group: Int = 1

        @OptionGroup var training: MorseTrainingOptions
        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            let band = try conditions.map { name throws(MorseBandConditionsError) in
                MorseBandConditions.preset(try .init(named: name))
            }
            try await training.train(
                .receive, groupSize: group, band: band == .clean ? nil : band, common: common, context: context)
        }
    }

    /// `momentum morse learn send [--seed S] [--minutes M]`.
    struct Send: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send training: see a character, key it with . or F (dit) and - or J (dah).",
            discussion: """
                The session starts at your send level; Enter begins. The character to send is shown without \
                its pattern. Each dit or dah sounds as you key it; 2 seconds after the last one the character \
                is complete, read and scored, and a miss plays the right one. Backspace starts the character \
                over, space pauses, q ends early. When the time is up the session is saved and summed up.

                --straight-key keys on a straight key: hold space, [ or ] (a VBand or Vail adapter) or Ctrl \
                for each dit and dah; the lengths say what was sent, read by the course's adaptive decoder, \
                and each answer says how it was keyed (speed, dah weight, gaps, what read wrong). Space is \
                then the key, so p pauses. It needs a terminal that reports when a key is let go — one \
                speaking the kitty keyboard protocol (kitty, foot, WezTerm, Ghostty, Alacritty, iTerm2 3.5 \
                and later); elsewhere, and over a plain pipe, Momentum says so and takes . and - as ever. \
                There is no sidetone while a key is held in the terminal, and paddles cannot work here; the \
                web app's send training and Settings → Morse key take a straight key and paddles with a \
                live sidetone.
                """)

        @Flag(
            name: .customLong("straight-key"),
            help: "Key on a straight key (space, [ ] or Ctrl held), where the terminal reports key release.")
        var straightKey = false

        @OptionGroup var training: MorseTrainingOptions
        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await training.train(.send, groupSize: 1, straightKey: straightKey, common: common, context: context)
        }
    }
}

/// What receive and send training share: the drill's seed, the length, sound.
struct MorseTrainingOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Seed of the drill: the same seed and answers give the same items.", valueName: "n"))
    var seed: UInt64?

    @Option(help: ArgumentHelp("Training time, 1–60 minutes (default: the course setting).", valueName: "minutes"))
    var minutes: Double?

    @Flag(name: .customLong("no-sound"), help: "Play no Morse.")
    var noSound = false

    /// Runs a session in `direction`, then finishes it (saving progress and a practice record)
    /// and prints the summary.
    func train(
        _ direction: MorseDirection, groupSize: Int, straightKey: Bool = false, band: MorseBandConditions? = nil,
        common: CommonOptions, context: CommandContext
    ) async throws {
        try await context.withSession(common) { session in
            let (catalog, morse) = (session.catalog, session.services.morse)
            if let minutes, !minutes.isFinite {
                throw CommandFailure(catalog.format(.errorMorseSessionLength, ["value": "\(minutes)"]))
            }
            let length = try minutes.map { minutes throws(NumberInputError) in
                try Duration(checkingMinutes: minutes, field: "--minutes")
            }
            let settings = try await morse.courseSettings()
            let training = try await morse.startSession(
                direction, groupSize: groupSize, length: length, at: context.now())
            let keyboard = context.makeEvents()
            defer { keyboard.restore() }
            var events = keyboard
            var keysStraight = false
            if straightKey {
                if context.isInteractive,
                    await KittyKeyboard.isSupported(events: keyboard, write: { context.output.write($0) })
                {
                    if !keyboard.setMode(enter: KittyKeyboard.push, leave: KittyKeyboard.pop) {
                        context.output.write(KittyKeyboard.push)
                    }
                    events = KittyKeyEvents(wrapping: keyboard)
                    keysStraight = true
                } else {
                    context.output.write(catalog[.morseLearnNoStraightKey] + "\n")
                }
            }
            let sound = context.morsePlayer(
                soundOn: session.settings.isSoundOn && !noSound, tone: settings.tone, session: session)
            let random = SeededRandomNumberGenerator(seed: seed ?? UInt64.random(in: 0...UInt64.max))
            let display = LiveDisplay(output: context.output, isLive: context.isInteractive)
            var played: MorseSession
            switch direction {
            case .receive:
                var player = MorseReceivePlayer(
                    session: training, random: random, keyer: settings.keyer, sound: sound, events: events,
                    wallClock: context.now, display: display, catalog: catalog,
                    band: band.map { ($0, seed ?? UInt64.random(in: 0...UInt64.max)) })
                try await player.play()
                played = player.session
            case .send:
                var player = try MorseSendPlayer(
                    session: training, random: random, keyer: settings.keyer, sound: sound, events: events,
                    wallClock: context.now, display: display, catalog: catalog, straightKey: keysStraight)
                try await player.play()
                played = player.session
            }
            let finished = try await morse.finish(&played, at: context.now())
            let dayCalendar = session.settings.progress.dayCalendar(systemTimeZone: context.timeZone)
            let lines = MorseTrainingText.summary(finished, catalog: catalog, timeZone: dayCalendar.timeZone)
            context.output.write(lines.joined(separator: "\n") + "\n")
        }
    }
}
