extension SoundInterruption {
    /// "The sound was interrupted for 4 s at 12:31." in `catalog`'s language: the length in
    /// words, the offset as the practice's clock shows it.
    public func sentence(_ catalog: StringCatalog) -> String {
        catalog.format(
            .playerSoundInterrupted,
            [
                "duration": DurationFormatting.words(length, language: catalog.language),
                "time": DurationFormatting.clock(offset),
            ])
    }

    /// One sentence for each interruption, in order, or `nil` when there are none.
    public static func sentences(_ interruptions: [SoundInterruption], catalog: StringCatalog) -> String? {
        interruptions.isEmpty ? nil : interruptions.map { $0.sentence(catalog) }.joined(separator: " ")
    }
}
