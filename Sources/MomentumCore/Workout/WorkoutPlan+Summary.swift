extension WorkoutPlan {
    /// The plan in one line of the catalog's language: "40 s work, 20 s rest × 8, 3 sets" (the
    /// sets only when more than one), as the web's program list shows it.
    public func summary(catalog: StringCatalog) -> String {
        let values = [
            "work": "\(work.wholeMilliseconds / 1000)", "rest": "\(rest.wholeMilliseconds / 1000)",
            "rounds": "\(rounds)", "sets": "\(sets)",
        ]
        return catalog.format(sets > 1 ? .workoutSummarySets : .workoutSummary, values)
    }
}
