// Sitting together (issue 45): the refusals of a shared session, in the request's language.

extension StringKey {
    public static let apiNoTogether = StringKey("api.noTogether")
    public static let apiTogetherNotHost = StringKey("api.togetherNotHost")
    public static let apiTogetherOver = StringKey("api.togetherOver")
    public static let apiTogetherFull = StringKey("api.togetherFull")
    public static let apiTogetherNotIn = StringKey("api.togetherNotIn")
    public static let apiTogetherLeft = StringKey("api.togetherLeft")
    public static let apiTogetherOpenEnded = StringKey("api.togetherOpenEnded")
    public static let apiTogetherPerson = StringKey("api.togetherPerson")
    public static let apiClockSamples = StringKey("api.clockSamples")
}
