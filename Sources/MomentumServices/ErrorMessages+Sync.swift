import MomentumCore
import MomentumStoreContract

extension ErrorMessages {
    /// Why sync stopped, in the person's words: never a Swift case or a type's raw name.
    public static func message(for error: SyncError, catalog: StringCatalog) -> String {
        switch error {
        case .batch(.tooManyChanges(let count, let maximum)):
            catalog.format(.errorSyncTooManyChanges, ["count": "\(count)", "maximum": "\(maximum)"])
        case .batch(.invalidChange(_, let problem)), .invalidPulledChange(_, let problem):
            message(for: problem, catalog: catalog)
        case .cursorBeyondHead, .invalidPage: catalog[.errorSyncOutOfStep]
        case .store(let store): message(for: store, catalog: catalog)
        }
    }

    /// A refused change: what it was a change to, and what was wrong with it.
    public static func message(for problem: ChangeError, catalog: StringCatalog) -> String {
        let type: SyncEntityType
        let reason: String
        switch problem {
        case .unknownEntityType: return catalog[.errorSyncChangeOfUnknownType]
        case .malformedEntityID(let entity, _): (type, reason) = (entity, catalog[.syncReasonMalformedID])
        case .unknownField(let entity, let field):
            (type, reason) = (entity, catalog.format(.syncReasonUnknownField, ["field": field]))
        case .wrongValue(let entity, let field, _):
            (type, reason) = (entity, catalog.format(.syncReasonWrongValue, ["field": field]))
        case .notDeletable(let entity): (type, reason) = (entity, catalog[.syncReasonNotDeletable])
        case .malformedOperation, .invalidDevice, .stamp:
            let reasonKey: StringKey =
                switch problem {
                case .invalidDevice: .syncReasonInvalidDevice
                case .stamp(.tooFarAhead): .syncReasonStampAhead
                case .stamp: .syncReasonStampMalformed
                default: .syncReasonMalformedOperation
                }
            return catalog.format(.errorSyncChangeRefused, ["reason": catalog[reasonKey]])
        }
        return catalog.format(.errorSyncChange, ["type": catalog[type.nameKey], "reason": reason])
    }
}

extension SyncEntityType {
    /// The catalog name of what this type syncs, for messages.
    public var nameKey: StringKey {
        switch self {
        case .focusTimer: .syncEntityFocusTimer
        case .checklistItem: .syncEntityChecklistItem
        case .practiceRecord: .syncEntityPracticeRecord
        case .setting: .syncEntitySetting
        case .meditationPreset: .syncEntityMeditationPreset
        }
    }
}
