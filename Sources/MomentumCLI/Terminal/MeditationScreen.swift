import MomentumCore

/// What the meditation player shows: phase, remaining time, a bar and the affirmation.
///
/// On a terminal it redraws the same few lines in place; elsewhere (a pipe, a log file, a test)
/// it writes one line when the phase changes, so the output reads as a calm transcript.
struct MeditationScreen {
    let output: any TextOutput
    let isLive: Bool
    let catalog: StringCatalog
    private var drawnLines = 0
    private var lastPhase: MeditationPhase?

    static let barWidth = 24

    init(output: any TextOutput, isLive: Bool, catalog: StringCatalog) {
        self.output = output
        self.isLive = isLive
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
        if isLive {
            let filled = Int((state.segmentProgress * Double(barWidth)).rounded(.down))
            lines.append(
                "▕" + String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled) + "▏")
        }
        if let affirmation, !affirmation.isEmpty { lines.append(affirmation) }
        if isLive { lines.append(catalog[.playerControls]) }
        return lines
    }

    mutating func show(phase: MeditationPhase, state: RunState, affirmation: String?) {
        let lines = Self.lines(phase: phase, state: state, affirmation: affirmation, catalog: catalog, isLive: isLive)
        if isLive {
            var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)F" : ""
            for line in lines { text += "\u{1B}[2K" + line + "\n" }
            // Clear whatever a longer earlier frame left below.
            output.write(text + "\u{1B}[J")
            drawnLines = lines.count
        } else if phase != lastPhase {
            output.write(lines.joined(separator: " · ") + "\n")
        }
        lastPhase = phase
    }

    /// Writes a message below the live display (which then starts afresh).
    mutating func say(_ message: String, newline: Bool = true) {
        output.write(message + (newline ? "\n" : ""))
        drawnLines = 0
    }
}
