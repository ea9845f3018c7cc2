import Foundation

extension MeditationPlan {
    /// The sit in one short line, in the catalog's language: its length (or open-ended), its
    /// interval gongs, its reflection and its ambient sound, each only when there is one.
    ///
    /// ```swift
    /// MeditationPlan(duration: .minutes(20), intervalGongs: .every(minutes: 5)).summary(english)
    /// // "20 min · gongs every 5 min"
    /// ```
    public func summary(_ catalog: StringCatalog, ambientCatalog: AmbientCatalog = .builtIn) -> String {
        let language = catalog.language
        var parts = [
            isOpenEnded
                ? catalog[.meditationPresetSummaryOpenEnded] : DurationFormatting.words(duration, language: language)
        ]
        if intervalGongs != .off {
            parts.append(catalog.format(.meditationPresetSummaryGongs, ["interval": intervalGongs.label(catalog)]))
        }
        if reflection > .zero {
            parts.append(
                catalog.format(
                    .meditationPresetSummaryReflection,
                    ["duration": DurationFormatting.words(reflection, language: language)]))
        }
        if ambientID != AmbientSound.silent.id {
            parts.append(ambientCatalog.sound(id: ambientID)?.name(in: language) ?? ambientID)
        }
        return parts.joined(separator: " · ")
    }
}

extension IntervalGongs {
    /// The choice in words: "off", "every 5 min", "at 25, 30 min" (what the Meditate form and a
    /// saved sit's summary show).
    public func label(_ catalog: StringCatalog) -> String {
        switch self {
        case .off: catalog[.valueOff]
        case .every(let minutes): catalog.format(.valueEveryMinutes, ["minutes": String(minutes)])
        case .offsets(let offsets):
            catalog.format(
                .valueAtMinutes, ["minutes": offsets.map { DurationText.minutesText($0) }.joined(separator: ", ")])
        }
    }
}
