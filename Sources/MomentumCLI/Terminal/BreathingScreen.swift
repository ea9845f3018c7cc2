import MomentumCore

/// The breathing player's screen: the phase with a countdown of its seconds, a bar that grows on
/// the inhale and shrinks on the exhale, and the round with the time left.
struct BreathingScreen: PracticeScreen {
    let plan: BreathingPlan
    let catalog: StringCatalog

    static let barWidth = 24

    func lines(for state: RunState, isLive: Bool) -> [String] {
        if state.status == .completed || state.status == .stopped {
            return [catalog[state.status == .completed ? .stateCompleted : .stateStopped]]
        }
        let seconds = ((state.remainingInSegment ?? .zero).wholeMilliseconds + 999) / 1000
        let round = catalog.format(
            .breathingRound, ["round": "\(plan.round(ofSegment: state.segmentIndex))", "rounds": "\(plan.rounds)"])
        // The time left to breathe: the get-ready before it is not counted down.
        let remaining = min(state.remaining ?? .zero, plan.totalDuration)
        let left = catalog.format(.playerRemaining, ["time": DurationFormatting.clock(remaining)])
        var lines = [catalog[state.segment.kind.breathingNameKey] + " · \(seconds)"]
        if isLive { lines.append(LiveDisplay.bar(BreathingPlan.shapeFill(state), width: Self.barWidth)) }
        lines.append(round + " · " + left)
        return lines
    }

    func transcriptKey(for state: RunState) -> String {
        state.status == .running || state.status == .paused ? "\(state.segmentIndex)" : state.status.rawValue
    }
}
