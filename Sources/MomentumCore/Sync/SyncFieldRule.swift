import Foundation

/// What a synced field accepts. The checks are per field; rules between fields (a record's end
/// after its start, a run's elapsed time within the duration) are for whoever builds the entity
/// from its fields, because concurrent edits of two fields may each be valid and only together not.
public enum SyncFieldRule: Sendable, Equatable {
    /// A string of at most `maximumLength` characters.
    case text(maximumLength: Int, blankAllowed: Bool = true)
    /// A focus timer's name (non-blank, at most 100 characters).
    case focusTimerName
    /// A checklist item's text (non-blank, at most 200 characters).
    case checklistText
    /// One of ``FocusTimer/icons``.
    case icon
    /// `#RRGGBB`.
    case color
    case integer(ClosedRange<Int64>)
    /// Milliseconds in these bounds that make whole seconds.
    case wholeSeconds(ClosedRange<Int64>)
    case flag
    /// Milliseconds since 1970.
    case instant
    /// A practice record's start or end: milliseconds since 1970, within
    /// ``InstantWindow/record(now:)`` around the change's own stamp (a change cannot log a
    /// practice more than a day after it was made; a pushed stamp is at most minutes ahead).
    case recordInstant
    /// A number from 0 to ``PracticeRecord/maximumEnergyKilocalories``, or null.
    case optionalAmount
    /// One of these strings.
    case choice([String])
    /// The id of an entity of this type.
    case reference(SyncEntityType)
    /// An object of strings (a record's details).
    case textMap
    /// A focus timer's run: `{"status": "idle"}`, or running / paused / completed with its instants.
    case focusRun
    /// A setting's value as text; the setting is the change's entity id.
    case settingText
    /// A saved sit's name (non-blank, at most 100 characters, one line).
    case meditationPresetName
    /// A saved sit's plan: its JSON text (`MeditationPlan+Codable`) within the plan's bounds.
    case meditationPlan

    /// The one spelling of a value that may be written more than one way: a reference's id in
    /// lower case, and a number without a fraction as an integer (as JSON brings it back).
    func normalized(_ value: SyncValue) -> SyncValue {
        switch (self, value) {
        case (.reference(let type), .string(let id)): type.canonicalID(id).map(SyncValue.string) ?? value
        default: value.normalizedNumbers
        }
    }

    /// Whether `value` is one this field takes; `entityID` is the change's (canonical) id and
    /// `stamp` when it was made.
    ///
    /// A field's own check (`FocusTimer.checkName` …) says why it refuses a value; here only
    /// whether it does: the change is refused as `wrongValue` with ``expectation`` (Change.swift).
    func accepts(_ value: SyncValue, entityID: String, stamp: HybridTimestamp) -> Bool {
        switch self {
        case .text(let maximumLength, let blankAllowed):
            guard let text = value.text, text.count <= maximumLength,
                TextInput.firstRefusedCharacter(in: text, lines: .multiple) == nil
            else { return false }
            return blankAllowed || !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        case .focusTimerName:
            guard let text = value.text else { return false }
            // try?: a refused value is the answer; the change is refused naming what the field takes.
            return (try? FocusTimer.checkName(text)) != nil
        case .checklistText:
            guard let text = value.text else { return false }
            // try?: a refused value is the answer; the change is refused naming what the field takes.
            return (try? ChecklistItem.checkText(text)) != nil
        case .icon:
            guard let text = value.text else { return false }
            // try?: a refused value is the answer; the change is refused naming what the field takes.
            return (try? FocusTimer.checkIcon(text)) != nil
        case .color:
            guard let text = value.text else { return false }
            // try?: a refused value is the answer; the change is refused naming what the field takes.
            return (try? FocusTimer.checkColor(text)) != nil
        case .integer(let bounds):
            return value.integer.map(bounds.contains) ?? false
        case .wholeSeconds(let bounds):
            guard let milliseconds = value.integer else { return false }
            return bounds.contains(milliseconds) && milliseconds % 1000 == 0
        case .flag:
            if case .bool = value { return true }
            return false
        case .instant:
            return value.integer.map { (0...HybridTimestamp.maximumPhysical).contains($0) } ?? false
        case .recordInstant:
            guard let milliseconds = value.integer, (0...HybridTimestamp.maximumPhysical).contains(milliseconds)
            else { return false }
            return InstantWindow.record(now: Date(syncMilliseconds: stamp.physical))
                .contains(Date(syncMilliseconds: milliseconds))
        case .optionalAmount:
            switch value {
            case .null: return true
            case .integer(let integer): return (0...Int64(PracticeRecord.maximumEnergyKilocalories)).contains(integer)
            case .number(let number): return (0...PracticeRecord.maximumEnergyKilocalories).contains(number)
            default: return false
            }
        case .choice(let choices):
            return value.text.map(choices.contains) ?? false
        case .reference(let type):
            return value.text.flatMap(type.canonicalID) != nil
        case .textMap:
            guard case .object(let object) = value else { return false }
            return object.allSatisfy { key, value in
                guard let text = value.text else { return false }
                return TextInput.firstRefusedCharacter(in: key) == nil
                    && TextInput.firstRefusedCharacter(in: text, lines: .multiple) == nil
            }
        case .focusRun:
            return Self.acceptsRun(value)
        case .meditationPresetName:
            guard let text = value.text else { return false }
            // try?: a refused value is the answer; the change is refused naming what the field takes.
            return (try? MeditationPreset.checkName(text)) != nil
        case .meditationPlan:
            return value.text.flatMap(MeditationPlan.init(syncText:)) != nil
        case .settingText:
            guard let text = value.text, let key = SettingKey(rawValue: entityID),
                TextInput.firstRefusedCharacter(in: text) == nil
            else { return false }
            return Self.acceptsSetting(key, text: text)
        }
    }

