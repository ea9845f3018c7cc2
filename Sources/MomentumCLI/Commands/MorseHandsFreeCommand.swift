import ArgumentParser
import Foundation
import MomentumAudio
import MomentumCore
import MomentumServices

extension MorseCommand {
    /// `momentum morse hands-free -o walk.wav`: a Morse Code Ninja–style session — each item in
    /// Morse, a pause, spoken by espeak-ng, a pause, in Morse again — rendered to a WAV file.
    struct HandsFree: ContextualCommand {
        static let configuration = CommandConfiguration(
            commandName: "hands-free",
            abstract: "Render a hands-free copy session: each item in Morse, then spoken, then in Morse again.",
            discussion: """
                Speech is made by espeak-ng (Debian and Ubuntu: apt install espeak-ng), in English or German. \
                --content chooses common words, call signs (spelled out) or Q codes (spelled, then explained); \
                --file reads your own list instead, one word or call sign per line. The speed and tone are \
                your course's unless --wpm and --tone say otherwise; words are sent without Farnsworth \
                spacing. The web app plays the same session (Morse → Hands-free copy) and logs it.
                """)

        @Option(help: ArgumentHelp("What to send: words, calls or q-codes.", valueName: "kind"))
        var content: String = "calls"

        @Option(help: ArgumentHelp("Send your own list from this file, one entry per line.", valueName: "file"))
        var file: String?

        @Option(help: ArgumentHelp("How many items, 1–200.", valueName: "n"))
        var count: Int = 20

        @Option(help: ArgumentHelp("Language of the speech: en or de (default: --lang).", valueName: "lang"))
        var speak: String?

        @Option(help: ArgumentHelp("Character speed, 5–60 wpm (default: your course's).", valueName: "wpm"))
        var wpm: Double?

        @Option(help: ArgumentHelp("Tone, 400–1000 Hz (default: your course's).", valueName: "hz"))
        var tone: Double?

        @Option(help: ArgumentHelp("Seconds of silence before and after the answer, 0.5–5.", valueName: "seconds"))
        var pause: Double = 1

        @Option(help: ArgumentHelp("Seconds of silence before the next item, 0.5–10.", valueName: "seconds"))
        var gap: Double = 2

        @Flag(name: .customLong("no-repeat"), help: "Send each item's Morse once, before the answer only.")
        var noRepeat = false

        @Option(help: ArgumentHelp("Seed of the drawing, for the same session every time.", valueName: "number"))
        var seed: UInt64 = 1

        @OptionGroup var audio: RenderOptions
        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                let course = try await session.services.morse.courseSettings()
                let timing =
                    try wpm.map { wpm in try MorseTiming(characterWPM: wpm, effectiveWPM: wpm) }
                    ?? MorseTiming(
                        characterWPM: course.timing.characterWPM, effectiveWPM: course.timing.characterWPM)
                let sound = try tone.map { try MorseTone(hertz: $0, rise: course.tone.rise) } ?? course.tone
                let plan = try HandsFreePlan(
                    content: try chosenContent(catalog: catalog), list: try list(catalog: catalog), count: count,
                    seed: seed, timing: timing, tone: sound, language: try language(catalog: catalog),
                    pauseAfterMorse: Duration(checkingSeconds: pause, field: "--pause"),
                    pauseAfterSpeech: Duration(checkingSeconds: pause, field: "--pause"),
                    repeatsMorse: !noRepeat, itemGap: Duration(checkingSeconds: gap, field: "--gap"))
                let format = try audio.format(catalog: catalog)
                // Speech comes first: without espeak-ng nothing is written, not even an empty file.
                var renderer = try HandsFreeRenderer(plan: plan, speech: EspeakSpeech.installed(), format: format)
                try await context.render(&renderer, to: audio.output, catalog: catalog)
            }
        }

        private func chosenContent(catalog: StringCatalog) throws -> HandsFreePlan.Content {
            if file != nil { return .list }
            switch content {
            case "words": return .words
            case "calls", "call-signs": return .callSigns
            case "q-codes", "qcodes": return .qCodes
            default:
                throw CommandFailure(
                    catalog.format(.errorHandsFreeContent, ["value": String(content.prefix(40))]))
            }
        }

        private func language(catalog: StringCatalog) throws -> Language {
            guard let speak else { return catalog.language }
            guard let language = Language(rawValue: speak) else {
                throw CommandFailure(catalog.format(.errorHandsFreeSpeak, ["value": String(speak.prefix(40))]))
            }
            return language
        }

        private func list(catalog: StringCatalog) throws -> [String] {
            guard let file else { return [] }
            let text: String
            do {
                text = try String(contentsOfFile: file, encoding: .utf8)
            } catch {
                throw CommandFailure(
                    catalog.format(
                        .errorImportCannotRead,
                        ["path": file, "reason": ErrorMessages.fileReason(for: error, catalog: catalog)]))
            }
            return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
    }
}
