/// A few lines the players redraw in place on a terminal. Elsewhere (a pipe, a log file, a
/// test) it writes one line whenever what it shows changes in kind, so the output reads as a calm
/// transcript.
struct LiveDisplay {
    let output: any TextOutput
    let isLive: Bool
    private var drawnLines = 0
    private var lastKey: String?

    init(output: any TextOutput, isLive: Bool) {
        self.output = output
        self.isLive = isLive
    }

    /// Shows `lines`; off a terminal, writes `transcript()` when `key` (the phase, say) differs
    /// from the last one drawn.
    ///
    /// A line wider than the narrowest terminal (40 columns) is broken at spaces first: a line the
    /// terminal wrapped itself would take two rows while the next frame moved up one, and every
    /// redraw would leave a line behind (issue 38: Morse hints of 74 characters did).
    mutating func draw(_ lines: [String], key: String, transcript: () -> String) {
        if isLive {
            let rows = lines.flatMap { $0.wrapped() }
            var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)F" : ""
            for row in rows { text += "\u{1B}[2K" + row + "\n" }
            // Clear whatever a longer earlier frame left below.
            output.write(text + "\u{1B}[J")
            drawnLines = rows.count
        } else if key != lastKey {
            output.write(transcript() + "\n")
        }
        lastKey = key
    }

    /// Writes a message below the live display (which then starts afresh).
    mutating func say(_ message: String, newline: Bool = true) {
        output.write(message + (newline ? "\n" : ""))
        drawnLines = 0
    }

    /// A bar of `width` cells, `fraction` (0–1) of them filled.
    static func bar(_ fraction: Double, width: Int) -> String {
        let filled = max(0, min(width, Int((fraction * Double(width)).rounded(.down))))
        return "▕" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + "▏"
    }
}

extension LiveDisplay {
    /// Removes the live lines (on a terminal), so a message written next takes their place.
    mutating func clear() {
        guard isLive else { return }
        draw([], key: "") { "" }
    }
}
