import MomentumCore
import Testing

@Suite("What a practice came to, in one sentence")
struct EndingSentenceTests {
    @Test func theSentenceSaysWhatWasLoggedInWordsNeverAClock() {
        let sit = EndingSentence.text(
            kind: .meditation, outcome: "completed", practiced: .seconds(1_200), logged: true, language: .english)
        #expect(sit == "Logged 20 min of meditation.")
        let breath = EndingSentence.text(
            kind: .breathing, outcome: "stoppedEarly", practiced: .seconds(185), logged: true, language: .english)
        #expect(breath == "Logged 3 min 5 s of breathing.")
        let workout = EndingSentence.text(
            kind: .workout, outcome: "completed", practiced: .seconds(420), logged: true, language: .german)
        #expect(workout == "Training von 7 Min. protokolliert.")
        let short = EndingSentence.text(
            kind: .workout, outcome: "tooShortToLog", practiced: .milliseconds(3_030), logged: false,
            language: .english)
        #expect(short == "Stopped after 3 s — under a minute, so nothing was logged.")
        let discarded = EndingSentence.text(
            kind: .meditation, outcome: "stoppedEarly", practiced: .seconds(300), logged: false, language: .german)
        #expect(discarded == "Nicht protokolliert.")
    }
}
