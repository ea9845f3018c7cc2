import MomentumCore

extension ErrorMessages {
    /// Why a push subscription's endpoint is refused, in the person's words.
    public static func message(for error: PushEndpointError, catalog: StringCatalog) -> String {
        switch error {
        case .malformed: catalog[.errorPushEndpointMalformed]
        case .tooLong(let maximum): catalog.format(.errorPushEndpointTooLong, ["maximum": "\(maximum)"])
        case .notHTTPS: catalog[.errorPushEndpointNotHTTPS]
        case .notPort443: catalog[.errorPushEndpointNotPort443]
        case .notPublic: catalog[.errorPushEndpointNotPublic]
        }
    }

    /// Why a push could not be made, in the person's words.
    public static func message(for error: WebPushError, catalog: StringCatalog) -> String {
        switch error {
        case .malformedKeys: catalog[.errorPushKeys]
        case .messageTooLarge(let bytes, let maximum):
            catalog.format(.errorPushMessageTooLarge, ["bytes": "\(bytes)", "maximum": "\(maximum)"])
        case .malformedServerKey: catalog[.errorPushServerKey]
        case .badContact: catalog[.errorPushContact]
        }
    }
}
