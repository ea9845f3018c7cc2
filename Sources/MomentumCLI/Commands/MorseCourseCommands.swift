import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices
import MomentumStoreContract

extension MorseCommand {
    /// `momentum morse progress [--json]`: levels, next practice dates and weakest characters.
    struct Progress: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the course: levels, next practice dates, weakest characters, the Morse streak.")

        @Flag(help: "Print JSON instead of text.")
        var json = false

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            let session = try await context.openSession(common)
            let catalog = session.catalog
            let now = context.now()
            let dayCalendar = session.settings.progress.dayCalendar(systemTimeZone: context.timeZone)
            let form = try await session.services.morse.overview(at: now)
            if json {
                context.output.write(try JSONOutput.encode(form) + "\n")
                return
            }
            context.output.write(
                Self.text(form, catalog: catalog, timeZone: dayCalendar.timeZone, now: now))
        }

        static func text(
            _ form: MorseCourseProgress.JSONForm, catalog: StringCatalog, timeZone: TimeZone, now: Date
        ) -> String {
            let dateFormat = MorseDates.formatter(catalog: catalog, timeZone: timeZone)
            var lines: [String] = []
            if form.courseStart == nil { lines.append(catalog[.morseProgressNotStarted]) }
            for (direction, name) in [
                (form.receive, StringKey.morseDirectionReceive), (form.send, .morseDirectionSend),
            ] {
                var parts = [
                    catalog.format(
                        .morseProgressLevel,
                        [
                            "direction": catalog[name], "level": "\(direction.level)",
                            "count": "\(direction.levelCount)",
                            "characters": direction.characters.joined(separator: " "),
                        ])
                ]
                if direction.isDue {
                    parts.append(catalog[.morseProgressDue])
                } else if let next = direction.nextPractice {
                    parts.append(catalog.format(.morseProgressNext, ["date": dateFormat.string(from: next)]))
                }
                if let review = direction.levelReviewDue, review > now {
                    parts.append(catalog.format(.morseProgressReview, ["date": dateFormat.string(from: review)]))
                }
                if !direction.weakest.isEmpty {
                    parts.append(
                        catalog.format(.morseProgressWeakest, ["characters": direction.weakest.joined(separator: " ")]))
                }
                lines.append(parts.joined(separator: " · "))
            }
            if let streak = form.streak {
                lines.append(
                    catalog.format(
                        .morseProgressStreak,
                        ["current": catalog.days(streak.current), "longest": catalog.days(streak.longest)]))
            } else {
                lines.append(catalog[.streakHiddenShowHow])
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// `momentum morse settings [--wpm …] [--json]`: shows the course settings, changing any given.
    struct Settings: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Show or change the course settings: speeds, tone, rise time, Koch order, session length, call sign.",
            discussion: """
                Without options it shows the settings. Any option changes that value and keeps the others; \
                all of them are checked before anything is saved. The Koch order applies to a course not \
                started yet (progress keeps the order it began with).
                """)

        @Option(help: ArgumentHelp("Character speed, 5–60 words per minute.", valueName: "wpm"))
        var wpm: Double?

        @Option(help: ArgumentHelp("Effective (Farnsworth) speed, 5 up to the character speed.", valueName: "wpm"))
        var fwpm: Double?

        @Option(help: ArgumentHelp("Tone, 400–1000 Hz.", valueName: "hz"))
        var tone: Double?

        @Option(help: ArgumentHelp("Rise and fall of every element, 1–20 ms.", valueName: "ms"))
        var rise: Double?

        @Option(
            help: ArgumentHelp("Koch order: standard (26 letters) or extended (40 characters).", valueName: "order"))
        var order: KochOrder?

        @Option(help: ArgumentHelp("Session length, 1–60 minutes.", valueName: "minutes"))
        var length: Double?

        @Option(help: ArgumentHelp("Your call sign, for QSO practice (K1ABC, DL1ABC/P).", valueName: "call"))
        var call: String?

        @Flag(help: "Forget the call sign.")
        var clearCall = false

        @Flag(help: "Print JSON instead of text.")
        var json = false

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            let session = try await context.openSession(common)
            let catalog = session.catalog
            let morse = session.services.morse
            var settings = try await morse.courseSettings()
            // Checked before anything is saved, like every other value.
            if clearCall && call != nil { throw ValidationError("--call and --clear-call exclude each other.") }
            let callSign = try call.map { text throws(CallSignError) in try CallSign(text) }
            let courseChanges = [wpm, fwpm, tone, rise, length].contains { $0 != nil } || order != nil
            let changes = courseChanges || callSign != nil || clearCall
            if courseChanges {
                let options = [
                    ("--wpm", wpm), ("--fwpm", fwpm), ("--tone", tone), ("--rise", rise), ("--length", length),
                ]
                for case (let field, let value?) in options where !value.isFinite {
                    throw NumberInputError.notFinite(field: field)
                }
                let character = wpm ?? settings.timing.characterWPM
                settings = try MorseCourseSettings(
                    characterWPM: character,
                    effectiveWPM: fwpm ?? min(settings.timing.effectiveWPM, character),
                    toneHertz: tone ?? settings.tone.hertz,
                    riseTime: try rise.map { ms throws(NumberInputError) in
                        try Duration(checkingMilliseconds: ms, field: "--rise")
                    } ?? settings.tone.rise,
                    order: order ?? settings.order,
                    sessionLength: try length.map { minutes throws(NumberInputError) in
                        try Duration(checkingMinutes: minutes, field: "--length")
                    } ?? settings.sessionLength)
                try await morse.saveCourseSettings(settings)
            }
            if let callSign { try await morse.saveCallSign(callSign) }
            if clearCall { try await morse.saveCallSign(nil) }
            let storedCall = try await morse.callSign()
            if json {
                let form = SettingsJSON(settings: settings, callSign: storedCall?.text)
                context.output.write(try JSONOutput.encode(form) + "\n")
                return
            }
            let number = { (value: Double) in catalog.language.number(value, fractionDigits: 1) }
            let line = catalog.format(
                .morseSettingsLine,
                [
                    "wpm": number(settings.timing.characterWPM),
                    "fwpm": number(settings.timing.effectiveWPM),
                    "tone": number(settings.tone.hertz), "rise": number(settings.tone.rise.inSeconds * 1000),
                    "order": settings.order.rawValue, "minutes": number(settings.sessionLength.inSeconds / 60),
                ])
            let callLine =
                storedCall.map { catalog.format(.morseSettingsCallSign, ["call": $0.text]) }
                ?? catalog[.morseSettingsNoCallSign]
            context.output.write((changes ? catalog[.morseSettingsSaved] + " " : "") + line + " · " + callLine + "\n")
        }

        /// The course settings' own fields and `callSign` (`null` while none is set), in one object.
        struct SettingsJSON: Encodable {
            var settings: MorseCourseSettings
            var callSign: String?

            enum CodingKeys: String, CodingKey { case callSign }

            func encode(to encoder: any Encoder) throws {
                try settings.encode(to: encoder)
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(callSign, forKey: .callSign)
            }
        }
    }
}

extension KochOrder: ExpressibleByArgument {}
