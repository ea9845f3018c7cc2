import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

extension MorseCommand {
    /// `momentum morse qso [--style …] [--mode call|answer] [--call CALL] [--seed S]`: a simulated
    /// contact with a virtual station.
    struct QSOPractice: ContextualCommand {
        static let configuration = CommandConfiguration(
            commandName: "qso",
            abstract: "Practise a QSO: a simulated contact with a virtual station, in Morse.",
            discussion: """
                The station's transmissions play in Morse; copy them by ear. Enter on an empty line shows \
                what the station sent (it is also shown once you answer), Tab plays it again. Type what you \
                send and press Enter: the station replies, or asks again and the hint says what was missing. \
                Esc ends early. At the end the whole contact is printed. Needs your call sign: \
                momentum morse settings --call K1ABC, or --call here.

                --conditions puts the station on a band — average-evening, contest or weak-dx, as momentum \
                morse render --conditions makes them (noise, fading, another station, a chirp, a human hand).
                """)

        @Option(
            help: ArgumentHelp(
                "first-contact (calls and RST), signal-report (adds names), contest (RST and serial number) or rag-chew.",
                valueName: "style"))
        var style: QSOStyle = .firstContact

        @Option(help: ArgumentHelp("call: you call CQ; answer: the station calls and you answer.", valueName: "mode"))
        var mode: QSOMode = .call

        @Option(
            help: ArgumentHelp("Your call sign for this contact (default: the one in the settings).", valueName: "call")
        )
        var call: String?

        @Option(help: ArgumentHelp("Seed of the virtual station: the same seed, the same contact.", valueName: "n"))
        var seed: UInt64?

        @Option(
            help: ArgumentHelp(
                "Hear the station on a band: clean, average-evening, contest or weak-dx.", valueName: "name"))
        var conditions: String?

        @Flag(name: .customLong("no-sound"), help: "Play no Morse.")
        var noSound = false

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let (catalog, morse) = (session.catalog, session.services.morse)
                let ownCall = if let call { call } else { try await morse.callSign()?.text }
                let band = try conditions.map { name throws(MorseBandConditionsError) in
                    MorseBandConditions.preset(try .init(named: name))
                }
                let drawn = seed ?? UInt64.random(in: 0...UInt64.max)
                var random = SeededRandomNumberGenerator(seed: drawn)
                let qso: QSO
                do {
                    qso = try QSO(style: style, mode: mode, ownCallSign: ownCall, using: &random)
                } catch QSOError.noOwnCallSign {
                    throw CommandFailure(
                        ErrorMessages.message(for: QSOError.noOwnCallSign, catalog: catalog) + " "
                            + catalog[.morseQSOSetCallSign])
                }
                let settings = try await morse.courseSettings()
                let events = context.makeEvents()
                defer { events.restore() }
                var player = MorseQSOPlayer(
                    qso: qso, keyer: settings.keyer,
                    sound: context.morsePlayer(
                        soundOn: session.settings.isSoundOn && !noSound, tone: settings.tone, session: session),
                    events: events, display: LiveDisplay(output: context.output, isLive: context.isInteractive),
                    catalog: catalog, band: band == .clean ? nil : band.map { ($0, drawn) })
                let isDone = await player.play()
                var lines = [isDone ? catalog[.morseQSODone] : catalog[.morseQSOEnded], catalog[.morseQSOTranscript]]
                for line in player.qso.transcript {
                    let sender = line.sender == .person ? player.qso.ownCallSign : player.qso.station.callSign
                    lines.append("  \(sender.text): \(line.text)")
                }
                context.output.write(lines.joined(separator: "\n") + "\n")
            }
        }
    }
}

extension QSOMode: ExpressibleByArgument {}

extension QSOStyle: ExpressibleByArgument {
    /// `first-contact`, `firstContact` or `firstcontact`: dashes and case do not matter.
    public init?(argument: String) {
        let wanted = argument.replacingOccurrences(of: "-", with: "").lowercased()
        guard let style = Self.allCases.first(where: { $0.rawValue.lowercased() == wanted }) else { return nil }
        self = style
    }

    public static var allValueStrings: [String] { allCases.map(\.argument) }

    public var defaultValueDescription: String { argument }

    /// How the style is written on the command line: `first-contact`.
    var argument: String {
        switch self {
        case .firstContact: "first-contact"
        case .signalReport: "signal-report"
        case .contest: "contest"
        case .ragChew: "rag-chew"
        }
    }
}
