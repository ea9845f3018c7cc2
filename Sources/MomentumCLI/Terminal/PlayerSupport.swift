import MomentumCore

extension TimelineRun where Instant == ContinuousClock.Instant {
    /// When a player next needs to look: the next cue or segment change, or the next change of
    /// the shown second (or sooner, every `refresh`, for a moving shape), whichever is first.
    /// Paused, only a key wakes it.
    func wakeUp(after now: Instant, refresh: Duration? = nil) -> Instant? {
        guard pausedSince == nil else { return nil }
        let state = state(at: now)
        // The clock shows whole seconds; wake just after the shown value changes.
        let shown = state.remainingInSegment ?? state.elapsedInSegment
        let fraction = shown.wholeMilliseconds % 1000
        let untilNextSecond: Duration =
            state.remainingInSegment == nil
            ? .milliseconds(1000 - fraction) : .milliseconds(fraction == 0 ? 1000 : fraction)
        let candidates = [
            nextEventInstant(after: now), now.advanced(by: min(untilNextSecond, refresh ?? untilNextSecond)),
        ]
        return candidates.compactMap { $0 }.min()
    }
}

/// Asks whether to keep an early stop in the log: Enter, y or j keep it, n discards it; with no
/// keyboard left it is kept.
enum KeepQuestion {
    static func ask(_ question: String, events: any PlayerEventSource, say: (String, Bool) -> Void) async -> Bool {
        say(question, false)
        while true {
            switch await events.next(until: nil) {
            case .key(let key):
                let answer = Character(UnicodeScalar(key)).lowercased()
                if answer == "n" {
                    say(answer, true)
                    return false
                }
                if key == 10 || key == 13 || answer == "y" || answer == "j" {
                    say(key == 10 || key == 13 ? "" : answer, true)
                    return true
                }
            case .tick, .straightKey:
                continue
            case nil:
                say("", true)
                return true
            }
        }
    }
}
