import Foundation
import MomentumCore

extension MomentumServices {
    /// The person's most used practices at `now`, named in `language`, for the web app manifest's
    /// `shortcuts`: the log of the last 90 days counted by the core's ``PracticeShortcuts``.
    public func practiceShortcuts(now: Date, language: Language) async throws -> [PracticeShortcut] {
        let records = try await practiceLog.records(
            matching: PracticeLogQuery(since: now.addingTimeInterval(-PracticeShortcuts.window)))
        return await PracticeShortcuts.choose(
            records: records, now: now, meditationPresets: try await meditationPresets.presets(),
            breathingPresets: try breathing.presets(), workoutPrograms: try await workouts.programs(),
            catalog: .shared(for: language))
    }
}
