import Foundation
import MomentumCore
import MomentumStoreContract

extension ErrorMessages {
    /// The message for an error of the input rules (numbers, instants, texts from outside).
    static func inputMessage(describing error: any Error, catalog: StringCatalog) -> String? {
        switch error {
        case let error as NumberInputError: message(for: error, catalog: catalog)
        case let error as InstantWindowError: message(for: error, catalog: catalog)
        case let error as TextInputError: message(for: error, catalog: catalog)
        case let error as SoundInterruptionError: message(for: error, catalog: catalog)
        case JSONInputError.unknownField(let field): catalog.format(.errorUnknownField, ["field": field])
        case DataDirectoryError.emptyPath: catalog[.errorDataDirectoryEmpty]
        default: nil
        }
    }

    public static func message(for error: NumberInputError, catalog: StringCatalog) -> String {
        switch error {
        case .notFinite(let field): catalog.format(.errorNumberNotFinite, ["field": FieldLabel.subject(field, catalog)])
        case .outOfRange(let field, let value, let bounds):
            catalog.format(
                .errorNumberOutOfRange,
                [
                    "field": FieldLabel.subject(field, catalog), "value": "\(value)", "lower": "\(bounds.lowerBound)",
                    "upper": "\(bounds.upperBound)",
                ])
        }
    }

    /// Sound interruptions a browser reported that no practice can have had.
    public static func message(for error: SoundInterruptionError, catalog: StringCatalog) -> String {
        func words(_ duration: Duration) -> String { DurationFormatting.words(duration, language: catalog.language) }
        return switch error {
        case .offsetOutOfRange:
            catalog.format(.errorSoundInterruptionOffset, ["maximum": words(Timeline.longestRender)])
        case .lengthOutOfRange:
            catalog.format(.errorSoundInterruptionLength, ["maximum": words(SoundInterruption.longestLength)])
        case .tooMany(let count, let maximum):
            catalog.format(.errorSoundInterruptionTooMany, ["count": "\(count)", "maximum": "\(maximum)"])
        }
    }

    public static func message(for error: InstantWindowError, catalog: StringCatalog) -> String {
        func text(_ date: Date) -> String { date.formatted(.iso8601) }
        return switch error {
        case .tooEarly(let field, let instant, let earliest):
            catalog.format(
                .errorInstantTooEarly,
                ["field": FieldLabel.subject(field, catalog), "instant": text(instant), "earliest": text(earliest)])
        case .tooLate(let field, let instant, let latest):
            catalog.format(
                .errorInstantTooLate,
                ["field": FieldLabel.subject(field, catalog), "instant": text(instant), "latest": text(latest)])
        }
    }

    public static func message(for error: TextInputError, catalog: StringCatalog) -> String {
        switch error {
        case .controlCharacter(let field, let code):
            catalog.format(
                .errorControlCharacter, ["field": FieldLabel.inside(field, catalog), "code": codePoint(code)])
        case .bidirectionalControl(let field, let code):
            catalog.format(
                .errorBidirectionalControl, ["field": FieldLabel.inside(field, catalog), "code": codePoint(code)])
        }
    }

    /// A character's code point as people look it up: `U+202E`, at least four hex digits.
    static func codePoint(_ code: UInt32) -> String {
        let hex = String(code, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    static func message(for error: PracticeRecordError, catalog: StringCatalog) -> String {
        switch error {
        case .invalidEnergy:
            catalog.format(.errorEnergyOutOfRange, ["maximum": "\(Int(PracticeRecord.maximumEnergyKilocalories))"])
        case .endsBeforeItStarts: catalog[.errorRecordEndsBeforeStart]
        case .negativeCountedTime: catalog[.errorRecordNegativeCountedTime]
        case .countsMoreThanItLasted: catalog[.errorRecordCountsMoreThanItLasted]
        }
    }
}

/// How a field the input rules refuse is named in a sentence: by what it is to people ("the
/// name", "the start of record 4"), never by its name in code; a field with no words of its own
/// (a JSON key from a file or the API, an option) is named as written, in quotation marks.
enum FieldLabel {
    /// As the subject a sentence starts with: "The start (…) is too late".
    static func subject(_ path: String, _ catalog: StringCatalog) -> String {
        label(path, catalog, known: subjects, other: .fieldSubjectOther)
    }

    /// After "in": "There is a control character (U+0009) in the name".
    static func inside(_ path: String, _ catalog: StringCatalog) -> String {
        label(path, catalog, known: insides, other: .fieldInOther)
    }

    private static let subjects: [String: StringKey] = [
        "start": .fieldSubjectStart, "end": .fieldSubjectEnd, "at": .fieldSubjectAt,
        "responseMs": .fieldSubjectResponseTime,
    ]
    private static let insides: [String: StringKey] = [
        "name": .fieldInName, "notes": .fieldInNotes, "text": .fieldInChecklistItem,
        "exerciseNames": .fieldInExerciseName, "details": .fieldInDetailName, "body": .fieldInRequest,
    ]

    private static func label(
        _ path: String, _ catalog: StringCatalog, known: [String: StringKey], other: StringKey
    ) -> String {
        if path.hasPrefix("-") { return path }  // an option, as typed: --rise
        if let match = path.wholeMatch(of: /records\[([0-9]+)\]\.(.+)/), let index = Int(match.1) {
            return catalog.format(
                .fieldOfRecord,
                ["label": label(String(match.2), catalog, known: known, other: other), "number": "\(index + 1)"])
        }
        if let key = known[path] { return catalog[key] }
        if other == .fieldInOther, path.hasPrefix("details.") {
            return catalog.format(.fieldInDetail, ["key": String(path.dropFirst("details.".count))])
        }
        return catalog.format(other, ["name": path])
    }
}
