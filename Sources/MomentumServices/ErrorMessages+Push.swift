import MomentumCore

extension ErrorMessages {
    /// The message of a Web Push error; `nil` for others.
    static func pushMessage(describing error: any Error, catalog: StringCatalog) -> String? {
        switch error {
        case let error as PushEndpointError: message(for: error, catalog: catalog)
        case let error as WebPushError: message(for: error, catalog: catalog)
        case let error as PushSubscriptionError:
            switch error {
            case .endpoint(let endpoint): message(for: endpoint, catalog: catalog)
            case .keys(let keys): message(for: keys, catalog: catalog)
            case .expiry: catalog[.errorPushExpiry]
            case .store(let store): message(for: store, catalog: catalog)
            // A device's name is refused as the `X-Momentum-Device` header's is, by the server
            // (`DeviceNameMiddleware.refusal`), with its own code.
            case .deviceName: nil
            }
        case let error as PushServiceError:
            switch error {
            case .store(let store): message(for: store, catalog: catalog)
            case .push(let push): message(for: push, catalog: catalog)
            }
        default: nil
        }
    }

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

extension PushServiceError: ClassifiedFailure {
    /// A key the store keeps but that cannot be read is the server's failure, not the asker's.
    public var failureKind: FailureKind {
        switch self {
        case .store(let store): store.failureKind
        case .push(.malformedServerKey): .unexpected
        case .push: .invalid
        }
    }
}
