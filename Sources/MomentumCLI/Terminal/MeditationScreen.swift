import MomentumCore

/// What the meditation player shows: phase, remaining time, a bar and the affirmation.
///
/// On a terminal it redraws the same few lines in place; elsewhere (a pipe, a log file, a test)
/// it writes one line when the phase changes, so the output reads as a calm transcript.
struct MeditationScreen {
    let catalog: StringCatalog
    private var display: LiveDisplay

    static let barWidth = 24

    init(output: any TextOutput, isLive: Bool, catalog: StringCatalog) {
        self.display = LiveDisplay(output: output, isLive: isLive)
        self.catalog = catalog
    }

    /// The lines for the sit at this moment.
    static func lines(
        phase: MeditationPhase, state: RunState, affirmation: String?, catalog: StringCatalog, isLive: Bool
    ) -> [String] {
        let time: String
        if let remaining = state.remainingInSegment {
            time = catalog.format(.playerRemaining, ["time": DurationFormatting.clock(remaining)])
        } else {
            let elapsed = DurationFormatting.clock(state.elapsedInSegment, roundingUp: false)
            time = catalog.format(.playerElapsed, ["time": elapsed])
        }
        // Paused still shows where the sit stands; the end states stand alone.
        let ended = phase == .completed || phase == .stopped || phase == .idle
        let first = ended ? catalog[phase.textKey] : "\(catalog[phase.textKey]) · \(time)"

        var lines = [first]
        if ended { return lines }
        if isLive { lines.append(LiveDisplay.bar(state.segmentProgress, width: barWidth)) }
        if let affirmation, !affirmation.isEmpty { lines.append(affirmation) }
        if isLive { lines.append(catalog[phase == .paused ? .playerControlsPaused : .playerControls]) }
        return lines
    }

    mutating func show(phase: MeditationPhase, state: RunState, affirmation: String?) {
        let lines = Self.lines(
            phase: phase, state: state, affirmation: affirmation, catalog: catalog, isLive: display.isLive)
        display.draw(lines, key: phase.rawValue) { lines.joined(separator: " · ") }
    }

    /// Writes a message below the live display (which then starts afresh).
    mutating func say(_ message: String, newline: Bool = true) {
        display.say(message, newline: newline)
    }
}
