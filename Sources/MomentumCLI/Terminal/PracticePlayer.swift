import MomentumCore

/// What a practice of set length shows in the terminal at a moment of its run.
protocol PracticeScreen {
    /// The lines to draw for `state`, and the key that changes once per segment (for transcripts).
    func lines(for state: RunState, isLive: Bool) -> [String]
    func transcriptKey(for state: RunState) -> String
}

/// Plays a breathing session or a workout in the terminal: draws its screen, sounds its cues on
/// time, and answers space (pause or resume) and `q` (stop). All timing comes from the run.
struct PracticePlayer<Screen: PracticeScreen> {
    var run: TimelineRun<ContinuousClock.Instant>
    let screen: Screen
    var display: LiveDisplay
    let sound: any CuePlayer
    let events: any PlayerEventSource
    let catalog: StringCatalog
    /// How often a live display is redrawn between seconds (a breathing shape moves smoothly).
    var refresh: Duration?

    struct Ending {
        var outcome: PracticeOutcome
        var keep: Bool
    }

    mutating func play() async throws -> Ending {
        sound.prepare()
        try run.start(at: events.now)
        var lastChecked: ContinuousClock.Instant? = nil
        while true {
            let now = events.now
            for cue in run.cues(after: lastChecked, through: now) {
                if let cueSound = cue.sound { sound.play(cueSound) }
            }
            lastChecked = now
            draw(at: now)
            if run.isCompleted(at: now) { return Ending(outcome: outcome(at: now), keep: true) }
            switch await events.next(until: run.wakeUp(after: now, refresh: display.isLive ? refresh : nil)) {
            case .tick, .straightKey:
                continue
            case .key(MeditationPlayer.space):
                try togglePause()
            case .key(let key) where MeditationPlayer.stopKeys.contains(key):
                return try await stop()
            case .key:
                continue
            case nil:
                return try await stop()
            }
        }
    }

    private func outcome(at instant: ContinuousClock.Instant) -> PracticeOutcome {
        run.timeline.outcome(elapsed: run.elapsed(at: instant))
    }

    private mutating func draw(at instant: ContinuousClock.Instant) {
        let state = run.state(at: instant)
        var lines = screen.lines(for: state, isLive: display.isLive)
        // The keys' hint only while a key does something: an ended player leaves none behind.
        if display.isLive, state.status == .running || state.status == .paused {
            lines.append(
                state.status == .paused
                    ? catalog[.playerPausedMark] + " · " + catalog[.playerControlsPaused] : catalog[.playerControls])
        }
        display.draw(lines, key: screen.transcriptKey(for: state)) { lines.joined(separator: " · ") }
    }

    private mutating func togglePause() throws {
        let instant = events.now
        if run.pausedSince == nil { try run.pause(at: instant) } else { try run.resume(at: instant) }
    }

    private mutating func stop() async throws -> Ending {
        let instant = events.now
        let outcome = outcome(at: instant)
        if !run.isCompleted(at: instant) { try run.stop(at: instant) }
        draw(at: instant)
        guard outcome.asksToKeep else { return Ending(outcome: outcome, keep: true) }
        let duration = DurationFormatting.words(outcome.time, language: catalog.language)
        var display = self.display
        let keep = await KeepQuestion.ask(
            catalog.format(.playerKeepEarlyStopSession, ["duration": duration]), events: events
        ) { text, newline in display.say(text, newline: newline) }
        self.display = display
        return Ending(outcome: outcome, keep: keep)
    }
}
