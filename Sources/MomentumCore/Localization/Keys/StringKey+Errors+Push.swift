// Refusals of Web Push: subscriptions whose endpoint or keys cannot be used, and the server's key.

extension StringKey {
    public static let errorPushEndpointMalformed = StringKey("error.push.endpoint.malformed")
    public static let errorPushEndpointTooLong = StringKey("error.push.endpoint.tooLong")
    public static let errorPushEndpointNotHTTPS = StringKey("error.push.endpoint.notHTTPS")
    public static let errorPushEndpointNotPort443 = StringKey("error.push.endpoint.notPort443")
    public static let errorPushEndpointNotPublic = StringKey("error.push.endpoint.notPublic")
    public static let errorPushKeys = StringKey("error.push.keys")
    public static let errorPushExpiry = StringKey("error.push.expiry")
    public static let errorPushNoSuchSubscription = StringKey("error.push.noSuchSubscription")
    public static let errorPushMessageTooLarge = StringKey("error.push.messageTooLarge")
    public static let errorPushServerKey = StringKey("error.push.serverKey")
    public static let errorPushContact = StringKey("error.push.contact")
    public static let errorPushNotRunning = StringKey("error.push.notRunning")
}
