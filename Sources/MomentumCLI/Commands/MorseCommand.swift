import ArgumentParser
import Foundation
import MomentumAudio
import MomentumCore
import MomentumServices

/// `momentum morse …`: the Morse code course and tools.
struct MorseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "morse",
        abstract: "Morse code: Koch training, QSO practice, the course's progress and settings, text to audio.",
        subcommands: [Learn.self, QSOPractice.self, Progress.self, Settings.self, Render.self, HandsFree.self]
    )
}

extension MorseCommand {
    /// `momentum morse render TEXT | --file FILE -o FILE.wav`: text keyed into a clean tone,
    /// with the PARIS / Farnsworth timing of the course.
    struct Render: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Render text as Morse code to a WAV file.",
            discussion: """
                Letters, digits, . , ? / = + - and the prosigns <AR> <SK> <BT> <KN>. Any run of spaces or \
                line breaks is one word space. --fwpm below --wpm spreads the characters out (Farnsworth) \
                without slowing them.

                Band conditions: --snr adds white noise through a 300–2,700 Hz receiver, the S/N being the \
                tone's power while the key is down over the noise's, both in 500 Hz around the tone; \
                --noise pink makes it pink (3 dB less every octave up, like atmospheric noise). --qsb \
                fades the signal (10/8: 10 dB deep, every 8 s); --qrm adds another station ("TEST@+250": its \
                text 250 Hz above the tone, 6 dB below; "TEST@-300/-3": 300 Hz below, 3 dB below). \
                --chirp starts each element that many Hz high, settling within milliseconds (an old rig); \
                --fist keys like a human hand (human: about 10 % off; heavy: long dahs, heavy marks). \
                --conditions starts from clean, average-evening, contest or weak-dx; the other options \
                change what they name.
                """)

        @Argument(help: ArgumentHelp("The text to send.", valueName: "text"))
        var text: String?

        @Option(help: ArgumentHelp("Read the text from this file instead.", valueName: "file"))
        var file: String?

        @Option(help: ArgumentHelp("Character speed, 5–60 words per minute.", valueName: "wpm"))
        var wpm: Double = 20

        @Option(
            help: ArgumentHelp(
                "Effective (Farnsworth) speed, 5 up to --wpm (default: 13, or --wpm if lower).", valueName: "wpm"))
        var fwpm: Double?

        @Option(
            name: .customLong("extra-word-space"),
            help: ArgumentHelp("Seconds added to every word space, 0–10.", valueName: "seconds"))
        var extraWordSpace: Double = 0

        @Option(help: ArgumentHelp("Tone, 400–1000 Hz.", valueName: "hz"))
        var tone: Double = 600

        @Option(help: ArgumentHelp("Rise and fall of every element, 1–20 ms.", valueName: "ms"))
        var rise: Double = 5

        // Unconditional: the value may be negative (`--snr -3`), which would read as an option.
        @Option(
            parsing: .unconditional, help: ArgumentHelp("Noise: the signal-to-noise ratio, −10–40 dB.", valueName: "dB")
        )
        var snr: Double?

        @Option(help: ArgumentHelp("The noise's colour: white or pink.", valueName: "colour"))
        var noise: String?

        @Option(help: ArgumentHelp("Fading: depth in dB and period in seconds.", valueName: "depth/period"))
        var qsb: String?

        @Option(
            help: ArgumentHelp(
                "Another station: its text, offset in Hz and level in dB.", valueName: "text@offset[/dB]"))
        var qrm: String?

        @Option(
            help: ArgumentHelp(
                "Band conditions: clean, average-evening, contest or weak-dx.", valueName: "name"))
        var conditions: String?

        @Option(help: ArgumentHelp("Chirp: how far above the tone each element starts, 5–200 Hz.", valueName: "hz"))
        var chirp: Double?

        @Option(help: ArgumentHelp("The sender's hand: steady, human or heavy.", valueName: "name"))
        var fist: String?

        @Option(help: ArgumentHelp("Seed of the noise, for the same hiss every time.", valueName: "number"))
        var seed: UInt64 = 1

        @Flag(
            name: .customLong("skip-unknown"),
            help: "Leave out characters without a code (and list them) instead of stopping.")
        var skipUnknown = false

        @OptionGroup var audio: RenderOptions
        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                let text = try self.text(catalog: catalog)
                // Durations cannot hold not-a-number; say which value is wrong before making one.
                guard extraWordSpace.isFinite else { throw MorseError.extraWordSpaceOutOfRange(.zero) }
                guard rise.isFinite else {
                    throw CommandFailure(catalog.format(.errorMorseRise, ["value": "\(rise)"]))
                }
                let timing = try MorseTiming(
                    characterWPM: wpm, effectiveWPM: fwpm ?? min(13, wpm),
                    extraWordSpace: Duration(checkingSeconds: extraWordSpace, field: "--extra-word-space"))
                let sound = try MorseTone(hertz: tone, rise: Duration(checkingMilliseconds: rise, field: "--rise"))
                let format = try audio.format(catalog: catalog)
                let keying = try MorseKeyer(timing: timing).keying(text, skippingUnencodable: skipUnknown)
                if !keying.skipped.isEmpty {
                    let characters = keying.skipped.reduce(into: [Character]()) {
                        if !$0.contains($1) { $0.append($1) }
                    }
                    context.errors.write(
                        catalog.format(
                            .morseSkipped, ["characters": characters.map { String($0) }.joined(separator: " ")])
                            + "\n")
                }
                if let band = try bandConditions() {
                    var renderer = try BandConditionsRenderer(
                        elements: keying.elements, timing: timing, tone: sound, conditions: band, format: format,
                        seed: seed)
                    try await context.render(&renderer, to: audio.output, catalog: catalog)
                } else {
                    var renderer = MorseRenderer(elements: keying.elements, tone: sound, format: format)
                    try await context.render(&renderer, to: audio.output, catalog: catalog)
                }
            }
        }

        /// The conditions asked for: a preset (or a clean band) with --snr, --qsb and --qrm put over
        /// it; `nil` when none was asked for, so a plain render stays the clean tone it always was.
        private func bandConditions() throws(MorseBandConditionsError) -> MorseBandConditions? {
            guard
                conditions != nil || snr != nil || qsb != nil || qrm != nil || chirp != nil || fist != nil
                    || noise != nil
            else { return nil }
            let base =
                try conditions.map { name throws(MorseBandConditionsError) in
                    MorseBandConditions.preset(try .init(named: name))
                } ?? .clean
            let band = try MorseBandConditions(
                signalToNoise: snr ?? base.signalToNoise,
                noise: try noise.map { name throws(MorseBandConditionsError) in try .init(named: name) } ?? base.noise,
                fading: try qsb.map { text throws(MorseBandConditionsError) in try .init(parsing: text) }
                    ?? base.fading,
                interference: try qrm.map { text throws(MorseBandConditionsError) in try .init(parsing: text) }
                    ?? base.interference,
                chirp: chirp ?? base.chirp,
                fist: try fist.map { name throws(MorseBandConditionsError) in MorseFist.preset(try .init(named: name)) }
                    ?? base.fist)
            if noise != nil, band.signalToNoise == nil { throw .noiseWithoutLevel }
            // A clean band is the plain tone, at the plain render's level.
            return band == .clean ? nil : band
        }

        private func text(catalog: StringCatalog) throws -> String {
            switch (text, file) {
            case (let text?, nil): return text
            case (nil, let path?):
                do {
                    return try String(contentsOfFile: path, encoding: .utf8)
                } catch {
                    throw CommandFailure(
                        catalog.format(
                            .errorImportCannotRead,
                            ["path": path, "reason": ErrorMessages.fileReason(for: error, catalog: catalog)]))
                }
            default: throw CommandFailure(catalog[.errorMorseTextOrFile])
            }
        }
    }
}
