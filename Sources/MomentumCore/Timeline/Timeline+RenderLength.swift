extension Timeline {
    /// The longest timeline rendered to one audio file: ten hours.
    ///
    /// Longer ones take minutes of a core and gigabytes of disk (ten hours of 44.1 kHz mono are
    /// 3.2 GB) for a file no one plays through; the web app and `momentum render` both refuse them.
    public static let longestRender: Duration = .seconds(10 * 60 * 60)

    /// Throws when the timeline is too long to render to an audio file.
    ///
    /// ```swift
    /// try MeditationPlan(duration: .seconds(36_000), countdown: .zero).timeline().checkRenderLength()  // fine
    /// ```
    ///
    /// An open-ended timeline passes: it has no length, and the renderer says so itself.
    public func checkRenderLength() throws(RenderLengthError) {
        guard let total = totalDuration, total > Self.longestRender else { return }
        throw .tooLong(total, limit: Self.longestRender)
    }
}

/// Why a timeline is not rendered to an audio file.
public enum RenderLengthError: Error, Equatable, Sendable {
    /// The timeline lasts longer than ``Timeline/longestRender``.
    case tooLong(Duration, limit: Duration)
}
