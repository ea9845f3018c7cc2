import MomentumCore

extension ErrorMessages {
    /// Why a household change, a person's name or a pairing was refused, in the person's words.
    static func peopleMessage(describing error: any Error, catalog: StringCatalog) -> String? {
        switch error {
        case let error as PersonError: message(for: error, catalog: catalog)
        case let error as PairingError: message(for: error, catalog: catalog)
        case let error as HouseholdError:
            switch error {
            case .person(let person): message(for: person, catalog: catalog)
            case .pairing(let pairing): message(for: pairing, catalog: catalog)
            case .store(let store): message(for: store, catalog: catalog)
            case .ownerOnly: catalog[.apiOwnerOnly]
            case .noSuchPerson: catalog[.apiNoSuchPerson]
            }
        default: nil
        }
    }

    public static func message(for error: PersonError, catalog: StringCatalog) -> String {
        switch error {
        case .nameEmpty: catalog[.errorPersonNameEmpty]
        case .nameTooLong(let count, let maximum):
            catalog.format(.errorPersonNameTooLong, ["count": "\(count)", "maximum": "\(maximum)"])
        case .nameControlCharacter: catalog[.errorPersonNameControlCharacter]
        case .nameBidirectionalControl(let code):
            catalog.format(.errorPersonNameBidirectionalControl, ["code": codePoint(code)])
        case .nameStartsWithDash: catalog[.errorPersonNameStartsWithDash]
        case .nameTaken(let name): catalog.format(.errorPersonNameTaken, ["name": name])
        case .unknownPerson(let name): catalog.format(.errorPersonUnknown, ["name": name])
        case .lastOwner(let name): catalog.format(.errorPersonLastOwner, ["name": name])
        case .founderStays(let name): catalog.format(.errorPersonFounderStays, ["name": name])
        case .householdFull(let maximum): catalog.format(.errorPersonHouseholdFull, ["maximum": "\(maximum)"])
        case .pinFormat(let minimum, let maximum):
            catalog.format(.errorPersonPinFormat, ["minimum": "\(minimum)", "maximum": "\(maximum)"])
        case .pinWrong: catalog[.errorPersonPinWrong]
        case .shareWithOwner(let name): catalog.format(.errorPersonShareWithOwner, ["name": name])
        }
    }

    public static func message(for error: PairingError, catalog: StringCatalog) -> String {
        switch error {
        case .malformed: catalog[.errorPairingMalformed]
        case .notUsable: catalog[.errorPairingNotUsable]
        case .badAddress(let address): catalog.format(.errorPairingBadAddress, ["value": address])
        }
    }
}

extension PersonError: ClassifiedFailure {
    public var failureKind: FailureKind {
        switch self {
        case .unknownPerson: .notFound
        case .nameTaken, .lastOwner, .founderStays, .householdFull: .conflict
        default: .invalid
        }
    }
}

extension PairingError: ClassifiedFailure {
    public var failureKind: FailureKind { .invalid }
    public var failureCode: String? { "pairing_code" }
}

extension HouseholdError: ClassifiedFailure {
    public var failureKind: FailureKind {
        switch self {
        case .person(let person): person.failureKind
        case .pairing(let pairing): pairing.failureKind
        case .store(let store): store.failureKind
        case .ownerOnly: .forbidden
        case .noSuchPerson: .notFound
        }
    }
    public var failureCode: String? {
        switch self {
        case .pairing(let pairing): pairing.failureCode
        case .ownerOnly: "owner_only"
        default: nil
        }
    }
}
