import MomentumCore

extension ErrorMessages {
    /// The message of a tracker's error; `nil` for others.
    static func trackerMessage(describing error: any Error, catalog: StringCatalog) -> String? {
        switch error {
        case let error as TrackerError: message(for: error, catalog: catalog)
        case let error as TrackerServiceError:
            switch error {
            case .invalid(let tracker): message(for: tracker, catalog: catalog)
            case .store(let store): message(for: store, catalog: catalog)
            }
        default: nil
        }
    }

    /// Why a tracker or an answer is refused, in the person's words.
    public static func message(for error: TrackerError, catalog: StringCatalog) -> String {
        switch error {
        case .emptyName: catalog[.errorTrackerEmptyName]
        case .nameTooLong(let maximum): catalog.format(.errorTrackerNameTooLong, ["maximum": "\(maximum)"])
        case .name(let input): message(for: input, catalog: catalog)
        case .duplicateName(let name): catalog.format(.errorTrackerDuplicateName, ["name": name])
        case .tooMany(let maximum): catalog.format(.errorTrackerTooMany, ["maximum": "\(maximum)"])
        case .futureDay(let day): catalog.format(.errorTrackerFutureDay, ["day": day.description])
        case .dayTooEarly: catalog[.errorTrackerDayTooEarly]
        case .unknownTracker(let name): catalog.format(.errorTrackerUnknown, ["name": name])
        }
    }
}

extension TrackerServiceError: ClassifiedFailure {
    public var failureKind: FailureKind {
        switch self {
        case .invalid(.unknownTracker): .notFound
        case .invalid(.duplicateName): .conflict
        case .invalid: .invalid
        case .store(let store): store.failureKind
        }
    }
}
