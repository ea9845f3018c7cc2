import Foundation

/// What the About view and `momentum about` say, in the person's language: the version, what
/// Momentum is, that the data stays on the person's server, that every sound is synthesized, and
/// the open-source libraries it is built on with their licenses.
///
/// ```swift
/// let about = AboutInfo(version: "0.1.0", language: .english)
/// about.libraries.map(\.name)  // ["Hummingbird", "Hummingbird WebSocket", "GRDB", "SQLite", …]
/// ```
public struct AboutInfo: Sendable, Equatable, Encodable {
    public var version: String
    /// "Version 0.1.0".
    public var versionText: String
    public var title: String
    /// What Momentum is, in one or two calm sentences.
    public var summary: String
    /// That no data leaves the person's server.
    public var privacy: String
    /// That every sound is synthesized, and no recordings are shipped.
    public var sounds: String
    public var librariesHeading: String
    public var librariesIntro: String
    public var libraries: [Library]
    /// The packages the libraries use in turn, in one sentence.
    public var librariesMore: String

    /// One library, with its license as an SPDX identifier.
    public struct Library: Sendable, Equatable, Encodable {
        public var name: String
        /// What it does for Momentum, in the person's language.
        public var role: String
        /// The license's SPDX identifier, as its `LICENSE` file says (`Apache-2.0`, `MIT`).
        public var license: String
        /// "License: MIT".
        public var licenseText: String
        public var copyright: String?
        public var url: String
    }

    public init(version: String, language: Language) {
        let catalog = StringCatalog.shared(for: language)
        self.version = version
        versionText = catalog.format(.aboutVersion, ["version": version])
        title = catalog[.aboutTitle]
        summary = catalog[.aboutSummary]
        privacy = catalog[.aboutPrivacy]
        sounds = catalog[.aboutSounds]
        librariesHeading = catalog[.aboutLibrariesHeading]
        librariesIntro = catalog[.aboutLibrariesIntro]
        librariesMore = catalog[.aboutLibrariesMore]
        libraries = OpenSourceNotice.all.map { notice in
            Library(
                name: notice.name, role: catalog[notice.role], license: notice.license,
                licenseText: catalog.format(.aboutLicense, ["license": notice.license]),
                copyright: notice.copyright, url: notice.url)
        }
    }
}

/// The open-source libraries Momentum is built on: every package `Package.swift` depends on (a
/// test holds the two together) and SQLite, which GRDB uses. Each license is the one its checked-out
/// package's `LICENSE` file states, as an SPDX identifier.
public struct OpenSourceNotice: Sendable, Equatable {
    public var name: String
    /// The package's identity in `Package.swift`, lowercased (the last part of its URL); `nil` for
    /// SQLite, which is the system's library.
    public var package: String?
    public var license: String
    public var copyright: String?
    public var url: String
    public var role: StringKey

    /// Every library, the server's first.
    public static let all: [OpenSourceNotice] = [
        OpenSourceNotice(
            name: "Hummingbird", package: "hummingbird", license: "Apache-2.0",
            copyright: "Copyright 2024 The Hummingbird Project",
            url: "https://github.com/hummingbird-project/hummingbird", role: .aboutLibraryRoleHummingbird),
        OpenSourceNotice(
            name: "Hummingbird WebSocket", package: "hummingbird-websocket", license: "Apache-2.0",
            copyright: "Copyright (c) the Hummingbird authors",
            url: "https://github.com/hummingbird-project/hummingbird-websocket",
            role: .aboutLibraryRoleHummingbirdWebsocket),
        OpenSourceNotice(
            name: "SwiftNIO", package: "swift-nio", license: "Apache-2.0",
            copyright: "Copyright 2017, 2018 The SwiftNIO Project", url: "https://github.com/apple/swift-nio",
            role: .aboutLibraryRoleSwiftNIO),
        OpenSourceNotice(
            name: "SwiftNIO SSL", package: "swift-nio-ssl", license: "Apache-2.0",
            copyright: "Copyright 2017, 2018 The SwiftNIO Project (includes BoringSSL)",
            url: "https://github.com/apple/swift-nio-ssl", role: .aboutLibraryRoleSwiftNIOSSL),
        OpenSourceNotice(
            name: "Swift HTTP Types", package: "swift-http-types", license: "Apache-2.0",
            copyright: "Copyright 2023 The Swift HTTP Types Project", url: "https://github.com/apple/swift-http-types",
            role: .aboutLibraryRoleHttpTypes),
        OpenSourceNotice(
            name: "GRDB", package: "grdb.swift", license: "MIT", copyright: "Copyright (C) 2015-2025 Gwendal Roué",
            url: "https://github.com/groue/GRDB.swift", role: .aboutLibraryRoleGrdb),
        OpenSourceNotice(
            name: "SQLite", package: nil, license: "blessing",
            copyright: "Public domain (the SQLite blessing)", url: "https://sqlite.org", role: .aboutLibraryRoleSqlite),
        OpenSourceNotice(
            name: "Swift Crypto", package: "swift-crypto", license: "Apache-2.0",
            copyright: "Copyright 2019 The SwiftCrypto Project (includes BoringSSL, Apache-2.0)",
            url: "https://github.com/apple/swift-crypto", role: .aboutLibraryRoleSwiftCrypto),
        OpenSourceNotice(
            name: "ZIP Foundation", package: "zipfoundation", license: "MIT",
            copyright: "Copyright (c) 2017-2025 Thomas Zoechling", url: "https://github.com/weichsel/ZIPFoundation",
            role: .aboutLibraryRoleZipFoundation),
        OpenSourceNotice(
            name: "PostgresNIO", package: "postgres-nio", license: "MIT", copyright: "Copyright (c) 2019 Tanner Nelson",
            url: "https://github.com/vapor/postgres-nio", role: .aboutLibraryRolePostgresNIO),
        OpenSourceNotice(
            name: "Swift Argument Parser", package: "swift-argument-parser", license: "Apache-2.0 WITH Swift-exception",
            copyright: "Copyright (c) 2020 Apple Inc. and the Swift project authors",
            url: "https://github.com/apple/swift-argument-parser", role: .aboutLibraryRoleArgumentParser),
        OpenSourceNotice(
            name: "SwiftLog", package: "swift-log", license: "Apache-2.0",
            copyright: "Copyright 2018, 2019 The SwiftLog Project", url: "https://github.com/apple/swift-log",
            role: .aboutLibraryRoleSwiftLog),
        OpenSourceNotice(
            name: "Swift Service Lifecycle", package: "swift-service-lifecycle", license: "Apache-2.0",
            copyright: "Copyright 2019-2023 The ServiceLifecycle Project",
            url: "https://github.com/swift-server/swift-service-lifecycle", role: .aboutLibraryRoleServiceLifecycle),
    ]
}
