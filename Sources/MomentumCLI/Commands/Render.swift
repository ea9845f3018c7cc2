import ArgumentParser
import Foundation
import MomentumAudio
import MomentumCore
import MomentumServices

/// `momentum render meditation|breathing|workout|timer … -o FILE.wav`: a whole session as one
/// audio file, to play on any device, screen locked.
struct Render: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a practice to a WAV file: the ambient bed and every cue at its exact sample.",
        discussion: """
            Takes the same options as the practice itself, plus the file and its format. Nothing is logged \
            and your saved defaults stay as they are.
            """,
        subcommands: [MeditationSession.self, BreathingSession.self, WorkoutSession.self, FocusSession.self]
    )
}

/// Where the audio goes and in what format.
struct RenderOptions: ParsableArguments {
    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp("The WAV file to write (- for standard output).", valueName: "file"))
    var output: String

    @Option(help: ArgumentHelp("Sample rate in Hz, 8000–48000.", valueName: "hz"))
    var rate: String = "44100"

    @Flag(help: "Two channels: the ambient bed becomes wider; cues stay centred.")
    var stereo = false

    func format(catalog: StringCatalog) throws -> AudioFormat {
        try AudioFormat(sampleRate: CommandInput.whole(rate, unit: .hertz, catalog: catalog), channels: stereo ? 2 : 1)
    }
}

/// An ambient bed under a practice that has none of its own (breathing, workouts, timers).
struct AmbientOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Ambient sound: silent, rain, ocean, stream or brown.", valueName: "id"))
    var ambient: String = "silent"

    @Option(help: ArgumentHelp("Ambient volume, 0–1 (default: the sound's own).", valueName: "volume"))
    var volume: String?

    /// The bed chosen, or `nil` for silence: the one rule the server's render follows too.
    func choice(catalog: StringCatalog) throws -> AmbientChoice? {
        try RenderAmbient.choice(id: ambient, volume: volume)
    }
}

extension Render {
    struct MeditationSession: ContextualCommand {
        static let configuration = CommandConfiguration(
            commandName: "meditation", abstract: "Render a sit: countdown, gongs, reflection and ambient.")

        @OptionGroup var options: MeditationOptions
        @OptionGroup var audio: RenderOptions
        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let plan = try options.plan(from: session.settings.meditation, catalog: session.catalog)
                try await context.render(try plan.timeline(), audio: audio, catalog: session.catalog)
            }
        }
    }

    struct BreathingSession: ContextualCommand {
        static let configuration = CommandConfiguration(
            commandName: "breathing", abstract: "Render a breathing session: a cue at every inhale, hold and exhale.")

        @OptionGroup var options: BreathingOptions
        @OptionGroup var ambient: AmbientOptions
        @OptionGroup var audio: RenderOptions
        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                var timeline = try await options.plan(session: session).timeline()
                timeline.ambient = try ambient.choice(catalog: session.catalog)
                try await context.render(timeline, audio: audio, catalog: session.catalog)
            }
        }
    }

    struct WorkoutSession: ContextualCommand {
        static let configuration = CommandConfiguration(
            commandName: "workout", abstract: "Render a workout: lead-in, countdown beeps, halfway and finish.")

        @Argument(help: ArgumentHelp("A program's name or id (see `workout programs`).", valueName: "program"))
        var program: String?

        @OptionGroup var options: WorkoutOptions
        @OptionGroup var ambient: AmbientOptions
        @OptionGroup var audio: RenderOptions
        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let catalog = session.catalog
                let base =
                    if let program {
                        try await session.services.workouts.program(named: program).plan(catalog: catalog)
                    } else {
                        nil as WorkoutPlan?
                    }
                var timeline = try options.apply(to: base ?? WorkoutPlan(), catalog: catalog).timeline()
                timeline.ambient = try ambient.choice(catalog: catalog)
                try await context.render(timeline, audio: audio, catalog: catalog)
            }
        }
    }

    struct FocusSession: ContextualCommand {
        static let configuration = CommandConfiguration(
            commandName: "timer", abstract: "Render a focus timer: its whole length, closed by the end gong.")

        @Argument(help: ArgumentHelp("The timer's name or id.", valueName: "name"))
        var name: String

        @OptionGroup var ambient: AmbientOptions
        @OptionGroup var audio: RenderOptions
        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                var timeline = try await session.services.focusTimers.timer(named: name).timeline()
                timeline.ambient = try ambient.choice(catalog: session.catalog)
                try await context.render(timeline, audio: audio, catalog: session.catalog)
            }
        }
    }
}

extension CommandContext {
    /// Renders `timeline` into the file `audio` names, with a progress bar on a terminal; refuses
    /// one over ``Timeline/longestRender``, as the web app does.
    func render(_ timeline: Timeline, audio: RenderOptions, catalog: StringCatalog) async throws {
        try timeline.checkRenderLength()
        var renderer = try TimelineRenderer(timeline: timeline, format: audio.format(catalog: catalog))
        try await render(&renderer, to: audio.output, catalog: catalog)
    }

    /// Streams `source` into `path` and says what was written.
    func render(_ source: inout some AudioSource, to path: String, catalog: StringCatalog) async throws {
        let target = OutputTarget(path)
        var bar = ProgressBar(output: errors, isShown: errorsAreInteractive, label: catalog[.renderProgress])
        try await target.write(to: self, catalog: catalog) { url in
            try WAVFileWriter.render(&source, to: url, progress: { bar.update(done: $0, total: $1) })
        }
        bar.finish()
        let format = source.format
        let seconds = Double(source.frameCount) / Double(format.sampleRate)
        target.confirmations(self).write(
            catalog.format(
                .renderWrote,
                [
                    "file": path,
                    "duration": DurationFormatting.words(.seconds(seconds.rounded()), language: catalog.language),
                    "rate": "\(format.sampleRate)",
                    "channels": catalog[format.channels == 2 ? .renderStereo : .renderMono],
                ]) + "\n")
    }
}

/// A one-line progress bar on standard error, redrawn only when the percentage changes.
struct ProgressBar {
    let output: any TextOutput
    let isShown: Bool
    let label: String
    private var shownPercent = -1

    init(output: any TextOutput, isShown: Bool, label: String) {
        self.output = output
        self.isShown = isShown
        self.label = label
    }

    mutating func update(done: Int, total: Int) {
        guard isShown, total > 0 else { return }
        let percent = min(100, done * 100 / total)
        guard percent != shownPercent else { return }
        shownPercent = percent
        let width = 30
        let filled = percent * width / 100
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        output.write("\r\(label) \(bar) \(percent) %")
    }

    /// Clears the bar's line.
    func finish() {
        guard isShown, shownPercent >= 0 else { return }
        output.write("\r\u{1B}[2K")
    }
}
