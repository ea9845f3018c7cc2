import Foundation
import MomentumCore

extension RunsController {
    /// A stall of the sound as the browser measures it and the server answers it: where in the
    /// practice (`atMs`, the timeline offset) and how long it lasted, in whole milliseconds.
    struct SoundInterruptionBody: Codable, Sendable, Equatable {
        var atMs: Int64
        var durationMs: Int64

        init(_ interruption: SoundInterruption) {
            atMs = interruption.offset.wholeMilliseconds
            durationMs = interruption.length.wholeMilliseconds
        }
    }

    /// How a run ended (``PracticeRun/Ending``), with the interruptions of its sound worth
    /// telling and what the core says of them in the request's language — whether or not the run
    /// was logged, so the page can tell the person either way.
    struct EndingBody: Encodable {
        var outcome: String
        var practicedMs: Int64
        var logged: Bool
        /// The interruptions kept (those worth telling, in order); empty when none.
        var soundInterruptions: [SoundInterruptionBody]
        /// One sentence for each ("The sound was interrupted for 4 s at 12:31."); absent when none.
        var soundText: String?
        /// What was done and what was logged, in words (``EndingSentence``): "Logged 20 min of
        /// meditation."
        var text: String

        init(_ ending: PracticeRun.Ending, kind: PracticeKind, language: Language) {
            outcome = ending.outcome
            practicedMs = ending.practicedMs
            logged = ending.logged
            text = EndingSentence.text(
                kind: kind, outcome: ending.outcome, practiced: .milliseconds(ending.practicedMs),
                logged: ending.logged,
                language: language)
            soundInterruptions = ending.soundInterruptions.map(SoundInterruptionBody.init)
            soundText = SoundInterruption.sentences(ending.soundInterruptions, catalog: .shared(for: language))
        }
    }
}
