import Foundation
import MomentumCore

/// A focus timer's run as both stores keep it in columns: its state's name, the instants it has
/// (milliseconds since 1970; `nil` where the state has none) and the time counted.
public struct FocusRunColumns: Sendable, Equatable {
    public var state: String
    public var startedAtMs: Int64?
    public var resumedAtMs: Int64?
    public var pausedAtMs: Int64?
    public var completedAtMs: Int64?
    public var elapsedMs: Int64

    public init(
        state: String, startedAtMs: Int64?, resumedAtMs: Int64?, pausedAtMs: Int64?, completedAtMs: Int64?,
        elapsedMs: Int64
    ) {
        (self.state, self.startedAtMs, self.resumedAtMs) = (state, startedAtMs, resumedAtMs)
        (self.pausedAtMs, self.completedAtMs, self.elapsedMs) = (pausedAtMs, completedAtMs, elapsedMs)
    }

    public init(_ run: FocusRun) {
        self.init(
            state: run.status.rawValue, startedAtMs: run.startedAt?.millisecondsSince1970, resumedAtMs: nil,
            pausedAtMs: nil, completedAtMs: nil, elapsedMs: 0)
        switch run {
        case .idle: break
        case .running(_, let resumed, let before):
            resumedAtMs = resumed.millisecondsSince1970
            elapsedMs = before.wholeMilliseconds
        case .paused(_, let paused, let elapsed):
            pausedAtMs = paused.millisecondsSince1970
            elapsedMs = elapsed.wholeMilliseconds
        case .completed(_, let completed, let elapsed):
            completedAtMs = completed.millisecondsSince1970
            elapsedMs = elapsed.wholeMilliseconds
        }
    }

    /// The run, or `nil` when the state is unknown or lacks one of its instants (a corrupt row).
    public var run: FocusRun? {
        func date(_ milliseconds: Int64?) -> Date? { milliseconds.map(Date.init(millisecondsSince1970:)) }
        let elapsed = Duration.milliseconds(elapsedMs)
        switch state {
        case "idle": return .idle
        case "running":
            guard let start = date(startedAtMs), let resumed = date(resumedAtMs) else { return nil }
            return .running(startedAt: start, resumedAt: resumed, elapsedBefore: elapsed)
        case "paused":
            guard let start = date(startedAtMs), let paused = date(pausedAtMs) else { return nil }
            return .paused(startedAt: start, pausedAt: paused, elapsed: elapsed)
        case "completed":
            guard let start = date(startedAtMs), let completed = date(completedAtMs) else { return nil }
            return .completed(startedAt: start, completedAt: completed, elapsed: elapsed)
        default: return nil
        }
    }
}