    /// What the field takes, in words, for error messages.
    public var expectation: String {
        switch self {
        case .text(let maximumLength, let blankAllowed):
            blankAllowed ? "text of at most \(maximumLength) characters" : "text of 1–\(maximumLength) characters"
        case .focusTimerName: "a name of 1–\(FocusTimer.maximumNameLength) characters"
        case .checklistText: "text of 1–\(ChecklistItem.maximumTextLength) characters"
        case .icon: "one of " + FocusTimer.icons.joined(separator: ", ")
        case .color: "a colour #RRGGBB"
        case .integer(let bounds): "a whole number, \(bounds.lowerBound)–\(bounds.upperBound)"
        case .wholeSeconds(let bounds): "whole seconds in milliseconds, \(bounds.lowerBound)–\(bounds.upperBound)"
        case .flag: "true or false"
        case .instant: "milliseconds since 1970"
        case .recordInstant: "milliseconds since 1970, at most a day after the change was made"
        case .optionalAmount: "a number from 0 to \(Int(PracticeRecord.maximumEnergyKilocalories)), or null"
        case .choice(let choices): "one of " + choices.joined(separator: ", ")
        case .reference(let type): "the lower-case id of a \(type.rawValue)"
        case .textMap: "an object of strings"
        case .focusRun: "a run: {\"status\": idle | running | paused | completed, …}"
        case .settingText: "the setting's value as text"
        case .meditationPresetName: "a name of 1–\(MeditationPreset.maximumNameLength) characters"
        case .meditationPlan: "a meditation plan's JSON within its bounds"
        }
    }

    /// The instants and elapsed time each run status carries, as ``FocusRun`` has them.
    static let runFields: [FocusRun.Status: Set<String>] = [
        .idle: [],
        .running: ["startedAt", "resumedAt", "elapsedBeforeMs"],
        .paused: ["startedAt", "pausedAt", "elapsedMs"],
        .completed: ["startedAt", "completedAt", "elapsedMs"],
    ]

    private static func acceptsRun(_ value: SyncValue) -> Bool {
        guard case .object(var object) = value, let statusText = object.removeValue(forKey: "status")?.text,
            let status = FocusRun.Status(rawValue: statusText), let expected = runFields[status],
            Set(object.keys) == expected
        else { return false }
        return object.values.allSatisfy { value in
            value.integer.map { (0...HybridTimestamp.maximumPhysical).contains($0) } ?? false
        }
    }

    /// A setting's text is accepted when it reads and is in its own bounds; whether it fits the
    /// other settings (an interval within the meditation's duration) is decided where they meet.
    private static func acceptsSetting(_ key: SettingKey, text: String) -> Bool {
        guard text.count <= 200 else { return false }
        var settings = MomentumSettings()
        do {
            try settings.set(key, to: text)
            return true
        } catch .plan(_) {
            return true
        } catch {
            return false
        }
    }
}
