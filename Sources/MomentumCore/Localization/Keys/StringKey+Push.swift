// What Web Push notifications say beyond the reminders' own titles and bodies.

extension StringKey {
    public static let pushActionStart = StringKey("push.action.start")
    public static let pushTestTitle = StringKey("push.test.title")
    public static let pushTestBody = StringKey("push.test.body")
}

// `momentum push list|test|remove` and `serve --push-contact`.
extension StringKey {
    public static let pushNone = StringKey("push.none")
    public static let pushNever = StringKey("push.never")
    public static let pushRemoved = StringKey("push.removed")
    public static let pushTestDelivered = StringKey("push.test.delivered")
    public static let pushTestGone = StringKey("push.test.gone")
    public static let pushTestFailed = StringKey("push.test.failed")
    public static let errorServePushContact = StringKey("error.servePushContact")
}
