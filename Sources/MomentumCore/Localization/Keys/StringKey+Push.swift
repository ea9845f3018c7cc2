// What Web Push notifications say beyond the reminders' own titles and bodies.

extension StringKey {
    public static let pushActionStart = StringKey("push.action.start")
    public static let pushTestTitle = StringKey("push.test.title")
    public static let pushTestBody = StringKey("push.test.body")
}
