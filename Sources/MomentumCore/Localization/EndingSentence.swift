/// What a timed practice came to, in one sentence of the person's language — the completion view's
/// "what was done and what was logged": "Logged 20 min of meditation.", "Stopped after 40 s —
/// under a minute, so nothing was logged.", "Not logged." Durations are words, never a clock.
public enum EndingSentence {
    /// `outcome` is the ending's outcome (`completed`, `stoppedEarly`, `tooShortToLog`).
    public static func text(
        kind: PracticeKind, outcome: String, practiced: Duration, logged: Bool, language: Language
    ) -> String {
        let catalog = StringCatalog.shared(for: language)
        let duration = DurationFormatting.words(practiced, language: language)
        if outcome == "tooShortToLog" { return catalog.format(.playerTooShortToLog, ["duration": duration]) }
        guard logged else { return catalog[.playerDiscarded] }
        let key: StringKey =
            switch kind {
            case .breathing: .endLoggedBreathing
            case .workout: .endLoggedWorkout
            default: .endLoggedMeditation
            }
        return catalog.format(key, ["duration": duration])
    }

    /// What listening to a guided meditation came to, in words: "Logged 12 min 30 s of guided
    /// meditation. …", "Stopped after 40 s of listening — under a minute, so nothing was logged.";
    /// `nil` when not logged and under a second was heard (nothing worth saying).
    public static func listening(_ listened: Duration, logged: Bool, language: Language) -> String? {
        let catalog = StringCatalog.shared(for: language)
        let duration = DurationFormatting.words(listened, language: language)
        if logged { return catalog.format(.libraryWebLogged, ["duration": duration]) }
        guard listened >= .seconds(1) else { return nil }
        return catalog.format(.libraryWebNotLogged, ["duration": duration])
    }
}
