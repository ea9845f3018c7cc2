import MomentumCore

extension ErrorMessages {
    /// Why a practice is not rendered to an audio file, for the terminal and the web app alike.
    public static func message(for error: RenderLengthError, catalog: StringCatalog) -> String {
        switch error {
        case .tooLong(let length, let limit):
            // The length on a clock face, rounded up: "10 h" would not say why 10 h 0.4 s is too long.
            catalog.format(
                .errorRenderTooLong,
                [
                    "duration": DurationFormatting.clock(length),
                    "limit": DurationFormatting.words(limit, language: catalog.language),
                ])
        }
    }
}
