import MomentumCore

extension ErrorMessages {
    /// A text that is not a call sign, saying which rule it breaks.
    public static func message(for error: CallSignError, catalog: StringCatalog) -> String {
        switch error {
        case .empty: catalog[.errorCallSignEmpty]
        case .invalidCharacter(let character, let call):
            catalog.format(.errorCallSignInvalidCharacter, ["character": String(character), "call": call])
        case .tooShort(let call): catalog.format(.errorCallSignTooShort, ["call": call])
        case .tooLong(let call): catalog.format(.errorCallSignTooLong, ["call": call])
        case .misplacedSlash(let call): catalog.format(.errorCallSignMisplacedSlash, ["call": call])
        case .noDigit(let call): catalog.format(.errorCallSignNoDigit, ["call": call])
        case .noLetter(let call): catalog.format(.errorCallSignNoLetter, ["call": call])
        }
    }

    /// Why a contact cannot start or cannot take a transmission.
    public static func message(for error: QSOError, catalog: StringCatalog) -> String {
        switch error {
        case .noOwnCallSign: catalog[.errorQSONoOwnCallSign]
        case .invalidOwnCallSign(let problem):
            catalog.format(.errorQSOInvalidOwnCallSign, ["detail": message(for: problem, catalog: catalog)])
        case .stationHasOwnCallSign(let call): catalog.format(.errorQSOStationHasOwnCallSign, ["call": call.text])
        case .contactIsOver: catalog[.errorQSOContactIsOver]
        case .transmissionTooLong(let count):
            catalog.format(
                .errorQSOTransmissionTooLong, ["count": "\(count)", "maximum": "\(QSO.maximumTransmissionLength)"])
        }
    }

    /// The name of a part of a transmission, as a hint lists it (`missing: name, report (RST)`).
    public static func name(of element: QSOElement, catalog: StringCatalog) -> String {
        switch element {
        case .cq: catalog[.qsoElementCQ]
        case .stationCallSign: catalog[.qsoElementStationCallSign]
        case .ownCallSign: catalog[.qsoElementOwnCallSign]
        case .report: catalog[.qsoElementReport]
        case .serialNumber: catalog[.qsoElementSerialNumber]
        case .name: catalog[.qsoElementName]
        case .location: catalog[.qsoElementLocation]
        case .rig: catalog[.qsoElementRig]
        case .weather: catalog[.qsoElementWeather]
        case .signOff: catalog[.qsoElementSignOff]
        }
    }

    /// The hint after an incomplete transmission: `missing: report (RST), name`.
    public static func missingHint(_ missing: [QSOElement], catalog: StringCatalog) -> String {
        catalog.format(
            .qsoMissing, ["elements": missing.map { name(of: $0, catalog: catalog) }.joined(separator: ", ")])
    }
}
