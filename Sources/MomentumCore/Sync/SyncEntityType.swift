import Foundation

/// The kinds of things that sync, each with the form of its ids and the one list of its fields.
public enum SyncEntityType: String, Sendable, Codable, CaseIterable {
    case focusTimer
    case checklistItem
    case practiceRecord
    case setting
    case meditationPreset

    /// Every field a change may set on this type, with the values it takes. Time is in
    /// milliseconds since 1970 (instants) or milliseconds (durations).
    public var fields: [String: SyncFieldRule] {
        switch self {
        case .focusTimer: Self.focusTimerFields
        case .checklistItem: Self.checklistItemFields
        case .practiceRecord: Self.practiceRecordFields
        case .setting: Self.settingFields
        case .meditationPreset: Self.meditationPresetFields
        }
    }

    private static let focusTimerFields: [String: SyncFieldRule] = [
        "name": .focusTimerName,
        "durationMs": .wholeSeconds(
            FocusTimer.durationBounds.lowerBound
                .wholeMilliseconds...FocusTimer.durationBounds.upperBound.wholeMilliseconds),
        "icon": .icon,
        "color": .color,
        "notes": .text(maximumLength: FocusTimer.maximumNotesLength),
        "sortOrder": .integer(sortOrderBounds),
        "createdAt": .instant,
        "run": .focusRun,
    ]

    private static let checklistItemFields: [String: SyncFieldRule] = [
        // An item's timer is written when the item is made and never moves (see docs/sync.md).
        timerReferenceField: .reference(.focusTimer),
        "text": .checklistText,
        "done": .flag,
        "sortOrder": .integer(sortOrderBounds),
        "createdAt": .instant,
    ]

    private static let practiceRecordFields: [String: SyncFieldRule] = [
        "kind": .choice(PracticeKind.allCases.map(\.rawValue)),
        "start": .recordInstant,
        "end": .recordInstant,
        "countedSeconds": .integer(0...Int64(PracticeRecord.maximumLength)),
        "energyKilocalories": .optionalAmount,
        "details": .textMap,
        "device": .text(maximumLength: 200, blankAllowed: false),
    ]

    private static let settingFields: [String: SyncFieldRule] = [settingValueField: .settingText]

    /// A saved sit's plan is one field, so a sit is never half one device's and half another's
    /// (an interval from one with a length from the other might not fit).
    private static let meditationPresetFields: [String: SyncFieldRule] = [
        "name": .meditationPresetName,
        "plan": .meditationPlan,
        "createdAt": .instant,
        "sortOrder": .integer(sortOrderBounds),
    ]

    /// Settings are reset by writing their default, never deleted: a deleted id would stay deleted.
    public var isDeletable: Bool { self != .setting }

    /// The field of a checklist item that names its timer; a timer's deletion reaches every item
    /// that ever named it.
    public static let timerReferenceField = "timerID"
    /// A setting's only field: its value in the text form `momentum settings set` reads.
    public static let settingValueField = "value"

    static let sortOrderBounds: ClosedRange<Int64> = -1_000_000_000...1_000_000_000

    /// The id in its one spelling (UUIDs in lower case, as the API writes them), or `nil` when it
    /// is not of this type's form: a UUID, or for a setting a ``SettingKey``.
    public func canonicalID(_ id: String) -> String? {
        switch self {
        case .focusTimer, .checklistItem, .practiceRecord, .meditationPreset:
            UUID(uuidString: id).map { $0.uuidString.lowercased() }
        case .setting:
            SettingKey(rawValue: id)?.rawValue
        }
    }
}
