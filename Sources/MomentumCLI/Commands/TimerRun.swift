import ArgumentParser
import Foundation
import MomentumCore
import MomentumServices

extension TimerCommand {
    /// `momentum timer run NAME`: a live countdown of a stored timer.
    struct Run: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start a timer if needed and show its countdown; the end gong sounds when it is done.",
            discussion: """
                The countdown reads the stored timer, so pausing here pauses it everywhere. q leaves it \
                running (see `momentum timer list`); space pauses and resumes.
                """)

        @Argument(help: ArgumentHelp("The timer's name or id.", valueName: "name"))
        var name: String

        @Flag(name: .customLong("no-sound"), help: "No sounds, not even the terminal bell.")
        var noSound = false

        @Flag(name: .customLong("plan"), help: "Print the timer's timeline as JSON and exit.")
        var printPlan = false

        @OptionGroup var common: CommonOptions

        func run(in context: CommandContext) async throws {
            try await context.withSession(common) { session in
                let (service, named) = try await session.household.timerService(named: name, for: session.person)
                var timer = try await service.timer(named: named)
                if printPlan {
                    context.output.write(try TimelineJSON.text(try timer.timeline()))
                    return
                }
                if timer.status(at: context.now()) != .running {
                    timer = try await service.start(named: timer.id.uuidString)
                }
                let sound = context.cuePlayer(soundOn: session.settings.isSoundOn && !noSound, session: session)
                let events = context.makeEvents()
                defer { events.restore() }
                var countdown = FocusCountdown(
                    timerID: timer.id.uuidString, service: service, now: context.now, sound: sound, events: events,
                    display: LiveDisplay(output: context.output, isLive: context.isInteractive),
                    catalog: session.catalog)
                try await countdown.play()
            }
        }
    }
}

/// The live countdown of a stored focus timer. Every look reads the store (which settles and logs
/// a completion once); keys act on the store, so other shells see the same timer.
struct FocusCountdown {
    let timerID: String
    let service: FocusTimerService
    let now: @Sendable () -> Date
    let sound: any CuePlayer
    let events: any PlayerEventSource
    var display: LiveDisplay
    let catalog: StringCatalog

    static let barWidth = 24

    mutating func play() async throws {
        sound.prepare()
        while true {
            // The instant first, then the store's timer: the store settles at its own, later
            // instant, so a timer this look sees done has been completed and logged there.
            // (The other order showed "done — logged" for a timer the store still had running.)
            let instant = now()
            let timer = try await service.timer(named: timerID)
            let status = timer.status(at: instant)
            if status == .completed || status == .idle {
                if status == .completed { sound.play(.endGong) }
                let shown = lines(timer, at: instant)
                display.draw(shown, key: status.rawValue) { shown.joined(separator: " · ") }
                let words = DurationFormatting.words(timer.elapsed(at: instant), language: catalog.language)
                // Logged by the core's rule: marked done in under a minute is too short to log.
                let logged = timer.completionRecord(id: UUID(), device: "") != nil
                display.say(
                    status == .completed
                        ? catalog.format(
                            logged ? .focusDone : .focusDoneNotLogged, ["name": timer.name, "duration": words])
                        : catalog.format(
                            .focusResetTimer,
                            [
                                "name": timer.name,
                                "duration": DurationFormatting.words(timer.duration, language: catalog.language),
                            ]))
                return
            }
            let shown = lines(timer, at: instant)
            display.draw(shown, key: status.rawValue) { shown.joined(separator: " · ") }
            switch await events.next(until: wakeUp(timer, at: instant)) {
            case .tick, .straightKey:
                continue
            case .key(MeditationPlayer.space):
                // What the timer is now, not what the screen showed: another device may have
                // finished or reset it meanwhile, and a key must not start it again (issue 38).
                switch try await service.timer(named: timerID).status(at: now()) {
                case .running: try await service.pause(named: timerID)
                case .paused: try await service.resume(named: timerID)
                case .completed, .idle: continue
                }
            case .key(let key) where MeditationPlayer.stopKeys.contains(key):
                return await leave(timerID: timerID)
            case .key:
                continue
            case nil:
                return await leave(timerID: timerID)
            }
        }
    }

    private mutating func leave(timerID: String) async {
        // try?: leaving changes nothing in the store; this read only words the goodbye line. A
        // timer deleted meanwhile, or a store that cannot be read now, ends the screen without it.
        guard let timer = try? await service.timer(named: timerID) else { return }
        let instant = now()
        if display.isLive {
            let shown = lines(timer, at: instant, withControls: false)
            display.draw(shown, key: "left") { shown.joined(separator: " · ") }
        }
        display.say(
            catalog.format(
                .focusRunDetached,
                ["name": timer.name, "remaining": DurationFormatting.clock(timer.remaining(at: instant))]))
    }

    /// How often the countdown looks at the stored timer: another shell, the web app or a synced
    /// device may pause, resume, reset or finish it (issue 38: a paused screen stayed "paused"
    /// for a minute after the timer had finished elsewhere), and the screen shows it within this.
    static let look = Duration.milliseconds(500)

    /// The next look at the store, or sooner the next change of the shown second while running.
    private func wakeUp(_ timer: FocusTimer, at instant: Date) -> ContinuousClock.Instant? {
        guard timer.status(at: instant) == .running else { return events.now.advanced(by: Self.look) }
        let fraction = timer.remaining(at: instant).wholeMilliseconds % 1000
        return events.now.advanced(by: min(Self.look, .milliseconds(fraction == 0 ? 1000 : fraction)))
    }

    private func lines(_ timer: FocusTimer, at instant: Date, withControls: Bool = true) -> [String] {
        let status = TimerCommand.statusText(timer, at: instant, catalog: catalog)
        var lines = [
            "\(timer.name) · \(status) · "
                + catalog.format(.focusLeft, ["time": DurationFormatting.clock(timer.remaining(at: instant))])
        ]
        guard display.isLive else { return lines }
        lines.append(LiveDisplay.bar(timer.elapsed(at: instant) / timer.duration, width: Self.barWidth))
        lines += TimerCommand.checklist(timer)
        // The keys' hint only while the countdown listens to them: none is left behind.
        switch timer.status(at: instant) {
        case .running where withControls: lines.append(catalog[.focusRunControls])
        case .paused where withControls: lines.append(catalog[.focusRunControlsPaused])
        default: break
        }
        return lines
    }
}
