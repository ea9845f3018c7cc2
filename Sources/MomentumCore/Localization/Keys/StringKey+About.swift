// The About view and `momentum about`: what Momentum is and what it is built on.

extension StringKey {
    public static let aboutTitle = StringKey("about.title")
    public static let aboutLink = StringKey("about.link")
    public static let aboutVersion = StringKey("about.version")
    public static let aboutSummary = StringKey("about.summary")
    public static let aboutPrivacy = StringKey("about.privacy")
    public static let aboutSounds = StringKey("about.sounds")
    public static let aboutLibrariesHeading = StringKey("about.librariesHeading")
    public static let aboutLibrariesIntro = StringKey("about.librariesIntro")
    public static let aboutLibrariesMore = StringKey("about.librariesMore")
    public static let aboutLicense = StringKey("about.license")
    public static let aboutLibraryRoleHummingbird = StringKey("about.libraryRole.hummingbird")
    public static let aboutLibraryRoleHummingbirdWebsocket = StringKey("about.libraryRole.hummingbirdWebsocket")
    public static let aboutLibraryRoleGrdb = StringKey("about.libraryRole.grdb")
    public static let aboutLibraryRoleSqlite = StringKey("about.libraryRole.sqlite")
    public static let aboutLibraryRoleSwiftNIO = StringKey("about.libraryRole.swiftNIO")
    public static let aboutLibraryRoleSwiftCrypto = StringKey("about.libraryRole.swiftCrypto")
    public static let aboutLibraryRoleArgumentParser = StringKey("about.libraryRole.argumentParser")
    public static let aboutLibraryRoleSwiftLog = StringKey("about.libraryRole.swiftLog")
    public static let aboutLibraryRoleHttpTypes = StringKey("about.libraryRole.httpTypes")
    public static let aboutLibraryRoleZipFoundation = StringKey("about.libraryRole.zipFoundation")
}
